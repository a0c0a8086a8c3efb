package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// writeHeader prints the machine the figures come from, in the key: value
// form benchstat reads as configuration.
func writeHeader(w io.Writer) {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/skills-mcp/skills-mcp/cmd/skills-bench\n", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "cpu: %s\n", cpuModel())
	fmt.Fprintf(w, "# cores: %d, memory: %s, load average: %s\n", runtime.NumCPU(), memTotal(), loadAverage())
}

// writeSamples prints one benchstat line per sample: benchstat computes the
// medians and confidence intervals across the runs.
func writeSamples(w io.Writer, r *sizeResult) {
	name := func(figure string) string { return fmt.Sprintf("BenchmarkE2E/skills=%d/%s", r.skills, figure) }
	for _, d := range r.cat {
		fmt.Fprintf(w, "%s\t1\t%d ns/op\t%d files\t%d B\n", name("cat-floor"), d.Nanoseconds(), r.files, r.bytes)
	}
	for _, d := range r.indexed {
		fmt.Fprintf(w, "%s\t1\t%d ns/op\n", name("index-build"), d.Nanoseconds())
	}
	lat := func(figure string, l latencies) { writeLatency(w, name(figure), l) }
	for _, s := range r.runs {
		fmt.Fprintf(w, "%s\t1\t%d ns/op\n", name("spawn-to-initialize"), s.spawn.Nanoseconds())
		fmt.Fprintf(w, "%s\t1\t%d ns/op\n", name("spawn-to-first-get_skill"), s.firstAnswer.Nanoseconds())
		fmt.Fprintf(w, "%s\t1\t%d cpu-ns\n", name("start-up-cpu-until-idle"), s.startCPU.Nanoseconds())
		if s.spawnNoWatch > 0 {
			fmt.Fprintf(w, "%s\t1\t%d ns/op\n", name("spawn-to-initialize-no-watch"), s.spawnNoWatch.Nanoseconds())
		}
		lat("get_skill-single-seq", s.seq)
		lat("get_skill-single-in-flight", s.par)
		lat("get_skill-ambiguous-seq", s.ambiguous)
		lat("get_skill-no-match-seq", s.noHit)
		fmt.Fprintf(w, "%s\t1\t%d ns/op\t%d resp-B\n", name("list_skills"), s.list.Nanoseconds(), s.listBytes)
		fmt.Fprintf(w, "%s\t1\t%d ns/op\n", name("refresh_skills"), s.refresh.Nanoseconds())
		fmt.Fprintf(w, "%s\t1\t%d VmRSS-B\n", name("idle-rss"), s.idleRSS)
		fmt.Fprintf(w, "%s\t1\t%d VmHWM-B\n", name("peak-rss"), s.rss)
		fmt.Fprintf(w, "%s\t1\t%d VmHWM-B\n", name("peak-rss-after-refresh"), s.rssAfterRefresh)
	}
	for _, s := range r.tools {
		writeLatency(w, name("skills_search-seq"), s.search)
		writeLatency(w, name("skill-tool-seq"), s.skill)
	}
}

// writeLatency prints one batch of calls as a benchstat line.
func writeLatency(w io.Writer, name string, l latencies) {
	fmt.Fprintf(w, "%s\t1\t%d p50-ns\t%d p99-ns\t%.0f calls/s", name, l.p50.Nanoseconds(), l.p99.Nanoseconds(), l.callsPerSec)
	if l.cpuPerCall > 0 {
		fmt.Fprintf(w, "\t%d server-cpu-ns/call", l.cpuPerCall.Nanoseconds())
	}
	fmt.Fprintln(w)
}

// writeFloorSamples prints the floor server's calls, one line per run.
func writeFloorSamples(w io.Writer, f *floorResult) {
	for _, l := range f.runs {
		writeLatency(w, "BenchmarkE2E/floor/constant-seq", l.latencies)
		fmt.Fprintf(w, "BenchmarkE2E/floor/idle-rss\t1\t%d VmRSS-B\n", l.idleRSS)
		fmt.Fprintf(w, "BenchmarkE2E/floor/peak-rss\t1\t%d VmHWM-B\n", l.peakRSS)
	}
}

