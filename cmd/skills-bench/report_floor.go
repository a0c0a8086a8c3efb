package main

import (
	"fmt"
	"time"
)

// floorTarget is issue 19's bound on server CPU per call at 10,000 skills, as
// a multiple of the floor server's.
const floorTarget = 1.5

// floorRows compares the server CPU per call of get_skill, skills_search and
// the skill tool with the floor server's constant tool (medians of the runs).
func floorRows(results []*sizeResult, floor *floorResult) []row {
	base := median(func() []time.Duration {
		out := make([]time.Duration, len(floor.runs))
		for i, l := range floor.runs {
			out[i] = l.cpuPerCall
		}
		return out
	}())
	idle := median(collectFloor(floor.runs, func(r floorRun) int64 { return r.idleRSS }))
	peak := median(collectFloor(floor.runs, func(r floorRun) int64 { return r.peakRSS }))
	rows := []row{
		{figure: "floor: CPU/call of a constant tool", ours: us(base)},
		{figure: "floor: RSS idle (peak after calls)", ours: fmt.Sprintf("%s (%s)", mib(idle), mib(peak))},
	}
	for _, r := range results {
		for _, t := range []struct {
			name   string
			cpu    []time.Duration
			sized  sizedFloor
			before string
		}{
			{"get_skill", collect(r.runs, func(s runSample) time.Duration { return s.seq.cpuPerCall }), r.floors.get, issue19Before["cpu"][r.skills]},
			{"skills_search", collectTools(r.tools, func(s toolSample) time.Duration { return s.search.cpuPerCall }), r.floors.search, issue19Before["search"][r.skills]},
			{"skill tool", collectTools(r.tools, func(s toolSample) time.Duration { return s.skill.cpuPerCall }), r.floors.skill, ""},
		} {
			cpu := median(t.cpu)
			x := float64(cpu) / float64(max(base, 1))
			rw := row{figure: t.name + " CPU/call vs floor", skills: r.skills, ours: fmt.Sprintf("%s (%.2fx)", us(cpu), x), before: t.before}
			if r.skills == 10000 {
				rw.target, rw.met = fmt.Sprintf("<= %.1fx", floorTarget), yes(x <= floorTarget)
			}
			rows = append(rows, rw)
			if len(t.sized.cpu) > 0 {
				sized := median(t.sized.cpu)
				rows = append(rows, row{figure: fmt.Sprintf("  floor answering the same %d B", t.sized.bytes), skills: r.skills,
					ours: fmt.Sprintf("%s (%s is %.2fx)", us(sized), t.name, float64(cpu)/float64(max(sized, 1)))})
			}
		}
	}
	return rows
}

func collectTools[T any](runs []toolSample, f func(toolSample) T) []T {
	out := make([]T, len(runs))
	for i, s := range runs {
		out[i] = f(s)
	}
	return out
}

func collectFloor[T any](runs []floorRun, f func(floorRun) T) []T {
	out := make([]T, len(runs))
	for i, r := range runs {
		out[i] = f(r)
	}
	return out
}
