package typo

import "testing"

func TestDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", -1, 0},
		{"skill", "skill", -1, 0},
		{"skil", "skill", -1, 1},   // insertion
		{"skills", "skill", -1, 1}, // deletion
		{"skell", "skill", -1, 1},  // substitution
		{"sklil", "skill", -1, 1},  // swap of neighbours
		{"SKILLS_TOOL", "SKILLS_TOOLS", -1, 1},
		{"café", "cafe", -1, 1}, // by rune, not byte
		{"kitten", "sitting", -1, 3},
		{"kitten", "sitting", 1, 2}, // limit+1 once over the limit
		{"a", "abcdef", 2, 3},       // lengths alone exceed the limit
		{"abcdef", "badcfe", -1, 3}, // three swaps
	} {
		if got := Distance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
		if got := Distance(tc.b, tc.a, tc.limit); got != tc.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d (symmetric)", tc.b, tc.a, tc.limit, got, tc.want)
		}
	}
}

// FuzzDistance: the limited distance agrees with the unlimited one wherever
// the latter is within the limit, and says limit+1 elsewhere.
func FuzzDistance(f *testing.F) {
	f.Add("kitten", "sitting", 2)
	f.Add("ab", "ba", 0)
	f.Fuzz(func(t *testing.T, a, b string, limit int) {
		if len(a) > 64 || len(b) > 64 || limit < 0 || limit > 8 {
			return
		}
		full, limited := Distance(a, b, -1), Distance(a, b, limit)
		if full <= limit && limited != full || full > limit && limited != limit+1 {
			t.Fatalf("Distance(%q, %q): %d unlimited, %d with limit %d", a, b, full, limited, limit)
		}
	})
}