// typeScript holds the figures of the TypeScript implementation of spec 000
// quoted by issue 9 (2-core machines, medians of 5), by corpus size.
var typeScript = map[string]map[int]float64{
	"spawn":   {100: 473e6, 1000: 1283e6, 10000: 7568e6}, // ns
	"cpu":     {100: 1.2e6, 1000: 4.2e6, 10000: 35e6},    // ns per get_skill call
	"list":    {10000: 311e6},                            // ns
	"refresh": {10000: 5.8e9},                            // ns
	"rss":     {100: 131 << 20, 1000: 133 << 20, 10000: 397 << 20},
}

// issue19Before holds the figures issue 19 quoted when it was filed (2-core
// machines, medians), by corpus size: the "before" of its targets.
var issue19Before = map[string]map[int]string{
	"cpu":      {10000: "366 µs"},
	"rss":      {100: "20.5 MB"},
	"search":   {10000: "~100 ms"},
	"startCPU": {10000: "900 ms"},
	"first":    {10000: "189 ms"},
}

// row is one line of the summary table.
type row struct {
	figure string
	skills int
	ours   string
	ts     string // the TypeScript server of spec 000, quoted by issue 9
	before string // quoted by issue 19 when it was filed
	target string
	met    string
}

// summaryRows compares the medians with the TypeScript figures and the targets of issue 9.
func summaryRows(results []*sizeResult) []row {
	var rows []row
	for _, r := range results {
		n := r.skills
		spawn := median(collect(r.runs, func(s runSample) time.Duration { return s.spawn }))
		cat, idx := median(r.cat), median(r.indexed)
		cpu := median(collect(r.runs, func(s runSample) time.Duration { return s.seq.cpuPerCall }))
		p50 := median(collect(r.runs, func(s runSample) time.Duration { return s.seq.p50 }))
		p99 := median(collect(r.runs, func(s runSample) time.Duration { return s.seq.p99 }))
		parP50 := median(collect(r.runs, func(s runSample) time.Duration { return s.par.p50 }))
		seqRate := median(collect(r.runs, func(s runSample) float64 { return s.seq.callsPerSec }))
		parRate := median(collect(r.runs, func(s runSample) float64 { return s.par.callsPerSec }))
		list := median(collect(r.runs, func(s runSample) time.Duration { return s.list }))
		refresh := median(collect(r.runs, func(s runSample) time.Duration { return s.refresh }))
		rss := median(collect(r.runs, func(s runSample) int64 { return s.rss }))
		rssRefresh := median(collect(r.runs, func(s runSample) int64 { return s.rssAfterRefresh }))

		spawnRow := row{figure: "spawn to initialize result", skills: n, ours: ms(spawn), ts: tsDur("spawn", n)}
		switch n {
		case 1000:
			spawnRow.target, spawnRow.met = "< 25 ms", yes(spawn < 25*time.Millisecond)
		case 10000:
			spawnRow.target, spawnRow.met = "< 250 ms", yes(spawn < 250*time.Millisecond)
		}
		rows = append(rows, spawnRow)
		if noWatch := median(collect(r.runs, func(s runSample) time.Duration { return s.spawnNoWatch })); noWatch > 0 {
			rows = append(rows, row{figure: "  the same with --no-watch", skills: n, ours: ms(noWatch)})
		}
		first := median(collect(r.runs, func(s runSample) time.Duration { return s.firstAnswer }))
		startCPU := median(collect(r.runs, func(s runSample) time.Duration { return s.startCPU }))
		firstRow := row{figure: "spawn to first get_skill answer", skills: n, ours: ms(first), before: issue19Before["first"][n]}
		startRow := row{figure: "start-up CPU until idle", skills: n, ours: ms(startCPU), before: issue19Before["startCPU"][n]}
		if n == 10000 {
			firstRow.target, firstRow.met = "<= 100 ms", yes(first <= 100*time.Millisecond)
			startRow.target, startRow.met = "<= 300 ms", yes(startCPU <= 300*time.Millisecond)
		}
		rows = append(rows, firstRow, startRow)
		ratio := float64(idx) / float64(cat)
		idxRow := row{figure: "index build (cat floor)", skills: n, ours: fmt.Sprintf("%s (%s, %.1fx)", ms(idx), ms(cat), ratio)}
		if n == 10000 {
			idxRow.target, idxRow.met = "<= 3x cat", yes(ratio <= 3)
		}
		rows = append(rows, idxRow)
		cpuRow := row{figure: "get_skill server CPU/call", skills: n, ours: us(cpu), ts: tsDur("cpu", n), before: issue19Before["cpu"][n]}
		rtRow := row{figure: "get_skill round trip p50 (p99)", skills: n, ours: fmt.Sprintf("%s (%s)", us(p50), us(p99))}
		if n == 10000 {
			cpuRow.target, cpuRow.met = "< 200 µs", yes(cpu < 200*time.Microsecond)
			rtRow.target, rtRow.met = "< 1 ms p50", yes(p50 < time.Millisecond)
		}
		rows = append(rows, cpuRow, rtRow,
			row{figure: "get_skill calls/s: 1 vs 8 in flight", skills: n,
				ours:   fmt.Sprintf("%.0f vs %.0f (p50 %s)", seqRate, parRate, us(parP50)),
				target: "8 > 1", met: yes(parRate > seqRate)})
		listRow := row{figure: "list_skills whole tree", skills: n, ours: ms(list), ts: tsDur("list", n)}
		refreshRow := row{figure: "refresh_skills", skills: n, ours: ms(refresh), ts: tsDur("refresh", n)}
		if n == 10000 {
			refreshRow.target, refreshRow.met = "< 300 ms", yes(refresh < 300*time.Millisecond)
		}
		// VmHWM never falls: after refresh_skills it is the peak of the whole run.
		idleRSS := median(collect(r.runs, func(s runSample) int64 { return s.idleRSS }))
		rssRow := row{figure: "peak RSS serving (after refresh)", skills: n,
			ours: fmt.Sprintf("%s (%s)", mib(rss), mib(rssRefresh)), ts: tsMiB(n), before: issue19Before["rss"][n]}
		// Issue 19's bound first, then issue 9's.
		switch n {
		case 100:
			rssRow.target, rssRow.met = "<=10 MB; <15", yes(rssRefresh <= 10e6)+"; "+yes(rssRefresh < 15e6)
		case 10000:
			rssRow.target, rssRow.met = "<=60 MB; <80", yes(rssRefresh <= 60e6)+"; "+yes(rssRefresh < 80e6)
		}
		rows = append(rows, listRow, refreshRow, rssRow,
			row{figure: "RSS idle after start-up", skills: n, ours: mib(idleRSS)})
	}
	return rows
}

