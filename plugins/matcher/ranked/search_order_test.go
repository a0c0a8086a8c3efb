package ranked_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// TestSearchIndependentOfEntryOrder builds one catalogue with its entries in
// path order (as internal/index hands them, where equal scores are ordered by
// doc number) and shuffled (where they are ordered by comparing paths), and
// checks that Search and SearchTop answer the same, ties included.
func TestSearchIndependentOfEntryOrder(t *testing.T) {
	c, err := corpus.Plan(corpus.Options{Skills: 1000})
	if err != nil {
		t.Fatal(err)
	}
	entries := append(entriesOf(c), neighbours...)
	// Another collection's skill of a neighbour's name, for the same-name tie.
	entries = append(entries, core.MatchEntry{Path: "more/pdf", Name: "pdf", Description: "Read PDF files."})
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b core.MatchEntry) int { return strings.Compare(a.Path, b.Path) })
	shuffled := slices.Clone(entries)
	rng := rand.New(rand.NewPCG(9, 10))
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	a := ranked.New().Build(sorted).(core.TopSearcher)
	b := ranked.New().Build(shuffled).(core.TopSearcher)
	contexts := []string{"pdf", "read pdf files", "add a login form with validation to the react app and deploy it", "docs/pdf", "deploy"}
	for i := range 40 {
		contexts = append(contexts, corpus.ContextFor(&c.Skills[i*25]))
	}
	ties := 0
	for _, ctx := range contexts {
		want := b.Search(ctx)
		if got := a.Search(ctx); !reflect.DeepEqual(got, want) {
			t.Fatalf("Search(%q) depends on the entries' order:\n in order %v\n shuffled %v", ctx, got, want)
		}
		for i := 1; i < len(want); i++ {
			if want[i].Score == want[i-1].Score {
				ties++
			}
		}
		for _, limit := range []int{1, 3, 10} {
			got, n := a.SearchTop(ctx, math.Inf(-1), limit)
			if n != len(want) || !reflect.DeepEqual(got, want[:min(limit, len(want))]) {
				t.Fatalf("SearchTop(%q, %d) = %v, %d; want the first of %v", ctx, limit, got, n, want)
			}
		}
	}
	if ties < 100 {
		t.Errorf("only %d equal scores: the order of ties is hardly tested", ties)
	}
}
