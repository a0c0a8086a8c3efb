package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// Output is what eval prints: the routing of every skill's exact name,
// then a report per queries file.
type Output struct {
	Matcher string `json:"matcher"`
	// Calibrated: the matcher's scores are confidences, judged by
	// matching.min_confidence (core.RankConfident), else by spec 000 §5.3.
	Calibrated bool `json:"calibrated"`
	// Skills is how many skills were asked for by their exact name.
	Skills int `json:"skills"`
	// ExactName is the share of them that get_skill serves, or lists among
	// skills of the same name only, when asked for by name.
	ExactName       float64    `json:"exact_name"`
	ExactNameMisses []NameMiss `json:"exact_name_misses"`
	Files           []Report   `json:"files"`
}

// NameMiss is a skill its exact name does not reach.
type NameMiss struct {
	Name      string `json:"name"`
	SkillPath string `json:"skill_path"`
	Outcome   string `json:"outcome"`
	Picked    []Pick `json:"picked"`
}

// Pick is a skill the matcher ranked for a query.
type Pick struct {
	SkillPath string  `json:"skill_path"`
	Score     float64 `json:"score"`
}

// Miss is a query whose first answer is not one it expects, or a request
// without an answer that got one.
type Miss struct {
	Line    int      `json:"line"`
	Query   string   `json:"query"`
	Expect  []string `json:"expect"`
	Outcome string   `json:"outcome"` // match, ambiguous or no_match
	// Answer is what get_skill returns: the skill served, or the candidates.
	Answer []Pick `json:"answer"`
	// Ranked are the matcher's first three (skills_search's first hits).
	Ranked []Pick `json:"ranked"`
	// InTop3: an expected skill is in get_skill's answer.
	InTop3 bool `json:"in_top3"`
	// InSearchTop3: an expected skill is among the matcher's first three.
	InSearchTop3 bool `json:"in_search_top3"`
	// SameName: the first pick has the folder name of an expected skill
	// (another collection's pdf), a miss only the model can settle.
	SameName bool `json:"same_name"`
}

// Report is the routing of one queries file: rates over the queries that
// have an answer, the requests without one apart.
type Report struct {
	File       string `json:"file"`
	Queries    int    `json:"queries"`
	Answerable int    `json:"answerable"`
	// Top1: get_skill serves an expected skill, or lists one first.
	Top1 float64 `json:"top1"`
	// Top3: an expected skill is in get_skill's answer (the skill served, or
	// up to max_results candidates).
	Top3 float64 `json:"top3"`
	// NoMatch: get_skill answered no_match.
	NoMatch   float64 `json:"no_match"`
	Ambiguous float64 `json:"ambiguous"`
	// SearchTop3: an expected skill is among the matcher's first three, which
	// skills_search lists first.
	SearchTop3 float64 `json:"search_top3"`
	// Unanswerable are the requests no skill should answer ("expect": []);
	// RightlyNoMatch of them got no_match (OffTopicNoMatch of them).
	Unanswerable    int     `json:"unanswerable"`
	RightlyNoMatch  int     `json:"rightly_no_match"`
	OffTopicNoMatch float64 `json:"off_topic_no_match"`
	SameNameMisses  int     `json:"same_name_misses"`
	Misses          []Miss  `json:"misses"`
}

// Evaluate routes each query as get_skill does (core.SearchRank) and reads
// the matcher's first three as skills_search lists them.
func Evaluate(s core.Searcher, cfg core.RankOptions, queries []Query, lines []int) Report {
	rep := Report{Queries: len(queries), Misses: []Miss{}}
	var top1, top3, noMatch, ambiguous, search3 int
	for i, q := range queries {
		ranking := core.SearchRank(s, q.Query, cfg)
		ranked := picks(s.Search(q.Query), 3)
		answer := picks(ranking.Matches, len(ranking.Matches))
		expected := func(p Pick) bool { return slices.Contains(q.Expect, p.SkillPath) }
		miss := Miss{Line: lines[i], Query: q.Query, Expect: q.Expect, Outcome: ranking.Outcome.String(),
			Answer: answer, Ranked: ranked, InTop3: slices.ContainsFunc(answer, expected), InSearchTop3: slices.ContainsFunc(ranked, expected)}
		if len(q.Expect) == 0 {
			rep.Unanswerable++
			if ranking.Outcome == core.NoMatch {
				rep.RightlyNoMatch++
			} else {
				rep.Misses = append(rep.Misses, miss)
			}
			continue
		}
		rep.Answerable++
		switch ranking.Outcome {
		case core.NoMatch:
			noMatch++
		case core.Ambiguous:
			ambiguous++
		}
		if miss.InTop3 {
			top3++
		}
		if miss.InSearchTop3 {
			search3++
		}
		if len(answer) > 0 && expected(answer[0]) {
			top1++
			continue
		}
		miss.SameName = len(answer) > 0 && slices.ContainsFunc(q.Expect, func(p string) bool {
			return LastPathSegment(p) == LastPathSegment(answer[0].SkillPath)
		})
		if miss.SameName {
			rep.SameNameMisses++
		}
		rep.Misses = append(rep.Misses, miss)
	}
	if rep.Answerable > 0 {
		n := float64(rep.Answerable)
		rep.Top1, rep.Top3, rep.NoMatch = float64(top1)/n, float64(top3)/n, float64(noMatch)/n
		rep.Ambiguous, rep.SearchTop3 = float64(ambiguous)/n, float64(search3)/n
	}
	if rep.Unanswerable > 0 {
		rep.OffTopicNoMatch = float64(rep.RightlyNoMatch) / float64(rep.Unanswerable)
	}
	return rep
}

