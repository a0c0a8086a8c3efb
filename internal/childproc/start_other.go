//go:build !linux

package childproc

import "os/exec"

// bindToParent does nothing where the kernel has no parent-death signal.
func bindToParent(*exec.Cmd) {}

// startOnStarterThread starts cmd: without a parent-death signal the thread
// that starts it does not matter.
func startOnStarterThread(cmd *exec.Cmd) error { return cmd.Start() }
