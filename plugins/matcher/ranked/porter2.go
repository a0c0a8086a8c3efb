package ranked

import "strings"

// This file is the English (Porter2) stemmer of Snowball, written from its
// published algorithm (snowballstem.org/algorithms/english/stemmer.html):
// no Snowball implementation is served by the Go module proxy this build
// may use, and the algorithm is small and fixed. Letters are a-z; a stem is
// computed in a buffer on the stack and shares the word's bytes when it is a
// prefix of it, so stemming a catalogue allocates only for rewritten
// endings.

// stemBuf is the longest word stemmed; longer words are left as they are.
const stemBuf = 48

// porter2 returns the Porter2 stem of w, a word of a-z letters only.
func porter2(w string) string {
	if len(w) <= 2 || len(w) > stemBuf {
		return w
	}
	if s, ok := porterException(w); ok {
		return s
	}
	var arr [stemBuf]byte
	b := arr[:copy(arr[:], w)]
	// y at the start or after a vowel is a consonant: Y.
	for i := range b {
		if b[i] == 'y' && (i == 0 || isVowel(b[i-1])) {
			b[i] = 'Y'
		}
	}
	r1, r2 := regions(b)
	b = step1a(b)
	if invariant(b) {
		return string(b)
	}
	b = step1b(b, r1)
	b = step1c(b)
	b = step2(b, r1)
	b = step3(b, r1, r2)
	b = step4(b, r2)
	b = step5(b, r1, r2)
	for i := range b {
		if b[i] == 'Y' {
			b[i] = 'y'
		}
	}
	if len(b) <= len(w) && string(b) == w[:len(b)] {
		return w[:len(b)]
	}
	return string(b)
}

// porterException returns the stem of Porter2's irregular forms.
func porterException(w string) (string, bool) {
	switch w {
	case "skis":
		return "ski", true
	case "skies":
		return "sky", true
	case "dying", "lying", "tying":
		return w[:1] + "ie", true
	case "idly", "gently", "singly":
		return w[:len(w)-1], true
	case "ugly", "early", "only":
		return w[:len(w)-1] + "i", true
	case "sky", "news", "howe", "atlas", "cosmos", "bias", "andes":
		return w, true
	}
	return "", false
}

