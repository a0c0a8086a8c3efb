//go:build linux

package launch

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// init turns this process into the launcher when it was started as one
// (LauncherArg0): Go cannot act between fork and exec, so the server starts
// itself under that name in the run's namespaces, and the launcher confines
// itself and executes the script's program. It never returns then.
func init() {
	if len(os.Args) == 1 && os.Args[0] == LauncherArg0 {
		launcherMain()
	}
}

// launcherMain confines the process and executes the program; on failure it
// writes why to the report descriptor and exits with launcherFailed.
func launcherMain() {
	// Landlock, no_new_privs and capabilities are per thread: everything
	// from here to the exec runs on this one.
	runtime.LockOSThread()
	report := os.NewFile(reportFD, "report")
	syscall.CloseOnExec(reportFD)
	policy := os.NewFile(policyFD, "policy")
	p, err := readPolicy(policy)
	if policy != nil {
		_ = policy.Close()
	}
	if err == nil {
		err = confineSelf(p)
	}
	if err == nil && p.Probe {
		_, _ = os.Stdout.WriteString(probeAnswer + "\n")
		os.Exit(0)
	}
	if err == nil {
		err = syscall.Exec(p.Program, p.Argv, p.Env)
		err = fmt.Errorf("executing %s: %w", p.Program, err)
	}
	if report != nil {
		_, _ = report.WriteString(err.Error())
	}
	os.Exit(launcherFailed)
}

// keptCapabilities are the capabilities, inside the run's own user
// namespace, that the program keeps: reading and writing files whose owner
// is mapped into it (the server's), so that a server running as root still
// reaches its own 0700 directories while the program runs as an
// unprivileged user. Landlock decides which files; every other capability
// (setuid back to root among them) is gone.
var keptCapabilities = []uintptr{unix.CAP_DAC_OVERRIDE, unix.CAP_DAC_READ_SEARCH}

// confineSelf applies p to this process: resource limits, capabilities,
// no_new_privs, a seccomp filter against unix sockets and io_uring, then
// Landlock.
func confineSelf(p launchPolicy) error {
	limits := []struct {
		name     string
		resource int
		value    uint64
	}{
		{"RLIMIT_CORE", unix.RLIMIT_CORE, 0},
		{"RLIMIT_DATA", unix.RLIMIT_DATA, p.DataBytes},
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, p.Processes},
	}
	for _, l := range limits {
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: l.value, Max: l.value}); err != nil {
			return fmt.Errorf("setting %s to %d: %w", l.name, l.value, err)
		}
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	if _, err := denySockets(); err != nil {
		return err
	}
	return restrictFiles(p)
}

// dropCapabilities removes every capability but keptCapabilities from the
// bounding set (what the executed program can ever hold) and clears the
// ambient and inheritable sets.
func dropCapabilities() error {
	last, err := lastCapability()
	if err != nil {
		return err
	}
	for c := uintptr(0); c <= last; c++ {
		if isKept(c) {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("reading capabilities: %w", err)
	}
	for i := range data {
		data[i].Inheritable = 0
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("clearing inheritable capabilities: %w", err)
	}
	return nil
}

func isKept(c uintptr) bool {
	for _, k := range keptCapabilities {
		if c == k {
			return true
		}
	}
	return false
}

// lastCapability is the highest capability number the kernel knows.
func lastCapability() (uintptr, error) {
	data, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 0, fmt.Errorf("reading the last capability: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || n < 0 || n > 63 {
		return 0, fmt.Errorf("reading the last capability: %q", data)
	}
	return uintptr(n), nil
}

// restrictFiles restricts this thread (and the program it executes) with
// Landlock, at the highest ABI the kernel and go-landlock share: files
// outside p's lists cannot be read, written or executed; with DenyNetwork,
// TCP (and, where supported, UDP) bind and connect are denied; abstract
// unix sockets and signals cannot reach outside the run (ABI 6). A kernel
// without Landlock is an error: the program never runs unconfined.
func restrictFiles(p launchPolicy) error {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return fmt.Errorf("this kernel has no Landlock (%v)", err)
	}
	cfg := landlock.V11
	if !p.DenyNetwork {
		cfg.HandledAccessNet = 0
	}
	cfg = cfg.BestEffort()
	var rules []landlock.Rule
	for _, path := range p.ReadOnly {
		rule, ok, err := pathRule(path, false, abi)
		if err != nil {
			return err
		}
		if ok {
			rules = append(rules, rule)
		}
	}
	for _, path := range p.ReadWrite {
		rule, ok, err := pathRule(path, true, abi)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("granting %s: it does not exist", path)
		}
		rules = append(rules, rule)
	}
	if p.CwdFD {
		// Entered and granted through the handle the server opened without
		// following symlinks: "." is that directory, whatever its path
		// leads to now.
		if err := unix.Fchdir(cwdFD); err != nil {
			return fmt.Errorf("entering the working directory: %w", err)
		}
		_ = unix.Close(cwdFD)
		rule, _, err := pathRule(".", true, abi)
		if err != nil {
			return err
		}
		rules = append(rules, rule)
	}
	if self, err := os.Readlink("/proc/self"); err == nil {
		// The program's own /proc entry, not any other's (the launcher's pid
		// is the program's).
		rules = append(rules, landlock.RODirs("/proc/"+self))
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("preparing the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return fmt.Errorf("the Landlock ruleset restricts nothing here (ABI %d): refusing to run unconfined", abi)
	}
	defer unix.Close(fd)
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("enforcing the Landlock ruleset: %w", err)
	}
	return nil
}

// pathRule is the Landlock rule granting path: read and execute, plus write
// when write is set (and moving files between directories, at ABI 2 and
// later). Directories and files take different rules. ok is false for a
// path that does not exist.
func pathRule(path string, write bool, abi int) (rule landlock.Rule, ok bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("granting %s: %w", path, err)
	}
	switch {
	case fi.IsDir() && write:
		r := landlock.RWDirs(path)
		if abi >= 2 {
			r = r.WithRefer()
		}
		return r, true, nil
	case fi.IsDir():
		return landlock.RODirs(path), true, nil
	case write:
		return landlock.RWFiles(path), true, nil
	default:
		return landlock.ROFiles(path), true, nil
	}
}
