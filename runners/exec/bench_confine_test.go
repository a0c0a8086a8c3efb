//go:build linux

package exec_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// BenchmarkRunConfinement is the cost of confinement (issue 28): one run of
// a script that prints a line, through the whole runner, confined
// (launcher, namespaces, Landlock) and unconfined, for bash, Python and
// Node. Besides the wall time (ns/op) it reports the CPU of the script's
// processes, launcher included (cpu-ms/op, from RUSAGE_CHILDREN). Compare
// medians of several -count runs: make bench, or
// go test -run '^$' -bench RunConfinement -count 5 ./runners/exec/.
func BenchmarkRunConfinement(b *testing.B) {
	conf, err := launch.NewConfinement(launch.ConfineOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := conf.Available(); err != nil {
		b.Skipf("confinement unavailable: %v", err)
	}
	langs := []struct{ name, command, ext, body string }{
		{"bash", "bash", ".sh", "echo hi\n"},
		{"python3", "python3", ".py", "print('hi')\n"},
		{"node", "node", ".js", "console.log('hi')\n"},
	}
	// A version manager's shim (pyenv's python3) costs a shell and the
	// manager at every unconfined run; a confined run starts the interpreter
	// it resolved at start. The interpreter itself, unconfined, is the fair
	// baseline.
	if path, err := osexec.LookPath("python3"); err == nil {
		if real := conf.Install(path).Program; real != path {
			langs = append(langs, struct{ name, command, ext, body string }{"python3-interpreter", real, ".py", "print('hi')\n"})
		}
	}
	for _, lang := range langs {
		for _, mode := range []string{"none", "confined"} {
			b.Run(lang.name+"/"+mode, func(b *testing.B) {
				var opts []exec.Option
				if mode == "confined" {
					opts = append(opts, exec.WithConfinement(public(conf)))
				}
				r, err := exec.New(lang.command, opts...)
				if err != nil {
					b.Fatal(err)
				}
				dir := b.TempDir()
				script := filepath.Join(dir, "hi"+lang.ext)
				if err := os.WriteFile(script, []byte(lang.body), 0o644); err != nil {
					b.Fatal(err)
				}
				req := core.RunRequest{ScriptPath: script, File: "hi" + lang.ext, SkillDir: dir, Dir: dir, MaxOutputBytes: 1 << 20}
				if res, err := r.Run(context.Background(), req); err != nil || res.ExitCode != 0 {
					b.Skipf("%s: exit %d, %v (%s)", lang.command, res.ExitCode, err, res.Stderr)
				}
				before := childCPU()
				b.ResetTimer()
				for b.Loop() {
					res, err := r.Run(context.Background(), req)
					if err != nil || res.ExitCode != 0 {
						b.Fatalf("Run: exit %d, err %v", res.ExitCode, err)
					}
				}
				b.ReportMetric(float64(childCPU()-before)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// childCPU is the user and system CPU of this process's waited-for
// children so far.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
