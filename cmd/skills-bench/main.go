// Command skills-bench is the end-to-end benchmark of skills-mcp (issue 9). It
// builds the server binary (or takes -bin), writes deterministic corpora of
// the sizes asked for (package internal/corpus, cached between runs), and for
// each size measures:
//
//   - the cat floor: `find DIR -type f -exec cat {} +` over every file of the
//     corpus, page cache warm, beside the in-process index build (the same
//     index.Rebuild the server runs at startup);
//   - for -runs server processes spawned over stdio with SKILLS_DIR set to the
//     corpus and a fresh SKILLS_STATE_DIR: the time from spawn to the
//     initialize result and to the answer of a get_skill sent right after it
//     (the index is built while the handshake runs), the CPU the process used
//     until it went idle (index build and background walks), then get_skill
//     round trips (p50, p99, calls/s and server CPU per call) one at a time
//     and with -in-flight calls in flight, list_skills of the whole tree,
//     peak RSS (VmHWM), and refresh_skills.
//
// It speaks raw newline-delimited JSON-RPC to the server (no SDK on the client
// side). Every sample is printed as a benchstat line, then a summary of the
// medians against the TypeScript figures and the targets of issue 9:
//
//	go run ./cmd/skills-bench -skills 100,1000,10000 -runs 5
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole command: flags, build, measure, report. It returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("skills-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("skills", "100,1000,10000", "comma-separated corpus sizes")
	var st settings
	fs.IntVar(&st.runs, "runs", 5, "server spawns (and cat and index samples) per size")
	fs.IntVar(&st.calls, "calls", 2000, "get_skill calls per run, one at a time and again in flight")
	fs.IntVar(&st.inFlight, "in-flight", 8, "concurrent get_skill calls of the in-flight measurement")
	fs.StringVar(&st.bin, "bin", "", "the skills-mcp binary (default: built from ./cmd/skills-mcp into a temp dir)")
	fs.StringVar(&st.floorBin, "floor-bin", "", "the do-nothing floor server (default: built from ./cmd/mcp-floor into a temp dir)")
	fs.StringVar(&st.corpora, "corpora", "", "where corpora are cached (default $SKILLS_BENCH_CORPORA or $TMPDIR/skills-mcp-corpora)")
	serveArgs := fs.String("serve-args", "", "extra arguments for `skills-mcp serve`, space-separated (e.g. --no-watch)")
	serverEnv := fs.String("server-env", "", "extra environment of the server, space-separated KEY=VALUE (e.g. GOGC=50)")
	quiet := fs.Bool("q", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ns, err := parseSizes(*sizes)
	if err != nil || st.runs < 1 || st.calls < 1 || st.inFlight < 1 {
		fmt.Fprintf(stderr, "skills-bench: -skills must list positive sizes and -runs, -calls, -in-flight be positive (%v)\n", err)
		return 2
	}
	st.args = strings.Fields(*serveArgs)
	st.env = strings.Fields(*serverEnv)
	progress := func(msg string) {
		if !*quiet {
			fmt.Fprintln(stderr, "skills-bench: "+msg)
		}
	}
	binDir, err := os.MkdirTemp("", "skills-bench-bin-")
	if err != nil {
		fmt.Fprintln(stderr, "skills-bench:", err)
		return 1
	}
	defer os.RemoveAll(binDir)
	for _, b := range []struct {
		path  *string
		name  string
		build func(string) *exec.Cmd
	}{{&st.bin, "skills-mcp", releaseBuild}, {&st.floorBin, "mcp-floor", floorBuild}} {
		if *b.path != "" {
			continue
		}
		*b.path = filepath.Join(binDir, b.name)
		progress("building " + *b.path)
		if out, err := b.build(*b.path).CombinedOutput(); err != nil {
			fmt.Fprintf(stderr, "skills-bench: building %s: %v\n%s", b.name, err, out)
			return 1
		}
	}
	writeHeader(stdout)
	progress("the floor server")
	floor, err := measureFloor(st)
	if err != nil {
		fmt.Fprintln(stderr, "skills-bench:", err)
		return 1
	}
	writeFloorSamples(stdout, floor)
	var results []*sizeResult
	for _, n := range ns {
		r, err := measureSize(st, n, progress)
		if err != nil {
			fmt.Fprintf(stderr, "skills-bench: skills=%d: %v\n", n, err)
			return 1
		}
		writeSamples(stdout, r)
		results = append(results, r)
	}
	writeSummary(stdout, results, floor, st.runs)
	fmt.Fprintf(stdout, "# load average at the end: %s\n", loadAverage())
	return 0
}

// parseSizes reads a comma-separated list of positive integers.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(strings.ReplaceAll(part, "_", ""))
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad size %q", part)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no size")
	}
	return out, nil
}

// releaseBuild is the go build of skills-mcp that `make build` runs: static
// (CGO_ENABLED=0, so no C library is mapped into the process) and without
// symbol tables; the benchmark measures the binary users get.
func releaseBuild(out string) *exec.Cmd {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "github.com/skills-mcp/skills-mcp/cmd/skills-mcp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}
