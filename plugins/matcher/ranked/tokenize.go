package ranked

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenize returns the terms of s in order, repeats kept: words split at
// anything but a letter or digit and between camelCase words, folded
// (lowercase, NFKD without combining marks, so ＰＤＦ and pdf, café and
// cafe are one term), stop words dropped and the rest stemmed.
func Tokenize(s string) []string {
	var out []string
	eachWord(s, func(w string) {
		if _, stop := stopwords[w]; !stop {
			out = append(out, Stem(w))
		}
	})
	return out
}

// words returns the folded words of s, stop words kept and nothing stemmed:
// the form exact name and path hits compare.
func words(s string) []string {
	var out []string
	eachWord(s, func(w string) { out = append(out, w) })
	return out
}

// fold returns s without accents and width or compatibility variants.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	d := norm.NFKD.String(strings.ToValidUTF8(s, " "))
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
}

// eachWord calls f with each lowercased word of fold(s), split at runs of
// non-letters-or-digits and at camelCase boundaries (aB, and ABc before the
// B), letters and digits kept together (k8s, mp4).
func eachWord(s string, f func(string)) {
	s = fold(s)
	start := -1 // byte offset of the current word in s
	var prev rune
	emit := func(end int) {
		if start >= 0 && end > start {
			f(strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			emit(i)
			prev = 0
			continue
		}
		if start < 0 {
			start = i
		} else if unicode.IsUpper(r) && unicode.IsLower(prev) {
			emit(i)
			start = i
		} else if unicode.IsLower(r) && unicode.IsUpper(prev) && i-start > utf8.RuneLen(prev) {
			// "HTMLParser": the P starts a new word.
			at := i - utf8.RuneLen(prev)
			emit(at)
			start = at
		}
		prev = r
	}
	emit(len(s))
}

// Stem strips an English plural or -ing/-ed ending, the -ment, -ation and
// -ization of a noun made from a verb, and a final e, so that "forms"/"form",
// "deploying"/"deployed"/"deployment"/"deploy", "queries"/"query",
// "validation"/"validate", "optimization"/"optimize" and "writing"/"write" meet. Stems keep at least three letters; words with a
// character outside a-z are left as they are.
func Stem(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	if len(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	switch { // derivations that name the same action: deployment/deploy, validation/validate, optimization/optimize
	case strings.HasSuffix(w, "ment") && len(w) >= 8:
		w = w[:len(w)-4]
	case strings.HasSuffix(w, "ization") && len(w) >= 10:
		w = w[:len(w)-5]
	case strings.HasSuffix(w, "ation") && len(w) >= 8:
		w = w[:len(w)-3]
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops one of a doubled final consonant (runn → run), except l, s and z.
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}
