package launch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// ErrUnconfinable wraps every error saying that a script cannot be run
// confined here: the kernel lacks a mechanism, or the launcher failed.
var ErrUnconfinable = errors.New("scripts cannot be confined here")

// Grants are what one run may touch besides the system locations (see
// systemReadOnlyBase), the runners' installations and the operator's read roots.
type Grants struct {
	// ReadOnly are the skill's folders (its own and those it inherits
	// scripts from).
	ReadOnly []string
	// ReadWrite are the run's scratch directory (and other directories
	// only the server writes above).
	ReadWrite []string
	// Cwd, when set, is the run's working directory under a write root,
	// granted read-write: the server opens it without following any
	// symlink (its path was checked with its symlinks resolved) and the
	// launcher enters it and grants it through that handle, so a directory
	// swapped for a symlink since the check is refused, never followed.
	Cwd string
}

// Launch is one confined start in progress: Prepare made it, Started and
// Failure follow the launcher through cmd.Start and cmd.Wait.
type Launch struct {
	policy           []byte
	policyR, policyW *os.File
	reportR, reportW *os.File
	cwd              *os.File // the working directory's handle, or nil
	done             chan struct{}
	report           bytes.Buffer
}

// Prepare rewrites cmd, built to run a program directly (Path absolute,
// Args, Env, Dir), so that it starts the launcher instead, which confines
// itself to g (and the rest of the policy) and then executes the program.
// cmd may already have SysProcAttr set (a process group). Call Started just
// after cmd.Start succeeds, Close if it fails, and Failure after cmd.Wait.
func (c *Confinement) Prepare(cmd *exec.Cmd, g Grants) (*Launch, error) {
	if err := c.Available(); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(cmd.Path) {
		return nil, fmt.Errorf("confining %s: the program's path is not absolute", cmd.Path)
	}
	p := c.policy(g)
	p.Program, p.Argv, p.Env = cmd.Path, cmd.Args, cmd.Env
	if p.Env == nil {
		p.Env = []string{}
	}
	var cwd *os.File
	if g.Cwd != "" {
		f, err := openDirNoSymlinks(g.Cwd)
		if err != nil {
			return nil, fmt.Errorf("entering the working directory %s: %w (it changed since it was checked)", g.Cwd, err)
		}
		cwd, p.CwdFD = f, true
		cmd.Dir = "" // entered by the launcher through the handle, never by path
	}
	l, err := c.newLaunch(p)
	if err != nil {
		if cwd != nil {
			_ = cwd.Close()
		}
		return nil, err
	}
	cmd.Path, cmd.Args, cmd.Env = c.launcher, []string{LauncherArg0}, []string{}
	cmd.ExtraFiles = []*os.File{l.policyR, l.reportW}
	if cwd != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, cwd)
		l.cwd = cwd
	}
	if err := c.isolate(cmd); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// policy is the part of a launch policy that does not depend on the
// program: what it may read and write, and its limits.
func (c *Confinement) policy(g Grants) launchPolicy {
	ro := slices.Clone(systemReadOnly())
	ro = append(ro, c.readRoots...)
	ro = append(ro, c.installDirs()...)
	ro = append(ro, g.ReadOnly...)
	rw := append(systemReadWrite(), g.ReadWrite...)
	return launchPolicy{
		ReadOnly: ro, ReadWrite: rw, DenyNetwork: !c.network,
		DataBytes: c.dataBytes, Processes: MaxProcesses,
	}
}

func (c *Confinement) newLaunch(p launchPolicy) (*Launch, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encoding the launch policy: %w", err)
	}
	l := &Launch{policy: data, done: make(chan struct{})}
	if l.policyR, l.policyW, err = os.Pipe(); err != nil {
		return nil, fmt.Errorf("creating the policy pipe: %w", err)
	}
	if l.reportR, l.reportW, err = os.Pipe(); err != nil {
		l.Close()
		return nil, fmt.Errorf("creating the report pipe: %w", err)
	}
	return l, nil
}

// Started hands the policy to the started launcher and listens to its
// report; the launcher's ends of the pipes are closed here.
func (l *Launch) Started() {
	_ = l.policyR.Close()
	_ = l.reportW.Close()
	if l.cwd != nil {
		_ = l.cwd.Close()
	}
	go func() {
		_, _ = l.policyW.Write(l.policy) // fails only when the launcher died
		_ = l.policyW.Close()
	}()
	go func() {
		defer close(l.done)
		_, _ = io.Copy(&l.report, io.LimitReader(l.reportR, 64<<10))
		_ = l.reportR.Close()
	}()
}

// Close releases the pipes of a launch whose start failed.
func (l *Launch) Close() {
	for _, f := range []*os.File{l.policyR, l.policyW, l.reportR, l.reportW, l.cwd} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// Failure, once the process has been waited for, is why the launcher could
// not confine itself or execute the program (wrapping ErrUnconfinable), or
// nil when the program ran.
func (l *Launch) Failure() error {
	<-l.done
	if msg := strings.TrimSpace(l.report.String()); msg != "" {
		return fmt.Errorf("%w: the launcher failed: %s (%s=none runs scripts unconfined, with every right of the server's user)",
			ErrUnconfinable, msg, SandboxEnv)
	}
	return nil
}

// systemReadOnlyBase returns the system locations every confined program may
// read (and execute): what a program needs to start and find its libraries,
// locale, time zone, users and resolver. Missing ones are skipped. The
// README lists them. The program's own /proc/<pid> is granted too, no
// other process's. A function, so each caller gets its own slice and no
// code can widen what every later run may read.
func systemReadOnlyBase() []string {
	return []string{
		"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
		"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/ld.so.preload",
		"/etc/localtime", "/etc/timezone", "/etc/locale.alias", "/etc/locale.conf", "/etc/default/locale",
		"/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/host.conf", "/etc/resolv.conf",
		"/etc/gai.conf", "/etc/protocols", "/etc/services", "/etc/mime.types", "/etc/os-release",
		"/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/fonts",
		"/etc/alternatives",
		"/dev/urandom", "/dev/random", "/dev/zero", "/dev/full",
		// Machine-wide figures, no process's entry: how many CPUs and how much
		// memory (Node's os.cpus() sizes worker pools by it).
		"/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu",
	}
}

// systemReadOnly is systemReadOnlyBase with the per-version directories of
// /etc that a distribution's interpreters read (Debian's /etc/python3.11
// holds the sitecustomize.py that /usr/lib/python3.11 links to).
var systemReadOnly = sync.OnceValue(func() []string {
	paths := systemReadOnlyBase()
	for _, pattern := range []string{"/etc/python3*", "/etc/perl"} {
		matches, _ := filepath.Glob(pattern)
		paths = append(paths, matches...)
	}
	return paths
})

// systemReadWrite returns the system files every confined program may
// write, a new slice each call.
func systemReadWrite() []string { return []string{"/dev/null"} }

// probeResult is the outcome of the first confined start, kept.
type probeResult struct {
	once sync.Once
	err  error
}
