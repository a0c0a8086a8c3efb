//go:build !linux

package launch

import (
	"fmt"
	"os/exec"
	"runtime"
)

// isolate is never reached where Available fails.
func (c *Confinement) isolate(*exec.Cmd) error { return c.Available() }

// Available reports that scripts cannot be confined here: confinement uses
// Linux's Landlock and namespaces.
func (c *Confinement) Available() error {
	return unconfinable("native scripts are confined with Linux's Landlock and namespaces, and this is %s", runtime.GOOS)
}

func unconfinable(format string, args ...any) error {
	return fmt.Errorf("%w: %s; set %s=none to run scripts unconfined, with every right of the server's user",
		ErrUnconfinable, fmt.Sprintf(format, args...), SandboxEnv)
}

// Mechanisms says that no confinement mechanism is available here.
func (c *Confinement) Mechanisms() string {
	return "none on " + runtime.GOOS + " (confined native scripts need Linux's Landlock and namespaces; .wasm scripts are confined everywhere)"
}

// Summary is empty: nothing confines a run here.
func (c *Confinement) Summary() string { return "" }
