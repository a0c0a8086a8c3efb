// Command guest is the one WebAssembly test program of the wasm runner (one
// program, so the tests compile one module). Like a multi-call binary it does
// what its file name (argv[0], e.g. "print-args.wasm") says: the conformance
// behaviours of runnertest, or, for any other name, the probe operation named
// by SKILL_ARG_OP (see probe.go).
package main

import (
	"os"
	"path"
	"strings"
)

func main() {
	switch strings.TrimSuffix(path.Base(os.Args[0]), ".wasm") {
	case "print-args":
		printArgs()
	case "exit-3":
		exit3()
	case "sleep":
		sleep()
	case "flood":
		flood()
	case "read-stdin":
		readStdin()
	case "print-env":
		printEnv()
	default:
		probe()
	}
}