// writeSummary prints the summary table.
func writeSummary(w io.Writer, results []*sizeResult, floor *floorResult, runs int) {
	fmt.Fprintf(w, "\n# Summary: medians of %d runs; TypeScript figures quoted by issue 9, \"before\" by issue 19; MB = 10^6 bytes, MiB = 2^20.\n", runs)
	fmt.Fprintf(w, "# %-36s %6s  %-30s %-10s %-9s %-13s %s\n", "figure", "skills", "skills-mcp", "TypeScript", "before", "target", "met")
	for _, r := range append(summaryRows(results), floorRows(results, floor)...) {
		skills := ""
		if r.skills > 0 {
			skills = strconv.Itoa(r.skills)
		}
		fmt.Fprintf(w, "# %-36s %6s  %-30s %-10s %-9s %-13s %s\n", r.figure, skills, r.ours, r.ts, r.before, r.target, r.met)
	}
}

func collect[T any](runs []runSample, f func(runSample) T) []T {
	out := make([]T, len(runs))
	for i, s := range runs {
		out[i] = f(s)
	}
	return out
}

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/1e3) }
func mib(b int64) string        { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func tsDur(key string, n int) string {
	v, ok := typeScript[key][n]
	if !ok {
		return ""
	}
	if v >= 1e6 {
		return ms(time.Duration(v))
	}
	return us(time.Duration(v))
}

func tsMiB(n int) string {
	v, ok := typeScript["rss"][n]
	if !ok {
		return ""
	}
	return mib(int64(v))
}

// cpuModel is the CPU model name from /proc/cpuinfo.
func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.Lines(string(data)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// memTotal is MemTotal from /proc/meminfo.
func memTotal() string {
	data, _ := os.ReadFile("/proc/meminfo")
	for line := range strings.Lines(string(data)) {
		if k, v, ok := strings.Cut(line, ":"); ok && k == "MemTotal" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// loadAverage is the 1, 5 and 15 minute load averages.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
