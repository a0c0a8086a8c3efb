package skillscmd

import (
	"path/filepath"
	"testing"
)

// Floors of routing on testdata/routing (303 skills in ten collections
// written in the style of public ones, 298 labelled task descriptions):
// `make routing` prints the figures; a change that lowers them fails here.
const (
	routingMinTop1    = 0.88  // 264 of 298 reached (88.6%)
	routingMinTop3    = 0.945 // 283 of 298 reached (95.0%)
	routingMaxNoMatch = 0.05
)

// evalReportOf runs skills-mcp eval --json on a queries file of testdata/routing.
func evalReportOf(t *testing.T, env map[string]string, queries string) (evalReport, evalOutput) {
	t.Helper()
	out := evalOf(t, env, filepath.Join("..", "testdata", "routing", queries))
	return out.Files[0], out
}

func TestRoutingCorpus(t *testing.T) {
	env := map[string]string{"SKILLS_DIR": filepath.Join("..", "testdata", "routing", "skills")}
	rep, out := evalReportOf(t, env, "queries.jsonl")
	t.Logf("%d queries: top-1 %.1f%%, top-3 %.1f%%, no_match %.1f%%, ambiguous %.1f%%, search top-3 %.1f%%; %d of %d without an answer got no_match",
		rep.Answerable, 100*rep.Top1, 100*rep.Top3, 100*rep.NoMatch, 100*rep.Ambiguous, 100*rep.SearchTop3, rep.RightlyNoMatch, rep.Unanswerable)
	if rep.Answerable < 200 || rep.Top1 < routingMinTop1 || rep.SearchTop3 < routingMinTop3 || rep.NoMatch > routingMaxNoMatch {
		t.Errorf("routing fell under its floor (top-1 ≥ %v, top-3 ≥ %v, no_match ≤ %v over ≥ 200 queries); misses:", routingMinTop1, routingMinTop3, routingMaxNoMatch)
		for _, m := range rep.Misses {
			t.Logf("  %q: expected %v, got %s %v", m.Query, m.Expect, m.Outcome, m.Answer)
		}
	}
	if out.Skills < 300 || out.ExactName != 1 {
		t.Errorf("a skill's exact name must route to it: %.3f over %d skills; misses %+v", out.ExactName, out.Skills, out.ExactNameMisses)
	}
	names, _ := evalReportOf(t, env, "names.jsonl")
	if names.Answerable < 300 || names.Top1 != 1 {
		t.Errorf("a skill's exact name must route to it: top-1 %.3f over %d names; misses %+v", names.Top1, names.Answerable, names.Misses)
	}
}
