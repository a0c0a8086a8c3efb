package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

func enableSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// children lists the children of pid, from /proc/pid/task/*/children, else
// from the parent field of every /proc/*/stat.
func children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	read := false
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		read = true
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	if read {
		return out
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		if stat, err := os.ReadFile(dir + "/stat"); err == nil && parentOf(stat) == pid {
			if n, err := strconv.Atoi(filepath.Base(dir)); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// descendants lists pid's descendants, depth first.
func descendants(pid int) []int {
	var out []int
	for _, c := range children(pid) {
		out = append(out, c)
		out = append(out, descendants(c)...)
	}
	return out
}

// spared reports whether the child pid belongs to a run in progress or to
// this process's own group. The caller holds p.mu.
func (p *Processes) spared(pid, ownGroup int) bool {
	if p.leaders[pid] || p.isHelper(pid) {
		return true
	}
	if pgid, err := syscall.Getpgid(pid); err == nil && pgid == ownGroup {
		return true
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for e := range bytes.SplitSeq(env, []byte{0}) {
		if p.markers[string(e)] {
			return true
		}
	}
	return false
}

func (p *Processes) killOrphans() (int, error) {
	self, ownGroup := os.Getpid(), syscall.Getpgrp()
	p.mu.Lock()
	defer p.mu.Unlock()
	killed := 0
	// Killing an orphan reparents its descendants to this process: scan
	// until a round finds none (bounded against a fork bomb).
	for range 10 {
		var victims []int
		for _, c := range children(self) {
			if !p.spared(c, ownGroup) {
				victims = append(victims, c)
			}
		}
		if len(victims) == 0 {
			break
		}
		for _, v := range victims {
			for _, d := range descendants(v) {
				if syscall.Kill(d, syscall.SIGKILL) == nil {
					killed++
				}
			}
			if syscall.Kill(v, syscall.SIGKILL) == nil {
				killed++
			}
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(v, &ws, 0, nil) // our child: reap it
		}
	}
	return killed, nil
}

func (p *Processes) reapZombies() int {
	self, ownGroup := os.Getpid(), syscall.Getpgrp()
	p.mu.Lock()
	defer p.mu.Unlock()
	reaped := 0
	for _, c := range children(self) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(c) + "/stat")
		if err != nil || !isZombie(stat) || p.spared(c, ownGroup) {
			continue
		}
		var ws syscall.WaitStatus
		if pid, _ := syscall.Wait4(c, &ws, syscall.WNOHANG, nil); pid == c {
			reaped++
		}
	}
	return reaped
}

// isZombie reads the state field of /proc/PID/stat.
func isZombie(stat []byte) bool {
	end := bytes.LastIndexByte(stat, ')')
	return end >= 0 && len(stat) > end+2 && stat[end+2] == 'Z'
}
