package wasmproc

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
)

// A helper that answers a run with a flood and no line end is stopped at the
// answer's cap, with an error naming it, before it can grow the server's
// memory (issue 26, item 9): the run allocates a fraction of what the helper
// wrote, where reading it whole costs at least all of it. Before, the answer
// was read until the helper ended, whatever its size.
func TestFloodingHelperIsStopped(t *testing.T) {
	t.Parallel()
	const flood = 256 << 20 // what testdata/flood/skills-mcp-wasm writes
	helper, err := filepath.Abs("testdata/flood/" + HelperName)
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Helper: helper})
	defer func() { _ = r.Close(context.Background()) }()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = r.Run(t.Context(), core.RunRequest{ScriptPath: "/nowhere/x.wasm", File: "x.wasm", Timeout: time.Minute, MaxOutputBytes: 1000})
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("the helper wrote %d MiB; the run allocated %.1f MiB; %v", flood>>20, float64(allocated)/(1<<20), err)
	if !errors.Is(err, childproc.ErrAnswerTooLarge) || !strings.Contains(err.Error(), "wrote more than") {
		t.Errorf("Run = %v; want ErrAnswerTooLarge naming the cap", err)
	}
	if allocated > flood/4 {
		t.Errorf("the run allocated %d bytes for a %d-byte answer; want a fraction of it", allocated, flood)
	}
}

// The answer's cap follows the run's output cap: both streams JSON-escaped
// at worst, and room for the rest; no cap on the output is a fixed bound.
func TestAnswerLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ max, want int64 }{
		{0, MaxUncappedAnswer},
		{-1, MaxUncappedAnswer},
		{1000, childproc.MaxAnswerBytes + 12000},
		{1 << 41, MaxUncappedAnswer},
	} {
		if got := answerLimit(tc.max); got != tc.want {
			t.Errorf("answerLimit(%d) = %d, want %d", tc.max, got, tc.want)
		}
	}
}