// invariant reports the words left as they are after step 1a.
func invariant(b []byte) bool {
	switch string(b) {
	case "inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed":
		return true
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// regions returns where R1 and R2 start: after the first non-vowel that
// follows a vowel, and the same again inside R1 (len(b) when there is none).
func regions(b []byte) (int, int) {
	r1 := len(b)
	for _, p := range [...]string{"gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ"} {
		if len(b) >= len(p) && string(b[:len(p)]) == p {
			r1 = len(p)
			break
		}
	}
	if r1 == len(b) {
		r1 = regionAfter(b, 0)
	}
	return r1, regionAfter(b, r1)
}

func regionAfter(b []byte, from int) int {
	for i := from + 1; i < len(b); i++ {
		if !isVowel(b[i]) && isVowel(b[i-1]) {
			return i + 1
		}
	}
	return len(b)
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// longest returns the longest of suffixes b ends with, or "".
func longest(b []byte, suffixes []string) string {
	best := ""
	if len(b) == 0 {
		return best
	}
	last := b[len(b)-1]
	for _, s := range suffixes {
		if s[len(s)-1] == last && len(s) > len(best) && hasSuffix(b, s) {
			best = s
		}
	}
	return best
}

func replace(b []byte, suffix, with string) []byte {
	return append(b[:len(b)-len(suffix)], with...)
}

func containsVowel(b []byte) bool {
	for _, c := range b {
		if isVowel(c) {
			return true
		}
	}
	return false
}

// shortSyllable reports whether b ends in a short syllable: a non-vowel, a
// vowel, then a non-vowel other than w, x or Y; or a vowel and a non-vowel
// that start the word.
func shortSyllable(b []byte) bool {
	n := len(b)
	if n == 2 {
		return isVowel(b[0]) && !isVowel(b[1])
	}
	if n >= 3 {
		c := b[n-1]
		return !isVowel(b[n-3]) && isVowel(b[n-2]) && !isVowel(c) && c != 'w' && c != 'x' && c != 'Y'
	}
	return false
}

func step1a(b []byte) []byte {
	switch s := longest(b, []string{"sses", "ied", "ies", "us", "ss", "s"}); s {
	case "sses":
		return replace(b, s, "ss")
	case "ied", "ies":
		if len(b) > 4 {
			return replace(b, s, "i")
		}
		return replace(b, s, "ie")
	case "s":
		// Deleted when a vowel comes before the letter before the s.
		if len(b) >= 3 && containsVowel(b[:len(b)-2]) {
			return b[:len(b)-1]
		}
	}
	return b
}

func step1b(b []byte, r1 int) []byte {
	s := longest(b, []string{"eed", "eedly", "ed", "edly", "ing", "ingly"})
	switch s {
	case "":
		return b
	case "eed", "eedly":
		if len(b)-len(s) >= r1 {
			return replace(b, s, "ee")
		}
		return b
	}
	stem := b[:len(b)-len(s)]
	if !containsVowel(stem) {
		return b
	}
	b = stem
	switch {
	case hasSuffix(b, "at"), hasSuffix(b, "bl"), hasSuffix(b, "iz"):
		return append(b, 'e')
	case len(b) >= 2 && b[len(b)-1] == b[len(b)-2] && strings.IndexByte("bdfgmnprt", b[len(b)-1]) >= 0:
		return b[:len(b)-1]
	case r1 >= len(b) && shortSyllable(b):
		return append(b, 'e')
	}
	return b
}

func step1c(b []byte) []byte {
	n := len(b)
	if n > 2 && (b[n-1] == 'y' || b[n-1] == 'Y') && !isVowel(b[n-2]) {
		b[n-1] = 'i'
	}
	return b
}

var step2Suffixes = []string{
	"tional", "enci", "anci", "abli", "entli", "izer", "ization", "ational", "ation", "ator",
	"alism", "aliti", "alli", "fulness", "ousli", "ousness", "iveness", "iviti", "biliti", "bli",
	"ogi", "fulli", "lessli", "li",
}

var step2Map = map[string]string{
	"tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent",
	"izer": "ize", "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate",
	"alism": "al", "aliti": "al", "alli": "al", "fulness": "ful", "ousli": "ous", "ousness": "ous",
	"iveness": "ive", "iviti": "ive", "biliti": "ble", "bli": "ble", "fulli": "ful", "lessli": "less",
}

func step2(b []byte, r1 int) []byte {
	s := longest(b, step2Suffixes)
	if s == "" || len(b)-len(s) < r1 {
		return b
	}
	switch s {
	case "ogi":
		if len(b) > 3 && b[len(b)-4] == 'l' {
			return replace(b, s, "og")
		}
		return b
	case "li":
		if len(b) > 2 && strings.IndexByte("cdeghkmnrt", b[len(b)-3]) >= 0 {
			return b[:len(b)-2]
		}
		return b
	}
	return replace(b, s, step2Map[s])
}

var step3Suffixes = []string{"tional", "ational", "alize", "icate", "iciti", "ical", "ful", "ness", "ative"}

func step3(b []byte, r1, r2 int) []byte {
	s := longest(b, step3Suffixes)
	if s == "" || len(b)-len(s) < r1 {
		return b
	}
	switch s {
	case "tional":
		return replace(b, s, "tion")
	case "ational":
		return replace(b, s, "ate")
	case "alize":
		return replace(b, s, "al")
	case "icate", "iciti", "ical":
		return replace(b, s, "ic")
	case "ative":
		if len(b)-len(s) >= r2 {
			return b[:len(b)-len(s)]
		}
		return b
	}
	return b[:len(b)-len(s)] // ful, ness
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ism", "ate", "iti", "ous", "ive", "ize", "ion",
}

func step4(b []byte, r2 int) []byte {
	s := longest(b, step4Suffixes)
	if s == "" || len(b)-len(s) < r2 {
		return b
	}
	if s == "ion" {
		if n := len(b) - 3; n > 0 && (b[n-1] == 's' || b[n-1] == 't') {
			return b[:n]
		}
		return b
	}
	return b[:len(b)-len(s)]
}

func step5(b []byte, r1, r2 int) []byte {
	n := len(b)
	switch {
	case n > 0 && b[n-1] == 'e':
		if n-1 >= r2 || n-1 >= r1 && !shortSyllable(b[:n-1]) {
			return b[:n-1]
		}
	case n > 1 && b[n-1] == 'l' && b[n-2] == 'l' && n-1 >= r2:
		return b[:n-1]
	}
	return b
}
