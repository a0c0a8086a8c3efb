//go:build linux

package launch

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// unprivilegedID is the user and group a script runs as, outside its user
// namespace, when the server runs as root: RLIMIT_NPROC does not bind root,
// and root outside would reach every file Landlock does not cover. 65534 is
// the kernel's overflow ID, "nobody".
const unprivilegedID = 65534

// isolate starts cmd in a new user namespace, and a new network namespace
// unless the network is allowed. Inside, the program is user 0 of its own
// namespace, which is an unprivileged user outside: the server's own user,
// or nobody (unprivilegedID) when the server is root, with root mapped as
// user 1 so that the kept capabilities (keptCapabilities) reach the
// server's files that Landlock grants.
func (c *Confinement) isolate(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWUSER
	if !c.network {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	if uid != 0 {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
		return nil
	}
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: unprivilegedID, Size: 1}, {ContainerID: 1, HostID: 0, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: unprivilegedID, Size: 1}, {ContainerID: 1, HostID: gid, Size: 1}}
	if gid == unprivilegedID {
		a.GidMappings = a.GidMappings[:1]
	}
	a.GidMappingsEnableSetgroups = true
	// setgroups([]), setgid(0), setuid(0) inside: nobody outside, with no
	// supplementary group.
	a.Credential = &syscall.Credential{Uid: 0, Gid: 0, Groups: []uint32{}}
	return nil
}

// Available reports whether scripts can be confined here: nil, or an error
// wrapping ErrUnconfinable that says why and names SandboxEnv=none. The
// first call starts the launcher once (a probe), so the answer is what the
// kernel actually allowed; later calls return the same answer.
func (c *Confinement) Available() error {
	c.probe.once.Do(func() { c.probe.err = c.runProbe() })
	return c.probe.err
}

func (c *Confinement) runProbe() error {
	if abi, err := llsyscall.LandlockGetABIVersion(); err != nil || abi < 1 {
		return unconfinable("this kernel has no Landlock (a Linux 5.13 or later with Landlock enabled at boot is needed)")
	}
	l, err := c.newLaunch(launchPolicy{Probe: true, DenyNetwork: !c.network, DataBytes: c.dataBytes, Processes: MaxProcesses,
		ReadOnly: systemReadOnlyBase(), ReadWrite: systemReadWrite()})
	if err != nil {
		return err
	}
	cmd := &exec.Cmd{Path: c.launcher, Args: []string{LauncherArg0}, Env: []string{}, Dir: "/",
		ExtraFiles: []*os.File{l.policyR, l.reportW}}
	if err := c.isolate(cmd); err != nil {
		l.Close()
		return err
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		l.Close()
		return unconfinable("starting the launcher in a new user namespace failed (%v): unprivileged user namespaces may be off "+
			"(sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, or an AppArmor restriction)", err)
	}
	l.Started()
	timer := time.AfterFunc(30*time.Second, func() { _ = cmd.Process.Kill() })
	waitErr := cmd.Wait()
	timer.Stop()
	if err := l.Failure(); err != nil {
		return err
	}
	if waitErr != nil || strings.TrimSpace(out.String()) != probeAnswer {
		return unconfinable("the launcher %s did not confine itself: %v %q", c.launcher, waitErr, strings.TrimSpace(out.String()))
	}
	return nil
}

func unconfinable(format string, args ...any) error {
	return fmt.Errorf("%w: %s; set %s=none to run scripts unconfined, with every right of the server's user",
		ErrUnconfinable, fmt.Sprintf(format, args...), SandboxEnv)
}

// Mechanisms says which confinement mechanisms are active here, for
// `skills-mcp version`: the Landlock ABI and what it covers and, when the
// probe succeeded, the namespaces and limits every confined run gets.
func (c *Confinement) Mechanisms() string {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return "no Landlock in this kernel"
	}
	covers := "files"
	if abi >= 4 {
		covers += ", TCP bind/connect"
	}
	if abi >= 6 {
		covers += ", abstract unix sockets and signals scoped"
	}
	parts := []string{fmt.Sprintf("Landlock ABI %d (%s)", abi, covers)}
	if c.Available() != nil {
		return parts[0]
	}
	if c.network {
		parts = append(parts, "user namespace (network allowed by "+NetworkEnv+")")
	} else {
		parts = append(parts, "user and network namespaces (no network)")
	}
	parts = append(parts, "no_new_privs", fmt.Sprintf("RLIMIT_DATA %d MiB", c.dataBytes>>20), fmt.Sprintf("RLIMIT_NPROC %d", MaxProcesses))
	return strings.Join(parts, "; ")
}

// Summary names the mechanisms a confined run gets, for RunResult's
// Confinement: "landlock-abi7, userns, netns, rlimits".
func (c *Confinement) Summary() string {
	abi, _ := llsyscall.LandlockGetABIVersion()
	s := fmt.Sprintf("landlock-abi%d, userns", abi)
	if !c.network {
		s += ", netns"
	}
	return s + ", rlimits"
}
