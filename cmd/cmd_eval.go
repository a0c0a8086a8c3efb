package skillscmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/index"
)

// evalQuery is one line of a queries file: a context and the skill paths that
// are right answers for it (any of them); an empty expect means the query has
// no answer and get_skill should say no_match.
type evalQuery struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
}

// evalPick is a skill the matcher ranked for a query.
type evalPick struct {
	SkillPath string  `json:"skill_path"`
	Score     float64 `json:"score"`
}

// evalMiss is a query whose first answer is not one it expects.
type evalMiss struct {
	Line    int        `json:"line"`
	Query   string     `json:"query"`
	Expect  []string   `json:"expect"`
	Outcome string     `json:"outcome"` // match, ambiguous or no_match
	Picked  []evalPick `json:"picked"`  // the first three ranked (above min_score)
	InTop3  bool       `json:"in_top3"`
	// SameName: the first pick has the folder name of an expected skill
	// (another collection's pdf), a miss only the model can settle.
	SameName bool `json:"same_name"`
}

// evalReport is what eval prints: rates over the queries that have an answer,
// the queries without one apart.
type evalReport struct {
	Matcher        string     `json:"matcher"`
	Queries        int        `json:"queries"`
	Answerable     int        `json:"answerable"`
	Top1           float64    `json:"top1"`
	Top3           float64    `json:"top3"`
	NoMatch        float64    `json:"no_match"`
	Ambiguous      float64    `json:"ambiguous"`
	Unanswerable   int        `json:"unanswerable"`
	RightlyNoMatch int        `json:"rightly_no_match"`
	SameNameMisses int        `json:"same_name_misses"`
	Misses         []evalMiss `json:"misses"`
}

// errBelowFloor makes eval exit 1 when top-1 is under --min-top1.
var errBelowFloor = errors.New("top-1 below --min-top1")

// evalCmd runs a queries file through the configured matcher.
func evalCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string, log hclog.Logger) error {
	if len(args) > 0 && args[0] == "init" {
		return evalInitCmd(ctx, args[1:], stdout, stderr, getenv, log)
	}
	fs := newFlagSet("eval", "eval [--min-top1 RATE] [--events EVENTS.jsonl] QUERIES.jsonl|TRIGGER-EVALS.json",
		"Route every query of QUERIES.jsonl (one {\"query\": …, \"expect\": [skill paths]} per line) as get_skill does\n"+
			"and print the top-1, top-3 and no-match rates and each miss with what was picked instead.\n"+
			"A trigger-eval file of the Agent Skills project ([{\"query\": …, \"should_trigger\": true}, …]) is read too;\n"+
			"--events reports on recorded analytics events (cmd_eval_events.go).", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	minTop1 := fs.Float64("min-top1", 0, "exit 1 when the top-1 rate (0–1) is under this")
	eventsPath := fs.String("events", "", "also report on a file of recorded analytics events (the jsonl sink's): no_match contexts, ambiguous pairs, skills never served or reported not useful")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) > 1 || len(pos) == 0 && *eventsPath == "" {
		return usagef("eval: give one queries file, e.g. skills-mcp eval routing.jsonl (skills-mcp eval init routing.jsonl writes a starter)")
	}
	if *minTop1 < 0 || *minTop1 > 1 {
		return usagef("eval: --min-top1 must be between 0 and 1, got %v", *minTop1)
	}
	if handled, err := evalOtherInputs(ctx, evalInputs{events: *eventsPath, files: pos, src: src, asJSON: *asJSON, minTop1: *minTop1},
		stdout, getenv, log); handled || err != nil {
		return err
	}
	queries, lines, err := readQueries(pos[0])
	if err != nil {
		return usagef("eval: %w", err)
	}
	c, err := openContent(ctx, src, getenv, log)
	if err != nil {
		return err
	}
	if err := checkExpected(c.snap, pos[0], queries, lines); err != nil {
		return usagef("eval: %w", err)
	}
	rep := evaluate(c.snap.Searcher(), c.loaded.Config.Matching, queries, lines)
	rep.Matcher = matcherName(c.loaded.Config, getenv)
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		printEval(stdout, rep)
	}
	if rep.Answerable > 0 && rep.Top1 < *minTop1 {
		fmt.Fprintf(stdout, "FAIL: top-1 %.1f%% is under --min-top1 %.1f%%\n", 100*rep.Top1, 100**minTop1)
		return errBelowFloor
	}
	return nil
}

// readQueries reads a queries file: one JSON object per line; blank lines and
// lines starting with # are skipped. lines holds each query's line number.
func readQueries(path string) (queries []evalQuery, lines []int, _ error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var q evalQuery
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v (want {\"query\": \"…\", \"expect\": [\"skill/path\"]})", path, n, err)
		}
		if strings.TrimSpace(q.Query) == "" {
			return nil, nil, fmt.Errorf("%s:%d: query is empty", path, n)
		}
		queries, lines = append(queries, q), append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(queries) == 0 {
		return nil, nil, fmt.Errorf("%s holds no query", path)
	}
	return queries, lines, nil
}

