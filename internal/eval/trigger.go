package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// TriggerItem is one query of a trigger-eval file as the Agent Skills
// project documents them (skill-creator's eval sets): a JSON array of
// {"query": …, "should_trigger": true|false} written for one skill. "id" is
// optional and other fields are ignored; "skill" (a skill path or name) is
// our extension for a file that covers several skills.
type TriggerItem struct {
	Query         string `json:"query"`
	ShouldTrigger *bool  `json:"should_trigger"`
	Skill         string `json:"skill,omitempty"`
}

// triggerMiss is a query routed the wrong way for its skill.
type triggerMiss struct {
	Item          int    `json:"item"` // 1-based position in the file
	Query         string `json:"query"`
	Skill         string `json:"skill"`
	ShouldTrigger bool   `json:"should_trigger"`
	Outcome       string `json:"outcome"`
	Picked        []Pick `json:"picked"`
}

// TriggerReport is what eval prints for a trigger-eval file. A query
// triggers its skill when get_skill serves it, or lists it first.
type TriggerReport struct {
	File             string        `json:"file"`
	Matcher          string        `json:"matcher"`
	ShouldTrigger    int           `json:"should_trigger"`
	Triggered        int           `json:"triggered"`
	ShouldNotTrigger int           `json:"should_not_trigger"`
	NotTriggered     int           `json:"not_triggered"`
	TriggerRate      float64       `json:"trigger_rate"` // of the should_trigger queries
	RejectRate       float64       `json:"reject_rate"`  // of the should_trigger: false ones
	Misses           []triggerMiss `json:"misses"`       // in file order
}

// IsTriggerFile tells the two query formats apart by content: a trigger-eval
// file is one JSON array, a queries file JSON lines (objects).
func IsTriggerFile(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("["))
}

// ParseTriggerItems reads a trigger-eval file's array; every item needs a
// query and should_trigger.
func ParseTriggerItems(data []byte) ([]TriggerItem, error) {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("\ufeff"))))
	var items []TriggerItem
	if err := dec.Decode(&items); err != nil {
		return nil, fmt.Errorf("not a trigger-eval file (want a JSON array of {\"query\": \"…\", \"should_trigger\": true}): %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON array")
	}
	if len(items) == 0 {
		return nil, errors.New("the array holds no query")
	}
	for i, it := range items {
		switch {
		case strings.TrimSpace(it.Query) == "":
			return nil, fmt.Errorf("item %d: query is empty", i+1)
		case it.ShouldTrigger == nil:
			return nil, fmt.Errorf("item %d: should_trigger is missing (true or false)", i+1)
		}
	}
	return items, nil
}

// TriggerSkills resolves each item's skill: its own "skill" (a path or a
// name), else the skill whose folder holds the file (skill-creator keeps
// them in the skill's evals/). An item no skill can be found for is an error.
func TriggerSkills(snap *index.Snapshot, file string, items []TriggerItem) ([]string, error) {
	owner := skillHolding(snap, file)
	out := make([]string, len(items))
	var bad []string
	for i, it := range items {
		switch {
		case it.Skill != "":
			if s, ok := snap.Get(it.Skill); ok {
				out[i] = s.Path
			} else if s, cands := snap.Lookup(it.Skill); s != nil && len(cands) == 0 {
				out[i] = s.Path
			} else {
				bad = append(bad, fmt.Sprintf("item %d: no skill has the path or name %q", i+1, it.Skill))
			}
		case owner != "":
			out[i] = owner
		default:
			bad = append(bad, fmt.Sprintf("item %d: which skill is it for? Put the file in the skill's folder (evals/) or give the item a \"skill\"", i+1))
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%s: %s", file, strings.Join(bad, "; "))
	}
	return out, nil
}

// skillHolding returns the path of the skill whose folder (an Agent
// Skill's, or a tree skill's resource directory) holds file, the deepest
// one; "" when none does.
func skillHolding(snap *index.Snapshot, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	best, depth := "", -1
	for _, s := range snap.Skills() {
		dir := s.ResourceDir
		if s.Format == core.FormatAgentSkill {
			dir = filepath.Dir(s.AbsPath)
		}
		if dir == "" {
			continue
		}
		if resolved, err := filepath.EvalSymlinks(dir); err == nil {
			dir = resolved
		}
		if rel, err := filepath.Rel(dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if d := strings.Count(dir, string(filepath.Separator)); d > depth {
				best, depth = s.Path, d
			}
		}
	}
	return best
}

// EvaluateTrigger routes each item as get_skill does.
func EvaluateTrigger(s core.Searcher, cfg core.RankOptions, items []TriggerItem, skills []string) TriggerReport {
	rep := TriggerReport{Misses: []triggerMiss{}}
	for i, it := range items {
		ranking := core.SearchRank(s, it.Query, cfg)
		triggered := ranking.Outcome != core.NoMatch && ranking.Matches[0].Path == skills[i]
		if *it.ShouldTrigger {
			rep.ShouldTrigger++
			if triggered {
				rep.Triggered++
				continue
			}
		} else {
			rep.ShouldNotTrigger++
			if !triggered {
				rep.NotTriggered++
				continue
			}
		}
		rep.Misses = append(rep.Misses, triggerMiss{Item: i + 1, Query: it.Query, Skill: skills[i], ShouldTrigger: *it.ShouldTrigger,
			Outcome: ranking.Outcome.String(), Picked: picks(s.Search(it.Query), 3)})
	}
	if rep.ShouldTrigger > 0 {
		rep.TriggerRate = float64(rep.Triggered) / float64(rep.ShouldTrigger)
	}
	if rep.ShouldNotTrigger > 0 {
		rep.RejectRate = float64(rep.NotTriggered) / float64(rep.ShouldNotTrigger)
	}
	return rep
}

// PrintTrigger writes the text report of a trigger-eval file.
func PrintTrigger(w io.Writer, rep TriggerReport) {
	for _, m := range rep.Misses {
		want := "should trigger"
		if !m.ShouldTrigger {
			want = "should not trigger"
		}
		fmt.Fprintf(w, "miss (item %d): %q %s %s\n", m.Item, m.Query, want, m.Skill)
		if len(m.Picked) == 0 {
			fmt.Fprintf(w, "  got no_match\n")
		}
		for i, p := range m.Picked {
			label := "  then"
			if i == 0 {
				label = "picked"
				if m.Outcome == "ambiguous" {
					label = "ambiguous, first"
				}
			}
			fmt.Fprintf(w, "  %s %s (%v)\n", label, p.SkillPath, p.Score)
		}
	}
	if len(rep.Misses) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "matcher %s, trigger evals %s:\n", rep.Matcher, rep.File)
	fmt.Fprintf(w, "  should trigger      %d/%d (%.1f%%)\n", rep.Triggered, rep.ShouldTrigger, 100*rep.TriggerRate)
	fmt.Fprintf(w, "  should not trigger  %d/%d rightly not (%.1f%%)\n", rep.NotTriggered, rep.ShouldNotTrigger, 100*rep.RejectRate)
}

// ReadTriggerFile reads and checks path as a trigger-eval file.
func ReadTriggerFile(path string) ([]TriggerItem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	items, err := ParseTriggerItems(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return items, nil
}