// ExactNames asks get_skill for every routable skill by its name: the skill
// must be served, or listed after skills of the same name only (another
// collection's pdf, new-relic beside new_relic; a name or a folder name). It returns how many skills were asked for, the share
// reached and the misses.
func ExactNames(snap *index.Snapshot, cfg core.RankOptions) (int, float64, []NameMiss) {
	s := snap.Searcher()
	misses := []NameMiss{}
	n := 0
	for _, sk := range snap.Skills() {
		if categoryOrRoot(sk.Path) || strings.TrimSpace(sk.Name) == "" {
			continue
		}
		n++
		r := core.SearchRank(s, sk.Name, cfg)
		reached := false
		for _, m := range r.Matches {
			if m.Path == sk.Path {
				reached = true
				break
			}
			if other, ok := snap.Get(m.Path); !ok || nameKey(other.Name) != nameKey(sk.Name) && nameKey(LastPathSegment(other.Path)) != nameKey(sk.Name) {
				break
			}
		}
		if !reached {
			misses = append(misses, NameMiss{Name: sk.Name, SkillPath: sk.Path, Outcome: r.Outcome.String(), Picked: picks(r.Matches, 3)})
		}
	}
	if n == 0 {
		return 0, 0, misses
	}
	return n, float64(n-len(misses)) / float64(n), misses
}

// nameKey is a name as a request writes it: its words, lowercased, so that
// new-relic and new_relic are one name.
func nameKey(name string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), "-")
}

// picks returns the first n matches as picks.
func picks(ms []core.Match, n int) []Pick {
	out := []Pick{}
	for _, m := range ms[:min(n, len(ms))] {
		out = append(out, Pick{SkillPath: m.Path, Score: roundScore(m.Score)})
	}
	return out
}

// LastPathSegment is a skill path's folder name.
func LastPathSegment(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

func roundScore(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// Print prints each miss, then the table.
func Print(w io.Writer, out Output) {
	for _, rep := range out.Files {
		for _, m := range rep.Misses {
			if len(m.Expect) == 0 {
				fmt.Fprintf(w, "%s:%d: %q has no answer but got %s %s\n", rep.File, m.Line, m.Query, m.Outcome, pickList(m.Answer))
				continue
			}
			fmt.Fprintf(w, "%s:%d: miss %q\n  expected %s\n  got %s %s\n", rep.File, m.Line, m.Query, strings.Join(m.Expect, " or "), m.Outcome, pickList(m.Answer))
			if !m.InTop3 {
				fmt.Fprintf(w, "  ranked %s\n", pickList(m.Ranked))
			}
			if m.SameName {
				fmt.Fprintf(w, "  (a skill of the same name elsewhere came first)\n")
			}
		}
	}
	for _, m := range out.ExactNameMisses {
		fmt.Fprintf(w, "name %q does not reach %s: got %s %s\n", m.Name, m.SkillPath, m.Outcome, pickList(m.Picked))
	}
	rule := "spec 000 §5.3 (min_score, ambiguity_threshold)"
	if out.Calibrated {
		rule = "confidences (min_confidence, ambiguity_threshold)"
	}
	fmt.Fprintf(w, "\nmatcher %s, answers by %s\n", out.Matcher, rule)
	fmt.Fprintf(w, "%-28s %10s %10s %13s %10s %14s %11s\n", "", "get_skill", "get_skill", "no_match", "", "skills_search", "off-topic")
	fmt.Fprintf(w, "%-28s %10s %10s %13s %10s %14s %11s\n", "", "top-1", "top-3", "(answerable)", "ambiguous", "top-3", "→ no_match")
	for _, rep := range out.Files {
		label := fmt.Sprintf("%s (%d+%d)", shortFile(rep.File), rep.Answerable, rep.Unanswerable)
		cols := [5]string{"—", "—", "—", "—", "—"}
		if rep.Answerable > 0 {
			cols = [5]string{pct(rep.Top1), pct(rep.Top3), pct(rep.NoMatch), pct(rep.Ambiguous), pct(rep.SearchTop3)}
		}
		off := "—"
		if rep.Unanswerable > 0 {
			off = pct(rep.OffTopicNoMatch)
		}
		fmt.Fprintf(w, "%-28s %10s %10s %13s %10s %14s %11s\n", label, cols[0], cols[1], cols[2], cols[3], cols[4], off)
		if rep.SameNameMisses > 0 {
			fmt.Fprintf(w, "  %d of the top-1 misses picked a skill of the expected one's folder name elsewhere (another collection's copy)\n", rep.SameNameMisses)
		}
	}
	fmt.Fprintf(w, "%-28s %10s   (each skill's name routes to it)\n", fmt.Sprintf("exact name (%d skills)", out.Skills), pct(out.ExactName))
	fmt.Fprintf(w, "(file (queries with an answer+without); get_skill top-1: the skill served or listed first is right; top-3: a right\n"+
		"skill is in get_skill's answer; skills_search top-3: among the matcher's first three)\n")
}

// pickList renders picks as "a (0.5), b (0.4)".
func pickList(ps []Pick) string {
	if len(ps) == 0 {
		return "nothing"
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%s (%v)", p.SkillPath, p.Score)
	}
	return strings.Join(parts, ", ")
}

// shortFile is a queries file's base name, for the table.
func shortFile(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }

func pct(r float64) string { return fmt.Sprintf("%.1f%%", 100*r) }
