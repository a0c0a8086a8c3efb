//go:build !linux

package skillscmd

// protectSecrets has nothing to do where /proc/<pid>/environ does not exist.
func protectSecrets() error { return nil }
