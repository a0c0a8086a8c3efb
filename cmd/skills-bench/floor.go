package main

import (
	"fmt"
	"os"
	"os/exec"
)

// floorBuild is the release build of cmd/mcp-floor, the do-nothing server on
// the same go-sdk server and stdio transport as skills-mcp (issue 19).
func floorBuild(out string) *exec.Cmd {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, "github.com/skills-mcp/skills-mcp/cmd/mcp-floor")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// floorResult is what the floor server gave: per run, the sequential calls
// of its constant tool and its resident set.
type floorResult struct {
	runs []floorRun
}

// floorRun is one floor server process: its calls, its resident set once idle
// after start-up, and its peak resident set after the calls.
type floorRun struct {
	latencies
	idleRSS, peakRSS int64
}

// measureFloor spawns the floor server st.runs times and measures st.calls
// sequential calls of its constant tool each time, exactly as a get_skill
// batch of skills-mcp is measured (warm-up, idle, then the calls).
func measureFloor(st settings) (*floorResult, error) {
	runs, err := floorRuns(st, nil, st.runs, st.calls)
	if err != nil {
		return nil, err
	}
	return &floorResult{runs: runs}, nil
}

// floorRuns spawns the floor server with args runs times and measures calls
// sequential calls of its constant tool in each: warm-up, idle, then the calls.
func floorRuns(st settings, args []string, runs, calls int) ([]floorRun, error) {
	var out []floorRun
	for range runs {
		p, err := startProc(st.floorBin, args, "", nil)
		if err != nil {
			return nil, fmt.Errorf("the floor server: %w", err)
		}
		l, err := func() (r floorRun, err error) {
			defer p.stop()
			if err := warmUpTool(p.client, floorTool, map[string]any{}); err != nil {
				return r, err
			}
			if _, err := untilIdle(p.pid()); err != nil {
				return r, err
			}
			if r.idleRSS, err = statusField(p.pid(), "VmRSS"); err != nil {
				return r, err
			}
			if r.latencies, err = sequentialTool(p, floorTool, map[string]any{}, calls); err != nil {
				return r, err
			}
			r.peakRSS, err = peakRSS(p.pid())
			return r, err
		}()
		if err != nil {
			return nil, fmt.Errorf("the floor server: %w", err)
		}
		out = append(out, l)
	}
	return out, nil
}

// floorTool is the one tool of cmd/mcp-floor.
const floorTool = "constant"
