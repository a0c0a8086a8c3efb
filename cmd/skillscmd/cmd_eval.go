package skillscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/eval"
)

// errBelowFloor makes eval exit 1 when top-1 is under --min-top1.
var errBelowFloor = errors.New("top-1 below --min-top1")

// evalCmd routes the queries of one or more files through the configured
// matcher and prints the issue-30 table: get_skill top-1 and top-3, no_match
// on the answerable queries, skills_search top-3, every skill's exact name,
// off-topic requests answered no_match.
func evalCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv := a.getenv
	if len(args) > 0 && args[0] == "init" {
		return evalInitCmd(ctx, a, args[1:], stdout, stderr)
	}
	fs := newFlagSet("eval", "eval [--min-top1 RATE] [--events EVENTS.jsonl] QUERIES.jsonl...|TRIGGER-EVALS.json",
		"Route every query of each QUERIES.jsonl (one {\"query\": …, \"expect\": [skill paths]} per line; \"expect\": [] for a\n"+
			"request no skill serves) as get_skill and skills_search do, and print each miss, then per file: get_skill top-1\n"+
			"and top-3, no_match on the queries with an answer, skills_search top-3 and the share of the requests without\n"+
			"one answered no_match; and whether each skill's exact name routes to it.\n"+
			"A trigger-eval file of the Agent Skills project ([{\"query\": …, \"should_trigger\": true}, …]) is read too, alone;\n"+
			"--events reports on recorded analytics events (cmd_eval_events.go).", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	minTop1 := fs.Float64("min-top1", 0, "exit 1 when the top-1 rate (0–1) of a file is under this")
	eventsPath := fs.String("events", "", "also report on a file of recorded analytics events (the jsonl sink's): no_match contexts, ambiguous pairs, skills never served or reported not useful")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) == 0 && *eventsPath == "" {
		return usagef("eval: give a queries file, e.g. skills-mcp eval routing.jsonl (skills-mcp eval init routing.jsonl writes a starter)")
	}
	if *minTop1 < 0 || *minTop1 > 1 {
		return usagef("eval: --min-top1 must be between 0 and 1, got %v", *minTop1)
	}
	open := evalContent(ctx, a, src)
	if handled, err := evalOtherInputs(evalInputs{events: *eventsPath, files: pos, content: open, asJSON: *asJSON, minTop1: *minTop1},
		stdout, getenv); handled || err != nil {
		return err
	}
	type file struct {
		queries []eval.Query
		lines   []int
	}
	files := make([]file, len(pos))
	for i, p := range pos {
		if data, err := os.ReadFile(p); err == nil && eval.IsTriggerFile(data) {
			return usagef("eval: %s is a trigger-eval file: give it alone", p)
		}
		if files[i].queries, files[i].lines, err = eval.ReadQueries(p); err != nil {
			return usagef("eval: %w", err)
		}
	}
	c, err := open()
	if err != nil {
		return err
	}
	for i, p := range pos {
		if err := eval.CheckExpected(c.snap, p, files[i].queries, files[i].lines); err != nil {
			return usagef("eval: %w", err)
		}
	}
	cfg := c.loaded.Config.Matching.Rank()
	out := eval.Output{Matcher: matcherName(c.loaded.Config, getenv), Calibrated: core.IsCalibrated(c.snap.Searcher()), Files: []eval.Report{}}
	out.Skills, out.ExactName, out.ExactNameMisses = eval.ExactNames(c.snap, cfg)
	for i, p := range pos {
		rep := eval.Evaluate(c.snap.Searcher(), cfg, files[i].queries, files[i].lines)
		rep.File = p
		out.Files = append(out.Files, rep)
	}
	if *asJSON {
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
	} else {
		eval.Print(stdout, out)
	}
	failed := false
	for _, rep := range out.Files {
		if rep.Answerable > 0 && rep.Top1 < *minTop1 {
			fmt.Fprintf(stdout, "FAIL: %s: top-1 %.1f%% is under --min-top1 %.1f%%\n", rep.File, 100*rep.Top1, 100**minTop1)
			failed = true
		}
	}
	if failed {
		return errBelowFloor
	}
	return nil
}
