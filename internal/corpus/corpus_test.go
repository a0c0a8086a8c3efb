package corpus_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

func TestPlanIsDeterministic(t *testing.T) {
	tests := []struct {
		name       string
		a, b       corpus.Options
		wantEqual  bool
		wantSkills int
	}{
		{"same options", corpus.Options{Skills: 500}, corpus.Options{Skills: 500}, true, 500},
		{"zero seed is the default seed", corpus.Options{Skills: 120}, corpus.Options{Skills: 120, Seed: corpus.DefaultSeed}, true, 120},
		{"another seed", corpus.Options{Skills: 500, Seed: 1}, corpus.Options{Skills: 500, Seed: 2}, false, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := corpus.Plan(tt.a)
			if err != nil {
				t.Fatal(err)
			}
			b, err := corpus.Plan(tt.b)
			if err != nil {
				t.Fatal(err)
			}
			if got := reflect.DeepEqual(a.Skills, b.Skills); got != tt.wantEqual {
				t.Errorf("plans equal = %v, want %v", got, tt.wantEqual)
			}
			if got := len(a.Skills); got != tt.wantSkills {
				t.Errorf("got %d skills, want %d", got, tt.wantSkills)
			}
		})
	}
}

func TestPlanRejectsNoSkills(t *testing.T) {
	if _, err := corpus.Plan(corpus.Options{Skills: 0}); err == nil {
		t.Error("Plan(Skills: 0) succeeded, want an error")
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	_, stA, err := corpus.Generate(a, corpus.Options{Skills: 150})
	if err != nil {
		t.Fatal(err)
	}
	_, stB, err := corpus.Generate(b, corpus.Options{Skills: 150})
	if err != nil {
		t.Fatal(err)
	}
	if stA != stB {
		t.Errorf("stats differ: got %+v and %+v", stA, stB)
	}
	filesA, filesB := readTree(t, a), readTree(t, b)
	if len(filesA) != stA.Files {
		t.Errorf("got %d files on disk, want %d (Stats.Files)", len(filesA), stA.Files)
	}
	for rel, data := range filesA {
		if !bytes.Equal(filesB[rel], data) {
			t.Errorf("file %s differs between two runs", rel)
		}
	}
	if len(filesA) != len(filesB) {
		t.Errorf("got %d and %d files, want the same tree", len(filesA), len(filesB))
	}
}

// TestIndexFindsThePlan indexes generated corpora of several sizes and checks
// that the index finds every planned skill as planned, and nothing wrong.
func TestIndexFindsThePlan(t *testing.T) {
	for _, n := range []int{1, 2, 7, 12, 40, 400} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			dir := t.TempDir()
			c, _, err := corpus.Generate(dir, corpus.Options{Skills: n})
			if err != nil {
				t.Fatal(err)
			}
			snap, err := index.New(index.Options{Root: dir, Matcher: keyword.New()}).Rebuild(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if problems := snap.Problems(); len(problems) > 0 {
				t.Errorf("got %d problems, want none; first: %+v", len(problems), problems[0])
			}
			if got, want := snap.Len(), len(c.Skills); got != want {
				t.Fatalf("indexed %d skills, want %d", got, want)
			}
			for i := range c.Skills {
				checkSkill(t, snap, &c.Skills[i])
			}
		})
	}
}

