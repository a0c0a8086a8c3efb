package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"unsafe"
)

// probe tries one thing chosen by SKILL_ARG_OP, so the runner's tests can
// check what the sandbox lets through:
//
//	read PATH            print the file's contents (exit 1 on error)
//	write PATH DATA      write DATA to the file (exit 1 on error)
//	symlink TARGET PATH  create a symlink (exit 1 on error)
//	rawopen PREOPEN PATH open PATH relative to the preopened dir PREOPEN with a raw
//	                     WASI path_open (no path cleaning by the Go runtime) and print it
//	alloc MB             allocate and touch MB mebibytes
//	loop                 spin forever
//	exit CODE            exit with CODE (proc_exit)
//	pwd                  print the working directory the runtime chose
//	openmany N PATH      open PATH N times without closing; print how many opened
func probe() {
	arg := func(name string) string { return os.Getenv("SKILL_ARG_" + name) }
	switch op := arg("OP"); op {
	case "read":
		b, err := os.ReadFile(arg("PATH"))
		check(err)
		os.Stdout.Write(b)
	case "write":
		check(os.WriteFile(arg("PATH"), []byte(arg("DATA")), 0o644))
		fmt.Println("written")
	case "symlink":
		check(os.Symlink(arg("TARGET"), arg("PATH")))
		fmt.Println("linked")
	case "rawopen":
		fd, err := rawOpen(arg("PREOPEN"), arg("PATH"))
		check(err)
		b, err := io.ReadAll(os.NewFile(uintptr(fd), arg("PATH")))
		check(err)
		os.Stdout.Write(b)
	case "alloc":
		mb, err := strconv.Atoi(arg("MB"))
		check(err)
		b := make([]byte, mb<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Println("allocated", mb, "MiB")
	case "loop":
		n := 0
		for {
			n++
		}
	case "exit":
		code, err := strconv.Atoi(arg("CODE"))
		check(err)
		os.Exit(code)
	case "openmany":
		n, err := strconv.Atoi(arg("N"))
		check(err)
		var held []*os.File
		for range n {
			f, err := os.Open(arg("PATH"))
			if err != nil {
				fmt.Println("error:", err)
				break
			}
			held = append(held, f)
		}
		fmt.Println("opened", len(held))
	case "pwd":
		wd, err := os.Getwd()
		check(err)
		fmt.Println(wd)
	default:
		fmt.Fprintf(os.Stderr, "unknown op %q\n", op)
		os.Exit(2)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type prestat struct {
	tag    uint32
	dirLen uint32
}

//go:wasmimport wasi_snapshot_preview1 fd_prestat_get
//go:noescape
func fdPrestatGet(fd int32, buf unsafe.Pointer) uint32

//go:wasmimport wasi_snapshot_preview1 fd_prestat_dir_name
//go:noescape
func fdPrestatDirName(fd int32, path unsafe.Pointer, pathLen uint32) uint32

//go:wasmimport wasi_snapshot_preview1 path_open
//go:noescape
func pathOpen(fd int32, dirflags uint32, path unsafe.Pointer, pathLen uint32, oflags uint32, rightsBase uint64, rightsInheriting uint64, fdflags uint32, newFd unsafe.Pointer) uint32

// rawOpen finds the preopened directory named preopen and opens rel below it
// for reading, following symlinks, exactly as given.
func rawOpen(preopen, rel string) (int32, error) {
	for fd := int32(3); fd < 64; fd++ {
		var ps prestat
		if errno := fdPrestatGet(fd, unsafe.Pointer(&ps)); errno != 0 {
			break
		}
		name := make([]byte, ps.dirLen)
		if ps.dirLen > 0 {
			if errno := fdPrestatDirName(fd, unsafe.Pointer(&name[0]), ps.dirLen); errno != 0 {
				return -1, fmt.Errorf("fd_prestat_dir_name: errno %d", errno)
			}
		}
		if string(name) != preopen {
			continue
		}
		p := []byte(rel)
		var newFd int32
		const lookupSymlinkFollow = 1
		const rightsFdRead = 1 << 1
		if errno := pathOpen(fd, lookupSymlinkFollow, unsafe.Pointer(&p[0]), uint32(len(p)), 0, rightsFdRead, 0, 0, unsafe.Pointer(&newFd)); errno != 0 {
			return -1, fmt.Errorf("path_open %q under %q: errno %d", rel, preopen, errno)
		}
		return newFd, nil
	}
	return -1, fmt.Errorf("no preopened directory %q", preopen)
}
