package eval

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// maxEventLine bounds one line of an events file (an event holds a context
// and a comment; a batch line of the HTTP form holds many).
const maxEventLine = 16 << 20

// EventsReport is what `eval --events` prints: what recorded traffic says of
// the routing, for the people who write the skills' descriptions. Every list
// is sorted: by count descending, then by text.
type EventsReport struct {
	File    string         `json:"file"`
	Events  int            `json:"events"`
	Skipped int            `json:"skipped_lines"`
	ByType  map[string]int `json:"by_type"`
	From    string         `json:"from,omitempty"`
	To      string         `json:"to,omitempty"`
	// NoMatch: the contexts get_skill found no skill for.
	NoMatch []CountedText `json:"no_match"`
	// Ambiguous: the pairs of skills get_skill could not tell apart (its
	// first two candidates), with an example context.
	Ambiguous []AmbiguousPair `json:"ambiguous_pairs"`
	// NeverServed: skills of the content no skill_served event names
	// (categories' _index and _root aside).
	NeverServed []string `json:"never_served"`
	// NotUseful: skills report_usage said did not help.
	NotUseful []FeedbackCount `json:"not_useful"`
}

// CountedText is a context and how many times it came.
type CountedText struct {
	Text  string `json:"context"`
	Count int    `json:"count"`
}

// AmbiguousPair is two skills often offered together.
type AmbiguousPair struct {
	Skills  [2]string `json:"skills"`
	Count   int       `json:"count"`
	Example string    `json:"example_context"`
}

// FeedbackCount is one skill's report_usage verdicts.
type FeedbackCount struct {
	SkillPath string   `json:"skill_path"`
	NotUseful int      `json:"not_useful"`
	Useful    int      `json:"useful"`
	Comments  []string `json:"comments"`
}

// maxComments bounds the comments shown per skill.
const maxComments = 5

// ReadEvents reads a file of recorded events: JSON lines as the jsonl sink
// and the local buffer write them (one core.Event per line), or lines of the
// HTTP sink's {"events": […]} batches. Blank lines are skipped; a line that
// is neither (a torn last line) is counted in skipped.
func ReadEvents(r io.Reader) (evs []core.Event, skipped int, _ error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxEventLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var probe struct {
			Type   *string           `json:"type"`
			Events []json.RawMessage `json:"events"`
		}
		if json.Unmarshal(line, &probe) != nil {
			skipped++
			continue
		}
		if probe.Type != nil {
			var ev core.Event
			if json.Unmarshal(line, &ev) != nil || ev.Type == "" {
				skipped++
				continue
			}
			evs = append(evs, ev)
			continue
		}
		if probe.Events == nil {
			skipped++
			continue
		}
		for _, raw := range probe.Events {
			var ev core.Event
			if json.Unmarshal(raw, &ev) != nil || ev.Type == "" {
				skipped++
				continue
			}
			evs = append(evs, ev)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, skipped, err
	}
	return evs, skipped, nil
}

// AnalyzeEvents builds the report of evs over the skills of snap.
func AnalyzeEvents(evs []core.Event, snap *index.Snapshot) EventsReport {
	rep := EventsReport{Events: len(evs), ByType: map[string]int{}, NoMatch: []CountedText{}, Ambiguous: []AmbiguousPair{},
		NeverServed: []string{}, NotUseful: []FeedbackCount{}}
	noMatch := map[string]int{}
	pairs := map[[2]string]*AmbiguousPair{}
	served := map[string]bool{}
	feedback := map[string]*FeedbackCount{}
	for _, ev := range evs {
		rep.ByType[ev.Type]++
		if ev.Timestamp != "" {
			if rep.From == "" || ev.Timestamp < rep.From {
				rep.From = ev.Timestamp
			}
			rep.To = max(rep.To, ev.Timestamp)
		}
		switch ev.Type {
		case core.EventNoMatch:
			if c := contextOf(ev); c != "" {
				noMatch[c]++
			}
		case core.EventAmbiguous:
			cands := stringsOf(ev.Data["candidates"])
			if len(cands) < 2 || cands[0] == cands[1] {
				continue
			}
			key := [2]string{min(cands[0], cands[1]), max(cands[0], cands[1])}
			p := pairs[key]
			if p == nil {
				p = &AmbiguousPair{Skills: key}
				pairs[key] = p
			}
			p.Count++
			if c := contextOf(ev); c != "" && (p.Example == "" || c < p.Example) {
				p.Example = c
			}
		case core.EventSkillServed:
			if path, ok := ev.Data["skill_path"].(string); ok {
				served[path] = true
			}
		case core.EventSkillFeedback:
			path, _ := ev.Data["skill_path"].(string)
			useful, ok := ev.Data["useful"].(bool)
			if path == "" || !ok {
				continue
			}
			f := feedback[path]
			if f == nil {
				f = &FeedbackCount{SkillPath: path, Comments: []string{}}
				feedback[path] = f
			}
			if useful {
				f.Useful++
				continue
			}
			f.NotUseful++
			if c, _ := ev.Data["comment"].(string); strings.TrimSpace(c) != "" {
				f.Comments = append(f.Comments, oneLine(c))
			}
		}
	}
	for text, n := range noMatch {
		rep.NoMatch = append(rep.NoMatch, CountedText{Text: text, Count: n})
	}
	slices.SortFunc(rep.NoMatch, func(a, b CountedText) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Text, b.Text))
	})
	for _, p := range pairs {
		rep.Ambiguous = append(rep.Ambiguous, *p)
	}
	slices.SortFunc(rep.Ambiguous, func(a, b AmbiguousPair) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Skills[0], b.Skills[0]), strings.Compare(a.Skills[1], b.Skills[1]))
	})
	if snap != nil {
		for _, s := range snap.Skills() {
			if !served[s.Path] && !categoryOrRoot(s.Path) {
				rep.NeverServed = append(rep.NeverServed, s.Path)
			}
		}
		slices.Sort(rep.NeverServed)
	}
	for _, f := range feedback {
		if f.NotUseful == 0 {
			continue
		}
		slices.Sort(f.Comments)
		f.Comments = slices.Compact(f.Comments)
		if len(f.Comments) > maxComments {
			f.Comments = f.Comments[:maxComments]
		}
		rep.NotUseful = append(rep.NotUseful, *f)
	}
	slices.SortFunc(rep.NotUseful, func(a, b FeedbackCount) int {
		return cmp.Or(cmp.Compare(b.NotUseful, a.NotUseful), strings.Compare(a.SkillPath, b.SkillPath))
	})
	return rep
}

