package main

import (
	"strconv"
	"time"
)

// emptyFloorResult is the length of the floor's tools/call result with an
// empty text; the floor answers -answer-bytes characters more.
const emptyFloorResult = len(`{"content":[{"type":"text","text":""}]}`)

// sizedFloors are, at one corpus size, the floor server answering as many
// bytes as each measured tool's result (text and structured content): what
// the JSON-RPC layer, the transport and the kernel cost for an answer of that
// size before any skill is looked at.
type sizedFloors struct {
	get, search, skill sizedFloor
}

// sizedFloor is the floor at one answer size.
type sizedFloor struct {
	bytes int             // the tool's result, in bytes (the floor's is the same)
	cpu   []time.Duration // the floor's CPU per call, one per run
}

// callToolSize calls a tool and returns the length of its JSON result.
func (c *client) callToolSize(name string, args map[string]any) (int, error) {
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	return len(raw), err
}

// measureSizedFloor spawns the floor answering a result of resultBytes bytes
// runs times and measures calls sequential calls each time.
func measureSizedFloor(st settings, resultBytes, runs, calls int) (sizedFloor, error) {
	f := sizedFloor{bytes: resultBytes}
	args := []string{"-answer-bytes", strconv.Itoa(max(resultBytes-emptyFloorResult, 0))}
	ls, err := floorRuns(st, args, runs, calls)
	if err != nil {
		return f, err
	}
	for _, l := range ls {
		f.cpu = append(f.cpu, l.cpuPerCall)
	}
	return f, nil
}

// measureSizedFloors measures the floor at the result sizes of get_skill,
// skills_search and the skill tool of r's first run, with fewer runs and
// calls than the tools (the floor varies little).
func measureSizedFloors(st settings, r *sizeResult) (sizedFloors, error) {
	var out sizedFloors
	runs, calls := min(st.runs, 3), max(st.calls/10, 100)
	var err error
	for _, f := range []struct {
		dst   *sizedFloor
		bytes int
	}{{&out.get, r.runs[0].getBytes}, {&out.search, r.tools[0].searchBytes}, {&out.skill, r.tools[0].skillBytes}} {
		if *f.dst, err = measureSizedFloor(st, f.bytes, runs, calls); err != nil {
			return out, err
		}
	}
	return out, nil
}
