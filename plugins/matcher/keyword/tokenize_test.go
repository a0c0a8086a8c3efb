package keyword

import (
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name    string
		context string
		want    []string
	}{
		{"spec 5.1 example", "Create a React component for the authentication", []string{"create", "react", "component", "authentication"}},
		{"punctuation becomes space", "Hello, world! (test)? [x]{y}", []string{"hello", "world", "test", "x", "y"}},
		{"hyphens kept", "server-side rendering of e-mail", []string{"server-side", "rendering", "e-mail"}},
		{"combining marks stay in the word", "cre\u0301er हिन्दी", []string{"cre\u0301er", "हिन्दी"}},
		{"hyphen-only tokens dropped", "react - hooks -- ---", []string{"react", "hooks"}},
		{"leading and trailing hyphens kept", "-flag --verbose", []string{"-flag", "--verbose"}},
		{"node.js splits on the dot", "node.js", []string{"node", "js"}},
		{"C++ keeps the letter", "C++ and C#", []string{"c"}},
		{"underscores become spaces", "snake_case_name", []string{"snake", "case", "name"}},
		{"slashes and colons", "ui/react:forms", []string{"ui", "react", "forms"}},
		{"French accents stay whole", "Créer des données", []string{"créer", "données"}},
		{"French elision splits", "l'authentification", []string{"l", "authentification"}},
		{"English stop words dropped", "the status of a build in the pipeline", []string{"status", "build", "pipeline"}},
		{"French stop words dropped", "le déploiement de la base et les tests", []string{"déploiement", "base", "tests"}},
		{"duplicates removed keeping first order", "react hooks React REACT hooks state", []string{"react", "hooks", "state"}},
		{"uppercase lowered", "TypeScript API GRAPHQL", []string{"typescript", "api", "graphql"}},
		{"uppercase accented lowered", "ÉTÉ ÇA", []string{"été", "ça"}},
		{"digits kept", "python3 v1.2 2024", []string{"python3", "v1", "2", "2024"}},
		{"unicode numbers kept", "fraction ½ Ⅻ", []string{"fraction", "½", "ⅻ"}},
		{"other scripts kept", "日本語 тест δοκιμή", []string{"日本語", "тест", "δοκιμή"}},
		{"symbols and emoji removed", "deploy 🚀 now → €5", []string{"deploy", "now", "5"}},
		{"tabs and newlines split", "go\tlang\nrust\r\nzig", []string{"go", "lang", "rust", "zig"}},
		{"stop word inside a hyphenated word kept", "the-end", []string{"the-end"}},
		{"empty string", "", nil},
		{"only whitespace", " \t\n ", nil},
		{"only punctuation", "...!?,;", nil},
		{"only stop words", "The a of to IN for with Le la les de", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokenize(tt.context)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.context, got, tt.want)
			}
		})
	}
}

func TestStopwordsEmbedded(t *testing.T) {
	tests := []struct {
		word string
		want bool
	}{
		{"a", true},
		{"the", true},
		{"with", true},
		{"les", true},
		{"aux", true},
		{"react", false},
		{"", false},
		{"#", false},
		{"The", false}, // isStopword expects lowercased input
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := isStopword(tt.word); got != tt.want {
				t.Errorf("isStopword(%q) = %v, want %v", tt.word, got, tt.want)
			}
		})
	}
	if got, want := len(stopwords), 88; got != want {
		t.Errorf("len(stopwords) = %d, want %d (the lines of stopwords.txt without its comment)", got, want)
	}
}

func TestParseStopwords(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"comments and blanks skipped", "# header\n\nthe\n  # indented comment\nle\n", []string{"le", "the"}},
		{"CRLF and spaces trimmed", "the\r\n  le  \r\n", []string{"le", "the"}},
		{"uppercase lowered", "THE\nLes\n", []string{"les", "the"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for w := range parseStopwords(tt.text) {
				got = append(got, w)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("parseStopwords(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}