func checkSkill(t *testing.T, snap *index.Snapshot, want *corpus.Skill) {
	t.Helper()
	got, ok := snap.Get(want.Path)
	if !ok {
		t.Errorf("skill %s not indexed", want.Path)
		return
	}
	if string(got.Format) != want.Format || got.Name != want.Name || got.Description != want.Description ||
		got.Priority != float64(want.Priority) || got.Inherit != want.Inherit || got.Parent != want.Parent || got.FilePath != want.File {
		t.Errorf("skill %s: got format %s name %q description %q priority %v inherit %v parent %q file %s, want %s %q %q %v %v %q %s",
			want.Path, got.Format, got.Name, got.Description, got.Priority, got.Inherit, got.Parent, got.FilePath,
			want.Format, want.Name, want.Description, want.Priority, want.Inherit, want.Parent, want.File)
	}
	if !slices.Equal(got.Keywords, want.Keywords) && (len(got.Keywords) > 0 || len(want.Keywords) > 0) {
		t.Errorf("skill %s: got keywords %q, want %q", want.Path, got.Keywords, want.Keywords)
	}
	own, _, ownScripts, _ := snap.AssetsFor(got)
	if len(own) != len(want.Assets) || len(ownScripts) != len(want.Scripts) {
		t.Errorf("skill %s: got %d assets and %d scripts, want %d and %d", want.Path, len(own), len(ownScripts), len(want.Assets), len(want.Scripts))
	}
	if n := got.Body.Size; n < 1024 || n > 3072 {
		t.Errorf("skill %s: body is %d bytes, want 1–3 KB", want.Path, n)
	}
}

// TestPlanHasRealisticOverlap checks the properties the benchmarks rely on:
// keywords shared across many skills, compound, short, accented and
// capitalised keywords, Agent Skills with and without keywords, skills that
// do not inherit, priorities, and parents missing their `_index.md`.
func TestPlanHasRealisticOverlap(t *testing.T) {
	c, err := corpus.Plan(corpus.Options{Skills: 2000})
	if err != nil {
		t.Fatal(err)
	}
	uses := map[string]int{}
	var compound, short, accented, capitalised, agentsWith, agentsWithout, noInherit, prioritised, skipParent int
	for _, s := range c.Skills {
		for _, kw := range s.Keywords {
			uses[strings.ToLower(kw)]++
			switch {
			case strings.Contains(kw, "-"):
				compound++
			case utf8.RuneCountInString(kw) < 3:
				short++
			case kw != strings.ToLower(kw):
				capitalised++
			}
			if !isASCII(kw) {
				accented++
			}
		}
		switch {
		case s.Format == corpus.FormatAgentSkill && len(s.Keywords) > 0:
			agentsWith++
		case s.Format == corpus.FormatAgentSkill:
			agentsWithout++
		case !s.Inherit:
			noInherit++
		}
		if s.Priority != 0 {
			prioritised++
		}
		if strings.Count(s.Path, "/") == 2 && !strings.HasSuffix(s.Path, "/_index") && s.Format == corpus.FormatTree && strings.Count(s.Parent, "/") == 1 {
			skipParent++
		}
	}
	maxUses := 0
	for _, n := range uses {
		maxUses = max(maxUses, n)
	}
	checks := []struct {
		name string
		got  int
		min  int
	}{
		{"uses of the most shared keyword", maxUses, 100},
		{"distinct keywords", len(uses), 1000},
		{"compound keywords", compound, 1000},
		{"short keywords", short, 20},
		{"accented keywords", accented, 20},
		{"capitalised keywords", capitalised, 50},
		{"agent skills with keywords", agentsWith, 50},
		{"agent skills without keywords", agentsWithout, 50},
		{"tree skills with inherit false", noInherit, 20},
		{"prioritised skills", prioritised, 200},
		{"leaves whose subcategory has no _index.md", skipParent, 10},
	}
	for _, ck := range checks {
		if ck.got < ck.min {
			t.Errorf("%s: got %d, want at least %d", ck.name, ck.got, ck.min)
		}
	}
}

func TestPickContexts(t *testing.T) {
	for _, n := range []int{100, 1000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c, err := corpus.Plan(corpus.Options{Skills: n})
			if err != nil {
				t.Fatal(err)
			}
			s := keyword.New().Build(matchEntries(c))
			cfg := config.Default().Matching.Rank()
			rank := func(ctx string) core.Ranking { return core.Rank(s.Search(ctx), cfg) }
			ctxs, err := c.PickContexts(rank)
			if err != nil {
				t.Fatal(err)
			}
			if r := rank(ctxs.Single); r.Outcome != core.SingleMatch || r.Matches[0].Path != ctxs.SinglePath {
				t.Errorf("Single %q: got %+v, want the single match %s", ctxs.Single, r, ctxs.SinglePath)
			}
			if r := rank(ctxs.Ambiguous); r.Outcome != core.Ambiguous {
				t.Errorf("Ambiguous %q: got outcome %v, want Ambiguous", ctxs.Ambiguous, r.Outcome)
			}
			if r := rank(ctxs.NoMatch); r.Outcome != core.NoMatch {
				t.Errorf("NoMatch %q: got outcome %v, want NoMatch", ctxs.NoMatch, r.Outcome)
			}
		})
	}
}

