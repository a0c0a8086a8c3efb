//go:build !linux

package main

// hideSecrets does nothing outside linux.
func hideSecrets() {}
