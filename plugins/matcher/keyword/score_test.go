package keyword

import (
	"slices"
	"testing"
)

// TestScoreBidirectionalMatching covers every row of the spec 000 §5.2
// "Bidirectional matching examples" table plus the short-token clarification.
func TestScoreBidirectionalMatching(t *testing.T) {
	tests := []struct {
		name    string
		token   string
		keyword string
		want    bool
	}{
		// The §5.2 table, row by row.
		{"exact react/react", "react", "react", true},
		{"token contains keyword authentication/auth", "authentication", "auth", true},
		{"keyword contains token auth/authentication", "auth", "authentication", true},
		{"keyword contains token react/reactjs", "react", "reactjs", true},
		{"short token go/golang", "go", "golang", false},
		{"both short exact ts/ts", "ts", "ts", true},
		// The clarification: under 3 runes matches only an identical word, both ways.
		{"short token js/json", "js", "json", false},
		{"short keyword json/js", "json", "js", false},
		{"short keyword golang/go", "golang", "go", false},
		{"short keyword go/go", "go", "go", true},
		{"one-rune keyword c/c", "c", "c", true},
		{"one-rune token c/css", "c", "css", false},
		{"short mismatch go/ts", "go", "ts", false},
		// The limit: 3 runes is no longer short.
		{"three runes css/scss", "css", "scss", true},
		{"three runes scss/css", "scss", "css", true},
		{"three runes api/apis", "api", "apis", true},
		// Runes, not bytes: "été" is 3 runes but 5 bytes, "ça" 2 runes but 3 bytes.
		{"accented three runes été/étés", "été", "étés", true},
		{"accented two runes ça/çava", "ça", "çava", false},
		{"accented two runes ça/ça", "ça", "ça", true},
		// Keywords are lowercased before matching.
		{"keyword uppercase React/react", "react", "React", true},
		{"keyword uppercase TS/ts", "ts", "TS", true},
		// No relation at all.
		{"unrelated vue/react", "vue", "react", false},
		{"partial overlap only react/reaction-time", "reactor", "reaction", false},
		// Hyphenated words are ordinary strings.
		{"hyphenated keyword contains token", "server", "server-side", true},
		{"empty keyword never matches", "react", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, matched := referenceScore([]string{tt.token}, []string{tt.keyword}, 0)
			if got := len(matched) == 1; got != tt.want {
				t.Errorf("referenceScore([%q], [%q]) matched %q, want match %v", tt.token, tt.keyword, matched, tt.want)
			}
		})
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		name        string
		tokens      []string
		keywords    []string
		priority    float64
		wantScore   float64
		wantMatched []string
	}{
		{"all keywords match", []string{"react", "component"}, []string{"react", "component"}, 0, 1, []string{"react", "component"}},
		{"half the keywords", []string{"react"}, []string{"react", "vue"}, 0, 0.5, []string{"react"}},
		{"one of four", []string{"testing"}, []string{"react", "vue", "test", "svelte"}, 0, 0.25, []string{"test"}},
		{"none match keeps priority", []string{"rust"}, []string{"react", "vue"}, 7, 0.007, nil},
		{"no keywords gives base 0", []string{"react"}, nil, 3, 0.003, nil},
		{"no tokens", nil, []string{"react"}, 0, 0, nil},
		{"matched lowercased in declaration order", []string{"authentication", "react"}, []string{"React", "Vue", "Auth"}, 0, 0.6666666666666666, []string{"react", "auth"}},
		{"keyword listed twice counts twice", []string{"react"}, []string{"react", "React", "vue"}, 0, 0.6666666666666666, []string{"react", "react"}},
		{"one token matches several keywords", []string{"authentication"}, []string{"auth", "authentication", "cation"}, 0, 1, []string{"auth", "authentication", "cation"}},
		// Literals printed by JavaScript (`m/t + p*0.001` in node): results must be bit-identical.
		{"JS 2/3 + 5*0.001", []string{"aaa", "bbb"}, []string{"aaa", "bbb", "ccc"}, 5, 0.6716666666666666, []string{"aaa", "bbb"}},
		{"JS 1/3 + 1*0.001", []string{"aaa"}, []string{"aaa", "bbb", "ccc"}, 1, 0.3343333333333333, []string{"aaa"}},
		{"JS 1/7 + 3*0.001", []string{"k1x"}, []string{"k1x", "k2x", "k3x", "k4x", "k5x", "k6x", "k7x"}, 3, 0.14585714285714285, []string{"k1x"}},
		{"JS 3/7 + 0.5*0.001", []string{"k1x", "k2x", "k3x"}, []string{"k1x", "k2x", "k3x", "k4x", "k5x", "k6x", "k7x"}, 0.5, 0.42907142857142855, []string{"k1x", "k2x", "k3x"}},
		{"JS 5/6 + 10*0.001", []string{"k1x", "k2x", "k3x", "k4x", "k5x"}, []string{"k1x", "k2x", "k3x", "k4x", "k5x", "k6x"}, 10, 0.8433333333333334, []string{"k1x", "k2x", "k3x", "k4x", "k5x"}},
		{"JS 1/1 - 2*0.001", []string{"aaa"}, []string{"aaa"}, -2, 0.998, []string{"aaa"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			score, matched := referenceScore(tt.tokens, tt.keywords, tt.priority)
			if score != tt.wantScore {
				t.Errorf("score = %v, want %v", score, tt.wantScore)
			}
			if !slices.Equal(matched, tt.wantMatched) {
				t.Errorf("matched = %q, want %q", matched, tt.wantMatched)
			}
		})
	}
}

func TestScoreSpecExampleThroughTokenize(t *testing.T) {
	tokens := Tokenize("Create a React component for the authentication")
	score, matched := referenceScore(tokens, []string{"react", "component", "auth", "vue"}, 2)
	if want := []string{"react", "component", "auth"}; !slices.Equal(matched, want) {
		t.Errorf("matched = %q, want %q", matched, want)
	}
	if want := 0.752; score != want {
		t.Errorf("score = %v, want %v", score, want)
	}
}