// categoryOrRoot reports whether path is a category's _index or the _root,
// served as inherited content rather than asked for.
func categoryOrRoot(path string) bool {
	last := LastPathSegment(path)
	return last == core.RootPath || last == core.IndexSegment
}

// contextOf is an event's context folded for counting: trimmed, white space
// runs as one space, lowercase.
func contextOf(ev core.Event) string {
	c, _ := ev.Data["context"].(string)
	return strings.ToLower(oneLine(c))
}

// oneLine joins the words of s with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// stringsOf reads a JSON array of strings (decoded as []any).
func stringsOf(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ReadEventsFile opens path and reads its events.
func ReadEventsFile(path string) ([]core.Event, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	evs, skipped, err := ReadEvents(f)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return evs, skipped, nil
}

// maxListed bounds each list of the text report (--json has them whole).
const maxListed = 20

// PrintEvents writes the text report.
func PrintEvents(w io.Writer, rep EventsReport) {
	fmt.Fprintf(w, "events %s: %d events", rep.File, rep.Events)
	if rep.From != "" {
		fmt.Fprintf(w, " from %s to %s", rep.From, rep.To)
	}
	fmt.Fprintln(w)
	types := make([]string, 0, len(rep.ByType))
	for t := range rep.ByType {
		types = append(types, t)
	}
	slices.Sort(types)
	for _, t := range types {
		fmt.Fprintf(w, "  %-16s %d\n", t, rep.ByType[t])
	}
	if rep.Skipped > 0 {
		fmt.Fprintf(w, "  (%d lines skipped: not an event)\n", rep.Skipped)
	}
	section := func(title string, n int) bool {
		fmt.Fprintf(w, "\n%s: %d\n", title, n)
		return n > 0
	}
	more := func(n int) {
		if n > maxListed {
			fmt.Fprintf(w, "  … %d more (--json lists them all)\n", n-maxListed)
		}
	}
	if section("contexts get_skill found no skill for (no_match)", len(rep.NoMatch)) {
		for _, c := range rep.NoMatch[:min(len(rep.NoMatch), maxListed)] {
			fmt.Fprintf(w, "  %4d× %q\n", c.Count, c.Text)
		}
		more(len(rep.NoMatch))
	}
	if section("pairs of skills get_skill could not tell apart (ambiguous)", len(rep.Ambiguous)) {
		for _, p := range rep.Ambiguous[:min(len(rep.Ambiguous), maxListed)] {
			fmt.Fprintf(w, "  %4d× %s | %s  e.g. %q\n", p.Count, p.Skills[0], p.Skills[1], p.Example)
		}
		more(len(rep.Ambiguous))
	}
	if section("skills never served", len(rep.NeverServed)) {
		for _, p := range rep.NeverServed[:min(len(rep.NeverServed), maxListed)] {
			fmt.Fprintf(w, "  %s\n", p)
		}
		more(len(rep.NeverServed))
	}
	if section("skills reported not useful (report_usage)", len(rep.NotUseful)) {
		for _, f := range rep.NotUseful[:min(len(rep.NotUseful), maxListed)] {
			fmt.Fprintf(w, "  %4d× %s (useful %d)\n", f.NotUseful, f.SkillPath, f.Useful)
			for _, c := range f.Comments {
				fmt.Fprintf(w, "        %q\n", c)
			}
		}
		more(len(rep.NotUseful))
	}
}
