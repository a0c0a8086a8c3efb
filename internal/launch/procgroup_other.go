//go:build !unix

package launch

import (
	"errors"
	"os"
	"os/exec"
)

// Without process groups the helpers act on the process alone: a script's
// children may outlive it.

func startInGroup(*exec.Cmd) {}

// terminateGroup kills p: not every OS can deliver a polite stop signal.
func terminateGroup(p *os.Process) error {
	_, err := killGroup(p)
	return err
}

func killGroup(p *os.Process) (bool, error) {
	if p == nil {
		return false, errors.New("signalling process: no process")
	}
	if err := p.Kill(); err != nil {
		if errors.Is(err, os.ErrProcessDone) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

func groupAlive(int) bool { return false }

func exitCode(state *os.ProcessState) int {
	if state == nil {
		return -1
	}
	return state.ExitCode()
}