// checkExpected fails on an expected path no skill has: a renamed skill must
// not pass as a miss nobody reads.
func checkExpected(snap *index.Snapshot, file string, queries []evalQuery, lines []int) error {
	var bad []string
	for i, q := range queries {
		for _, p := range q.Expect {
			if _, ok := snap.Get(p); !ok {
				bad = append(bad, fmt.Sprintf("%s:%d: no skill has the path %q", file, lines[i], p))
			}
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "\n"))
	}
	return nil
}

// evaluate routes each query as get_skill does. Top-1 counts the skill
// get_skill serves or lists first; top-3 the first three the matcher ranks
// above min_score (get_skill's candidates, skills_search's first hits).
func evaluate(s core.Searcher, cfg core.MatchingConfig, queries []evalQuery, lines []int) evalReport {
	rep := evalReport{Queries: len(queries), Misses: []evalMiss{}}
	var top1, top3, noMatch, ambiguous int
	for i, q := range queries {
		matches := s.Search(q.Query)
		ranking := core.Rank(matches, cfg)
		var picked []evalPick
		for _, m := range matches {
			if m.Score >= cfg.MinScore && len(picked) < 3 {
				picked = append(picked, evalPick{SkillPath: m.Path, Score: roundScore(m.Score)})
			}
		}
		if len(q.Expect) == 0 {
			rep.Unanswerable++
			if ranking.Outcome == core.NoMatch {
				rep.RightlyNoMatch++
			}
			continue
		}
		rep.Answerable++
		hit1 := ranking.Outcome != core.NoMatch && slices.Contains(q.Expect, ranking.Matches[0].Path)
		hit3 := slices.ContainsFunc(picked, func(p evalPick) bool { return slices.Contains(q.Expect, p.SkillPath) })
		switch ranking.Outcome {
		case core.NoMatch:
			noMatch++
		case core.Ambiguous:
			ambiguous++
		}
		if hit1 {
			top1++
		}
		if hit3 {
			top3++
		}
		if !hit1 {
			same := ranking.Outcome != core.NoMatch && slices.ContainsFunc(q.Expect, func(p string) bool {
				return lastPathSegment(p) == lastPathSegment(ranking.Matches[0].Path)
			})
			if same {
				rep.SameNameMisses++
			}
			rep.Misses = append(rep.Misses, evalMiss{Line: lines[i], Query: q.Query, Expect: q.Expect,
				Outcome: outcomeName(ranking.Outcome), Picked: nonNilPicks(picked), InTop3: hit3, SameName: same})
		}
	}
	if rep.Answerable > 0 {
		n := float64(rep.Answerable)
		rep.Top1, rep.Top3, rep.NoMatch, rep.Ambiguous = float64(top1)/n, float64(top3)/n, float64(noMatch)/n, float64(ambiguous)/n
	}
	return rep
}

// lastPathSegment is a skill path's folder name.
func lastPathSegment(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

func nonNilPicks(p []evalPick) []evalPick {
	if p == nil {
		return []evalPick{}
	}
	return p
}

func roundScore(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

func printEval(w io.Writer, rep evalReport) {
	for _, m := range rep.Misses {
		fmt.Fprintf(w, "miss (line %d): %q\n  expected %s\n", m.Line, m.Query, strings.Join(m.Expect, " or "))
		if len(m.Picked) == 0 {
			fmt.Fprintf(w, "  got no_match\n")
		}
		for i, p := range m.Picked {
			label := "picked"
			if i > 0 {
				label = "  then"
			}
			if i == 0 && m.Outcome == "ambiguous" {
				label = "ambiguous, first"
			}
			fmt.Fprintf(w, "  %s %s (%v)\n", label, p.SkillPath, p.Score)
		}
		if m.SameName {
			fmt.Fprintf(w, "  (a skill of the same name elsewhere came first)\n")
		}
	}
	if len(rep.Misses) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "matcher %s: %d queries with an answer\n", rep.Matcher, rep.Answerable)
	fmt.Fprintf(w, "  top-1     %5.1f%%\n  top-3     %5.1f%%\n  no_match  %5.1f%%\n  ambiguous %5.1f%% (the right skill first still counts for top-1)\n",
		100*rep.Top1, 100*rep.Top3, 100*rep.NoMatch, 100*rep.Ambiguous)
	if rep.SameNameMisses > 0 {
		fmt.Fprintf(w, "  same name %d of the top-1 misses picked a skill of the expected one's folder name elsewhere (another collection's copy)\n", rep.SameNameMisses)
	}
	if rep.Unanswerable > 0 {
		fmt.Fprintf(w, "%d queries without an answer: %d answered no_match\n", rep.Unanswerable, rep.RightlyNoMatch)
	}
}
