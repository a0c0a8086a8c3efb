package skillscmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/skills-mcp/skills-mcp/internal/eval"
)

// evalInputs are what eval reads beside a queries file of our own format.
type evalInputs struct {
	events  string                   // --events: a file of recorded analytics events
	files   []string                 // the positional file, if any
	content func() (*content, error) // the content, opened at the first call only (evalContent)
	asJSON  bool
	minTop1 float64
}

// evalContent opens src's content once for every report of one eval run:
// indexing (and a hybrid matcher's embedding) is the costly part of eval.
func evalContent(ctx context.Context, a *app, src sourceFlags) func() (*content, error) {
	return sync.OnceValues(func() (*content, error) { return openContent(ctx, a, src) })
}

// evalOtherInputs runs the reports of eval's other inputs: the events file
// of --events, and a trigger-eval file (told from a queries file by its
// content). handled is false when a queries file of our format is left for
// evalCmd to run.
func evalOtherInputs(in evalInputs, stdout io.Writer, getenv func(string) string) (handled bool, _ error) {
	trigger := false
	if len(in.files) == 1 {
		data, err := os.ReadFile(in.files[0])
		if err != nil {
			return true, usagef("eval: %w", err)
		}
		trigger = eval.IsTriggerFile(data)
	}
	if in.events == "" && !trigger {
		return false, nil
	}
	// Both files are read, and refused, before the content is indexed.
	var items []eval.TriggerItem
	if trigger {
		var err error
		if items, err = eval.ReadTriggerFile(in.files[0]); err != nil {
			return true, usagef("eval: %w", err)
		}
	}
	if in.events != "" {
		evs, skipped, err := eval.ReadEventsFile(in.events)
		if err != nil {
			return true, usagef("eval: --events: %w", err)
		}
		c, err := in.content()
		if err != nil {
			return true, err
		}
		rep := eval.AnalyzeEvents(evs, c.snap)
		rep.File, rep.Skipped = in.events, skipped
		if in.asJSON {
			if err := writeJSON(stdout, rep); err != nil {
				return true, err
			}
		} else {
			eval.PrintEvents(stdout, rep)
		}
		if len(in.files) > 0 && !in.asJSON {
			fmt.Fprintln(stdout)
		}
	}
	if !trigger {
		return len(in.files) == 0, nil
	}
	c, err := in.content()
	if err != nil {
		return true, err
	}
	skills, err := eval.TriggerSkills(c.snap, in.files[0], items)
	if err != nil {
		return true, usagef("eval: %w", err)
	}
	tr := eval.EvaluateTrigger(c.snap.Searcher(), c.loaded.Config.Matching.Rank(), items, skills)
	tr.File, tr.Matcher = in.files[0], matcherName(c.loaded.Config, getenv)
	if in.asJSON {
		if err := writeJSON(stdout, tr); err != nil {
			return true, err
		}
	} else {
		eval.PrintTrigger(stdout, tr)
	}
	if tr.ShouldTrigger > 0 && tr.TriggerRate < in.minTop1 {
		fmt.Fprintf(stdout, "FAIL: should-trigger rate %.1f%% is under --min-top1 %.1f%%\n", 100*tr.TriggerRate, 100*in.minTop1)
		return true, errBelowFloor
	}
	return true, nil
}
