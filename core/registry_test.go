package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

func TestRegistryLookup(t *testing.T) {
	reg := core.NewRegistry[string]("runner")
	reg.Register(".sh", "bash")
	reg.Register(".py", "python3")
	if got, err := reg.Lookup(".sh"); err != nil || got != "bash" {
		t.Errorf("Lookup(.sh) = %q, %v", got, err)
	}
	_, err := reg.Lookup(".rb")
	if !errors.Is(err, core.ErrNotFound) || !strings.Contains(err.Error(), "known: .py, .sh") {
		t.Errorf("Lookup(.rb) error = %v, want ErrNotFound listing the known names sorted", err)
	}
	if got := fmt.Sprint(reg.Names()); got != "[.py .sh]" {
		t.Errorf("Names() = %s", got)
	}
}

func TestRegistryRegisterPanics(t *testing.T) {
	for name, register := range map[string]func(*core.Registry[int]){
		"empty name":     func(r *core.Registry[int]) { r.Register("", 1) },
		"duplicate name": func(r *core.Registry[int]) { r.Register("a", 1); r.Register("a", 2) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Register did not panic")
				}
			}()
			register(core.NewRegistry[int]("thing"))
		})
	}
}

func TestRank(t *testing.T) {
	cfg := specRank
	m := func(path string, score float64) core.Match { return core.Match{Path: path, Score: score} }
	tests := []struct {
		name    string
		matches []core.Match
		outcome core.Outcome
		paths   string
	}{
		{"nothing", nil, core.NoMatch, "[]"},
		{"all below min_score", []core.Match{m("a", 0.19), m("b", 0.1)}, core.NoMatch, "[]"},
		{"min_score is inclusive", []core.Match{m("a", 0.2)}, core.SingleMatch, "[a]"},
		{"one above min_score", []core.Match{m("a", 0.5), m("b", 0.1)}, core.SingleMatch, "[a]"},
		{"clear winner", []core.Match{m("a", 0.9), m("b", 0.5)}, core.SingleMatch, "[a]"},
		{"gap below threshold", []core.Match{m("a", 0.55), m("b", 0.5)}, core.Ambiguous, "[a b]"},
		{"capped at max_results", []core.Match{m("a", 0.5), m("b", 0.5), m("c", 0.5), m("d", 0.5)}, core.Ambiguous, "[a b c]"},
		{"0.6-0.5 is below 0.1 in floating point", []core.Match{m("a", 0.6), m("b", 0.5)}, core.Ambiguous, "[a b]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := core.Rank(tt.matches, cfg)
			var paths []string
			for _, x := range got.Matches {
				paths = append(paths, x.Path)
			}
			if got.Outcome != tt.outcome || fmt.Sprint(append([]string{}, paths...)) != tt.paths {
				t.Errorf("got %v %v, want %v %s", got.Outcome, paths, tt.outcome, tt.paths)
			}
		})
	}
}

func TestMissingArgsError(t *testing.T) {
	err := error(&core.MissingArgsError{Names: []string{"name", "client_id"}})
	if got := err.Error(); got != "missing required args: client_id, name" {
		t.Errorf("got %q", got)
	}
	if !errors.Is(err, core.ErrInvalidArgument) {
		t.Error("MissingArgsError should satisfy errors.Is(err, ErrInvalidArgument)")
	}
}

func ExampleRegistry() {
	reg := core.NewRegistry[string]("sink")
	reg.Register("jsonl", "buffer file")
	_, err := reg.Lookup("kafka")
	fmt.Println(err)
	// Output: sink "kafka": not found (known: jsonl)
}
