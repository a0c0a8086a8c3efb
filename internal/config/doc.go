// Package config owns turning config.yaml and the environment into a Config:
// defaults first, the file merged over them (spec 000 §11.3), then the environment
// overrides, then validation. An invalid configuration is an *Error listing every
// problem at once, each naming the file, the line and the dotted key at fault.
package config
