// Package config owns turning config.yaml and the environment into a core.Config:
// defaults first, the file merged over them (spec 000 §11.3), then the environment
// overrides, then validation. Every error names the file and the key at fault.
package config
