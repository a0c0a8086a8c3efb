package keyword

import (
	"strings"
	"unicode"
)

// Tokenize splits a free-text context into search tokens (spec 000 §5.1): it
// lowercases the text, turns every rune that is not a letter, a combining mark,
// a digit or a hyphen into a space, splits on whitespace, drops stop words and tokens made
// only of hyphens, and removes duplicates keeping the first occurrence.
//
// Letters, combining marks and digits of every script are kept, so "créer"
// (precomposed or decomposed), "हिन्दी" and "日本語" stay whole words, while "node.js" gives "node" and "js", and "C++" gives "c".
func Tokenize(context string) []string {
	cleaned := strings.Map(keepRune, strings.ToLower(context))
	fields := strings.Fields(cleaned)
	tokens := make([]string, 0, len(fields))
	seen := make(map[string]struct{}, len(fields))
	for _, f := range fields {
		if isStopword(f) || strings.Trim(f, "-") == "" {
			continue
		}
		if _, dup := seen[f]; dup {
			continue
		}
		seen[f] = struct{}{}
		tokens = append(tokens, f)
	}
	return tokens
}

// keepRune keeps letters, combining marks, digits and hyphens and maps every other rune to a space.
func keepRune(r rune) rune {
	if r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.IsNumber(r) {
		return r
	}
	return ' '
}