func TestPickContextsFailsWithoutCandidates(t *testing.T) {
	c, err := corpus.Plan(corpus.Options{Skills: 50})
	if err != nil {
		t.Fatal(err)
	}
	never := func(string) core.Ranking { return core.Ranking{Outcome: core.Ambiguous} }
	if _, err := c.PickContexts(never); err == nil || !strings.Contains(err.Error(), "no match, single") {
		t.Errorf("got error %v, want one naming the no match and single outcomes", err)
	}
}

func TestRandomContexts(t *testing.T) {
	a, b := corpus.RandomContexts(7, 200), corpus.RandomContexts(7, 200)
	if !slices.Equal(a, b) {
		t.Error("RandomContexts with one seed differ between calls")
	}
	if slices.Equal(a, corpus.RandomContexts(8, 200)) {
		t.Error("RandomContexts with two seeds are equal")
	}
	empty, tokens := 0, map[string]bool{}
	for _, ctx := range a {
		toks := keyword.Tokenize(ctx)
		if len(toks) == 0 {
			empty++
		}
		for _, tok := range toks {
			tokens[tok] = true
		}
	}
	if empty == 0 || empty > len(a)/2 {
		t.Errorf("got %d contexts without tokens of %d, want some but not most", empty, len(a))
	}
	if len(tokens) < 200 {
		t.Errorf("got %d distinct tokens, want at least 200", len(tokens))
	}
}

// matchEntries is what internal/index hands the matcher for the planned skills.
func matchEntries(c *corpus.Corpus) []core.MatchEntry {
	out := make([]core.MatchEntry, len(c.Skills))
	for i, s := range c.Skills {
		out[i] = core.MatchEntry{Path: s.Path, Keywords: s.Keywords, Priority: float64(s.Priority), Name: s.Name, Description: s.Description}
	}
	return out
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func TestCached(t *testing.T) {
	root := t.TempDir()
	c, dir, err := corpus.Cached(root, corpus.Options{Skills: 40})
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, ".corpus-complete")
	first, err := os.Stat(marker)
	if err != nil {
		t.Fatalf("no completion marker: %v", err)
	}
	files := readTree(t, dir)
	if got := len(c.Skills); got != 40 {
		t.Errorf("got %d skills, want 40", got)
	}

	// A second call reuses the directory as it is.
	_, again, err := corpus.Cached(root, corpus.Options{Skills: 40})
	if err != nil {
		t.Fatal(err)
	}
	if again != dir {
		t.Errorf("second call: got dir %s, want %s", again, dir)
	}
	if second, _ := os.Stat(marker); !second.ModTime().Equal(first.ModTime()) {
		t.Error("second call rewrote the corpus, want it reused")
	}

	// An interrupted write (no marker) is replaced by a complete corpus.
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "leftover.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := corpus.Cached(root, corpus.Options{Skills: 40}); err != nil {
		t.Fatal(err)
	}
	rewritten := readTree(t, dir)
	if _, left := rewritten["leftover.md"]; left {
		t.Error("the interrupted corpus was kept, want it replaced")
	}
	delete(rewritten, ".corpus-complete")
	delete(files, ".corpus-complete")
	if !reflect.DeepEqual(rewritten, files) {
		t.Error("the rewritten corpus differs from the first one")
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("got %d entries in the cache root, want only the corpus (no temporary directory left)", len(entries))
	}
}
