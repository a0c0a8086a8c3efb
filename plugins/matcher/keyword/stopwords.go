package keyword

import (
	_ "embed"
	"strings"
)

// stopwordsText is the stop-word list of spec 000 §5.1 (English, then French),
// a copy of the specification's stopwords.txt: one word per line, `#` comments.
//
//go:embed stopwords.txt
var stopwordsText string

// stopwords holds the words Tokenize drops.
var stopwords = parseStopwords(stopwordsText)

// parseStopwords reads one lowercased word per line, skipping blank lines and
// lines starting with `#`.
func parseStopwords(text string) map[string]struct{} {
	words := make(map[string]struct{})
	for line := range strings.Lines(text) {
		w := strings.TrimSpace(line)
		if w == "" || strings.HasPrefix(w, "#") {
			continue
		}
		words[strings.ToLower(w)] = struct{}{}
	}
	return words
}

// isStopword reports whether word (already lowercased) is one of the stop words
// Tokenize drops.
func isStopword(word string) bool {
	_, ok := stopwords[word]
	return ok
}
