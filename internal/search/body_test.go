package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	rankedmatcher "github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// TestBodyWordsEqualReading holds the shown hits' score, first token and
// excerpt taken from the index's copy of the bodies (excerpter) to what the
// reference takes from the body read (tokensFound, excerpt), on bodies built
// from the pieces that matter to them: whitespace of every kind, multi-byte
// and case-changing runes (Turkish İ, ß, ligatures), NBSP, invalid bytes,
// a written U+FFFD, long words and texts, an empty body; with both matchers.
func TestBodyWordsEqualReading(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "API", "deploy", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "İ", "Straße", "ǅ", "ﬁ", "é", "\xff", "\xe2\x82", "…", "日本語", "x-y", "Ω", "\ufffd", "\u0085", "\v", "\u3000", strings.Repeat("word ", 40), strings.Repeat("long", 60)}
	tokens := []string{"a", "api", "deploy", "i̇", "straße", "ǆ", "\ufffd", "日本", "zz", "x-y", "ω", "ﬁ", "longlong", "word", "skill"}
	rng := rand.New(rand.NewPCG(5, 6))
	perSkill := 12 // queries per Skill: about 8 s under -race on a loaded machine
	if testing.Short() {
		perSkill = 4
	}
	dir := t.TempDir()
	for i := range 150 {
		var b strings.Builder
		for range rng.IntN(3) * rng.IntN(150) { // a third of the bodies empty
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		writeFile(t, dir, fmt.Sprintf("g%d/s%03d.md", i%7, i), fmt.Sprintf("---\ndescription: Skill %d API\nkeywords: [k%d]\n---\n%s", i, i, b.String()))
	}
	for _, m := range []core.Matcher{rankedmatcher.New(), keyword.New()} {
		snap, err := index.New(index.Options{Root: dir, Matcher: m}).Rebuild(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ix := buildWordIndex(snap)
		if ix.err != nil {
			t.Fatal(ix.err)
		}
		if len(ix.order) != 150 {
			t.Fatalf("%d skills indexed, want 150", len(ix.order))
		}
		cut := 0
		for _, sk := range ix.order {
			body, err := snap.Body(sk)
			if err != nil {
				t.Fatal(err)
			}
			for k := range perSkill {
				q := make([]string, 1+rng.IntN(3))
				for k := range q {
					q[k] = tokens[rng.IntN(len(tokens))]
				}
				got := Hit{Skill: sk}
				ex := newExcerpter(q, tokenSets{})
				if k%2 == 0 { // with the sets of the skills holding each token
					_, sets, _ := ix.allTokens(context.Background(), q, getBitsets())
					ex = newExcerpter(q, sets)
				}
				ex.hit(ix, &got)
				ex.free()
				want := Hit{Skill: sk}
				want.Score, want.first = tokensFound(sk, body, q)
				want.Excerpt = excerpt(body, want.first)
				if strings.HasPrefix(want.Excerpt, "…") {
					cut++
				}
				if got != want {
					t.Fatalf("%s, tokens %q, body %q:\n got %+v\nwant %+v", sk.Path, q, body, got, want)
				}
			}
		}
		if cut < 100*perSkill/12 {
			t.Errorf("only %d excerpts start inside their body", cut)
		}
	}
}
