package search

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestExcerptFlatEqualsExcerpt compares excerptFlat over flatten with excerpt on bodies
// built from pieces that matter to it: whitespace of every kind, multi-byte
// and case-changing runes, invalid bytes, short and long texts.
func TestExcerptFlatEqualsExcerpt(t *testing.T) {
	t.Parallel()
	bodies := 20000 // about 7 s under -race
	if testing.Short() {
		bodies = 4000
	}
	pieces := []string{"a", "API", "deploy", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "İ", "Straße", "ǅ", "ﬁ", "é", "\xff", "\xe2\x82", "…", "日本語", "x-y", "Ω", "\ufffd", "\u0085", "\v", "\u3000", strings.Repeat("word ", 40)}
	tokens := []string{"", "a", "api", "deploy", "i̇", "straße", "ǆ", "\ufffd", "日本", "zz", "x-y", "ω"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range bodies {
		var b strings.Builder
		for range rng.IntN(120) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		body, token := b.String(), tokens[rng.IntN(len(tokens))]
		flat, folded := flatten(body)
		if flat != oneLine(body) || folded != fold(oneLine(body)) {
			t.Fatalf("flatten(%q) = %q, %q; want %q, %q", body, flat, folded, oneLine(body), fold(oneLine(body)))
		}
		if got, want := excerptFlat(flat, folded, token), excerpt(body, token); got != want {
			t.Fatalf("excerpt(%q, %q):\n got %q\nwant %q", body, token, got, want)
		}
	}
}
