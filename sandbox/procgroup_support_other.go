//go:build !unix

package sandbox

var processGroups = ErrNoProcessGroups
