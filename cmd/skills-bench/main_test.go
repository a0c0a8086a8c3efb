package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
)

// TestRunEndToEnd builds skills-mcp, runs the whole benchmark on two tiny
// corpora and checks that every figure comes out, once per run, as a
// benchstat line with a positive value, and that the summary names every
// figure and target.
func TestRunEndToEnd(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "builds the server and spawns it several times")
	bin := filepath.Join(t.TempDir(), "skills-mcp")
	if out, err := releaseBuild(bin).CombinedOutput(); err != nil {
		t.Fatalf("building skills-mcp: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-bin", bin, "-corpora", t.TempDir(), "-skills", "12,30", "-runs", "2", "-calls", "16", "-in-flight", "4", "-q"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	figures := map[string]int{ // figure → samples per size
		"cat-floor": 2, "index-build": 2, "spawn-to-initialize": 2, "spawn-to-initialize-no-watch": 2,
		"spawn-to-first-get_skill": 2, "start-up-cpu-until-idle": 2,
		"get_skill-single-seq": 2, "get_skill-single-in-flight": 2, "get_skill-ambiguous-seq": 2,
		"get_skill-no-match-seq": 2, "list_skills": 2, "refresh_skills": 2, "idle-rss": 2, "peak-rss": 2, "peak-rss-after-refresh": 2,
		"skills_search-seq": 2, "skill-tool-seq": 2,
	}
	line := regexp.MustCompile(`(?m)^BenchmarkE2E/skills=(\d+)/(\S+)\t1\t(\d+(?:\.\d+)?) (\S+)`)
	got := map[string]int{}
	for _, m := range line.FindAllStringSubmatch(out, -1) {
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil || v <= 0 {
			t.Errorf("line for %s/%s has value %q, want a positive number", m[1], m[2], m[3])
		}
		got[m[1]+"/"+m[2]]++
	}
	for _, size := range []string{"12", "30"} {
		for figure, want := range figures {
			if n := got[size+"/"+figure]; n != want {
				t.Errorf("skills=%s %s: got %d lines, want %d", size, figure, n, want)
			}
		}
	}
	floorLine := regexp.MustCompile(`(?m)^BenchmarkE2E/floor/constant-seq\t1\t\d+ p50-ns\t\d+ p99-ns\t\d+ calls/s\t[1-9]\d* server-cpu-ns/call$`)
	if n := len(floorLine.FindAllString(out, -1)); n != 2 {
		t.Errorf("got %d floor lines with a positive CPU per call, want 2 (one per run):\n%s", n, out)
	}
	floorRSS := regexp.MustCompile(`(?m)^BenchmarkE2E/floor/(idle|peak)-rss\t1\t[1-9]\d* Vm(RSS|HWM)-B$`)
	if n := len(floorRSS.FindAllString(out, -1)); n != 4 {
		t.Errorf("got %d floor RSS lines with a positive size, want 4 (idle and peak per run):\n%s", n, out)
	}
	for _, want := range []string{"goos: ", "cpu: ", "# Summary", "floor: CPU/call of a constant tool",
		"get_skill CPU/call vs floor", "skills_search CPU/call vs floor", "skill tool CPU/call vs floor", "spawn to initialize result", "spawn to first get_skill answer", "start-up CPU until idle", "peak RSS", "refresh_skills", "8 > 1",
		"floor: RSS idle (peak after calls)", "RSS idle after start-up", "before"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
	}{
		{"size not a number", []string{"-skills", "ten"}},
		{"size zero", []string{"-skills", "0"}},
		{"no runs", []string{"-runs", "0"}},
		{"unknown flag", []string{"-nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != 2 {
				t.Errorf("got exit code %d, want 2", code)
			}
			if stdout.Len() != 0 {
				t.Errorf("got stdout %q, want nothing", stdout.String())
			}
		})
	}
}

func TestParseSizes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"100,1000,10000", []int{100, 1000, 10000}, false},
		{" 10_000 , 5,", []int{10000, 5}, false},
		{"", nil, true},
		{"1,-2", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseSizes(tt.in)
			if (err != nil) != tt.wantErr || !equalInts(got, tt.want) {
				t.Errorf("got %v, %v; want %v, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestPercentileAndMedian(t *testing.T) {
	t.Parallel()
	ds := []time.Duration{9, 1, 5, 3, 7, 2, 8, 4, 6, 10}
	tests := []struct {
		name string
		got  time.Duration
		want time.Duration
	}{
		{"p50", percentile(ds, 50), 5},
		{"p99", percentile(ds, 99), 10},
		{"p1", percentile(ds, 1), 1},
		{"empty", percentile(nil, 50), 0},
		{"median even", median(ds), 5},
		{"median odd", median(ds[:5]), 5},
		{"median empty", median([]time.Duration(nil)), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	if ds[0] != 9 {
		t.Errorf("percentile sorted its input: ds[0] = %v, want 9", ds[0])
	}
}

func TestPeakRSSAndCPUTimeOfThisProcess(t *testing.T) {
	t.Parallel()
	rss, err := peakRSS(os.Getpid())
	if err != nil || rss < 1<<20 {
		t.Errorf("peakRSS = %d, %v; want at least 1 MiB", rss, err)
	}
	cpu, err := cpuTime(os.Getpid())
	if err != nil || cpu <= 0 {
		t.Errorf("cpuTime = %v, %v; want a positive duration", cpu, err)
	}
	if _, err := peakRSS(-1); err == nil {
		t.Error("peakRSS(-1) succeeded, want an error")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
