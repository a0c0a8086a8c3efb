package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// credentialOutputLimit caps what is kept of a credential command's output.
const credentialOutputLimit = 64 << 10

// credentialWaitDelay is how long the output pipes stay open after git exits or
// is killed, for a helper child that kept them.
const credentialWaitDelay = time.Second

// nonInteractiveEnv keeps git and the helpers it runs from asking anybody:
// no terminal prompt, no askpass program (an empty GIT_ASKPASS also stops the
// fallback to core.askPass and SSH_ASKPASS), no Git Credential Manager dialog.
var nonInteractiveEnv = []string{
	"GIT_TERMINAL_PROMPT=0",
	"GIT_ASKPASS=",
	"SSH_ASKPASS=",
	"GCM_INTERACTIVE=never",
}

// gitCredential runs the real `git credential` command.
type gitCredential struct {
	// git is the git binary; empty means the one on PATH at each call.
	git string
	// env is added to the server's environment (tests point HOME and
	// GIT_CONFIG_GLOBAL at a configuration of their own).
	env []string
}

// run implements credentialRunner. Its standard input is input alone: the
// command never reads the user's terminal. When ctx ends, git and every process
// it started are killed; git is killed too when the process running this
// ends (Linux), so a killed skills-mcp-git leaves no git behind.
func (g gitCredential) run(ctx context.Context, action string, input []byte) ([]byte, error) {
	bin := g.git
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("git"); err != nil {
			return nil, fmt.Errorf("%w: %w", errNoGit, err)
		}
	}
	// credential.interactive=false (git 2.46 and later; ignored before) asks
	// helpers that honour it not to prompt either.
	cmd := exec.CommandContext(ctx, bin, "-c", "credential.interactive=false", "credential", action)
	cmd.Env = append(append(os.Environ(), g.env...), nonInteractiveEnv...)
	cmd.Stdin = bytes.NewReader(input)
	stdout := sandbox.NewCappedWriter(credentialOutputLimit)
	stderr := sandbox.NewCappedWriter(credentialOutputLimit)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Cancel = func() error {
		_, err := launch.KillGroup(cmd.Process)
		return err
	}
	cmd.WaitDelay = credentialWaitDelay
	// Its own process group, killed with the helper that runs this (Linux).
	err := childproc.Start(cmd, nil) // nothing in the git helper reaps orphans
	if err == nil {
		err = cmd.Wait()
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("git credential %s stopped: %w", action, ctxErr)
	}
	if err != nil {
		if msg := firstLine(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%w: %s", err, msg)
		}
		return nil, err
	}
	return []byte(stdout.String()), nil
}

// firstLine returns the first non-blank line of text, trimmed and shortened.
func firstLine(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 200 {
				line = line[:200] + "…"
			}
			return line
		}
	}
	return ""
}

// isNoGit reports whether err says that no git binary could be run.
func isNoGit(err error) bool { return errors.Is(err, errNoGit) }
