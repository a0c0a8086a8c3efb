package search

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	rankedmatcher "github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// TestSearchIndexEqualsReading compares skills_search over the word index
// with the reference that reads every body (searchHits), on a generated
// corpus and a tree of corner cases, with both matchers, for random queries
// and limits.
func TestSearchIndexEqualsReading(t *testing.T) {
	t.Parallel()
	queries := 400 // each reads every body: about 30 s under -race
	if testing.Short() {
		queries = 60
	}
	_, dir, err := corpus.Cached("", corpus.Options{Skills: 300})
	if err != nil {
		t.Fatal(err)
	}
	corner := t.TempDir()
	for p, text := range map[string]string{
		"_root.md":            "---\ndescription: Root\n---\nThe ROOT body: Straße, İstanbul, naïve café.\n",
		"ui/_index.md":        "---\ndescription: UI rules\nkeywords: [ui]\n---\nfoo.bar baz\tqux\u00a0quux\u2003end\n",
		"ui/react.md":         "---\ndescription: React hooks-and-state\nkeywords: [react, hooks]\n---\n# Hooks\nuseState(x) → ŒUVRE ǅ ﬁle\n",
		"ui/vue.md":           "---\ndescription: Vue\nkeywords: [vue]\n---\n\xff\xfe broken bytes and api-calls\n",
		"ops/deploy.md":       "---\ndescription: Deploy with k8s\nkeywords: [deploy, k8s]\n---\nRun `kubectl apply -f deploy.yaml`; retry-cache.\n",
		"ops/kits/a/SKILL.md": "---\nname: a-kit\ndescription: An Agent Skill kit\n---\nKit body with API and rapid calls.\n",
	} {
		writeFile(t, corner, p, text)
	}
	for _, c := range []struct {
		root string
		m    core.Matcher
	}{{dir, rankedmatcher.New()}, {dir, keyword.New()}, {corner, rankedmatcher.New()}, {corner, keyword.New()}} {
		root := c.root
		idx := index.New(index.Options{Root: root, Matcher: c.m})
		snap, err := idx.Rebuild(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ix := buildWordIndex(snap)
		if ix.err != nil {
			t.Fatal(ix.err)
		}
		var words []string
		for _, sk := range snap.Skills() {
			body, _ := snap.Body(sk)
			words = append(words, strings.Fields(sk.Description+" "+body+" "+sk.Path)...)
		}
		words = append(words, "a", "e", "api", "-", ".", "İ", "straße", "ǆ", "\ufffd", "zzz-none", "ss", "ﬁ")
		rng := rand.New(rand.NewPCG(1, 2))
		found := 0
		for k := range queries {
			var q []string
			for range 1 + rng.IntN(3) {
				w := words[rng.IntN(len(words))]
				if rng.IntN(3) == 0 && len(w) > 2 { // a piece of a word
					i := rng.IntN(len(w) - 1)
					w = w[i : i+1+rng.IntN(len(w)-i-1)]
				}
				q = append(q, w)
			}
			if k%4 == 0 && len(q[0]) > 1 { // a token inside another, or twice
				q = append(q, q[0][:1+rng.IntN(len(q[0])-1)], q[0])
			}
			query := strings.Join(q, " ")
			tokens := strings.Fields(fold(query))
			if len(tokens) == 0 {
				continue
			}
			limit := 1 + rng.IntN(25)
			want, err := searchHits(context.Background(), snap, query, tokens)
			if err != nil {
				t.Fatal(err)
			}
			got, total, err := ix.hits(context.Background(), query, tokens, limit)
			if err != nil {
				t.Fatal(err)
			}
			wantTotal := len(want)
			want = want[:min(limit, len(want))]
			for i := range want {
				want[i].Excerpt, want[i].body = excerpt(want[i].body, want[i].first), ""
			}
			if total != wantTotal || !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("query %q limit %d: index gave %d hits (%+v), reading gave %d (%+v)", query, limit, total, got, wantTotal, want)
			}
			if total > limit {
				found++
			}
		}
		if root == dir && found < queries/10 {
			t.Errorf("%s: only %d of %d queries had more hits than their limit", root, found, queries)
		}
	}
}
