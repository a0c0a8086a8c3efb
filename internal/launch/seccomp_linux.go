//go:build linux

package launch

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompArch is the audit architecture and the number of socket(2) of the
// architectures the launcher filters; elsewhere it installs no filter.
var seccompArch = map[string]struct{ arch, socket uint32 }{
	"amd64": {0xC000003E, 41},  // AUDIT_ARCH_X86_64
	"arm64": {0xC00000B7, 198}, // AUDIT_ARCH_AARCH64
}

// ioUringSetup is io_uring_setup(2), the same number on amd64 and arm64: its
// operations (a socket among them) bypass seccomp.
const ioUringSetup = 425

// denySockets installs a seccomp filter that makes socket(AF_UNIX, …) and
// io_uring_setup fail with EACCES, and refuses every system call of another
// architecture (32-bit compat, x32) the same way. Landlock before ABI 9 does
// not mediate connecting to a pathname unix socket (a container runtime's,
// a system bus): without a socket of that family there is nothing to
// connect, while socketpair(2), which pipes and worker processes use, still
// works. It reports whether a filter was installed (not on architectures
// it does not know).
func denySockets() (bool, error) {
	a, ok := seccompArch[runtime.GOARCH]
	if !ok {
		return false, nil
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	)
	// Offsets in struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its
	// low 32 bits, little-endian: socket's int domain).
	filter := []unix.SockFilter{
		{Code: ld, K: 4},                           // 0: arch
		{Code: jeq, K: a.arch, Jt: 0, Jf: 7},       // 1: another architecture → deny
		{Code: ld, K: 0},                           // 2: nr
		{Code: jge, K: 0x40000000, Jt: 5, Jf: 0},   // 3: x32 → deny
		{Code: jeq, K: ioUringSetup, Jt: 4, Jf: 0}, // 4: io_uring_setup → deny
		{Code: jeq, K: a.socket, Jt: 0, Jf: 2},     // 5: not socket → allow
		{Code: ld, K: 16},                          // 6: domain
		{Code: jeq, K: unix.AF_UNIX, Jt: 1, Jf: 0}, // 7: AF_UNIX → deny
		{Code: ret, K: allow},                      // 8
		{Code: ret, K: deny},                       // 9
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog)), 0, 0); err != nil {
		return false, fmt.Errorf("installing the seccomp filter: %w", err)
	}
	return true, nil
}
