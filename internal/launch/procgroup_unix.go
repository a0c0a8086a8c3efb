//go:build unix

package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func startInGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
}

func terminateGroup(p *os.Process) error {
	_, err := signalGroup(p, syscall.SIGTERM)
	return err
}

func killGroup(p *os.Process) (bool, error) { return signalGroup(p, syscall.SIGKILL) }

// signalGroup sends sig to the process group whose id is p's pid.
func signalGroup(p *os.Process, sig syscall.Signal) (bool, error) {
	if p == nil || p.Pid <= 0 {
		return false, fmt.Errorf("signalling process group: no process")
	}
	err := syscall.Kill(-p.Pid, sig)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.ESRCH):
		return false, nil
	default:
		return false, fmt.Errorf("signalling process group %d with %v: %w", p.Pid, sig, err)
	}
}

func exitCode(state *os.ProcessState) int {
	if state == nil {
		return -1
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return state.ExitCode()
}

// groupSignalable reports whether signal 0 reaches process group pid: some
// member exists (zombies included) or exists but belongs to another user.
func groupSignalable(pid int) bool {
	err := syscall.Kill(-pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
