package ranked

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"
)

// tokenize returns the terms of s in order, repeats kept: words split at
// anything but a letter or digit and between camelCase words, folded
// (lowercase, NFKD without combining marks, so ＰＤＦ and pdf, café and
// cafe are one term), stop words dropped and the rest stemmed.
func tokenize(s string) []string {
	var out []string
	eachTerm(s, func(t string) { out = append(out, strings.Clone(t)) })
	return out
}

// eachTerm calls f with each term of s, as tokenize returns them; like
// eachWord's, the string is valid only during the call.
func eachTerm(s string, f func(string)) {
	eachWord(s, func(w string) {
		if !isStop(w) {
			f(stem(w))
		}
	})
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
// B), letters and digits kept together (k8s, mp4). The string f gets may
// live in a buffer reused for the next word: f must copy what it keeps
// (building an index of 10,000 skills then allocates nothing per word).
func eachWord(s string, f func(string)) {
	s = fold(s)
	start := -1 // byte offset of the current word in s
	var prev rune
	var buf [64]byte
	emit := func(end int) {
		if start >= 0 && end > start {
			f(lowerWord(s[start:end], buf[:0]))
		}
		start = -1
	}
	for i, r := range s {
		if !isWordRune(r) {
			emit(i)
			prev = 0
			continue
		}
		if start < 0 {
			start = i
		} else if isUpper(r) && isLower(prev) {
			emit(i)
			start = i
		} else if isLower(r) && isUpper(prev) && i-start > utf8.RuneLen(prev) && !pluralS(s, i, r) {
			// "HTMLParser": the P starts a new word.
			at := i - utf8.RuneLen(prev)
			emit(at)
			start = at
		}
		prev = r
	}
	emit(len(s))
}

// pluralS reports whether r, at byte i of s after capitals, is the s of a
// plural acronym ending the word ("PDFs", "APIs", "TTLs"): not the start
// of a new word ("FAQs" is faq, not fa and qs).
func pluralS(s string, i int, r rune) bool {
	if r != 's' {
		return false
	}
	next, _ := utf8.DecodeRuneInString(s[i+1:])
	return i+1 == len(s) || !isWordRune(next) || isUpper(next)
}

// stem returns the English (Porter2) stem of w, so that "forms"/"form",
// "deploying"/"deployed"/"deployment"/"deploy", "queries"/"query",
// "failing"/"fails"/"failed"/"fail" and "optimization"/"optimize" meet. Words
// with a character outside a-z are left as they are.
func stem(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	return trimDerivation(porter2(acronymPlural(w)))
}

// acronymPlural takes the s off a plural acronym (pdfs, ttls, jwts, llms),
// which Porter2 keeps because no vowel comes before it: four letters or more,
// none of them a vowel but the last s.
func acronymPlural(w string) string {
	if len(w) < 4 || w[len(w)-1] != 's' || strings.ContainsAny(w[:len(w)-1], "aeiouy") {
		return w
	}
	return w[:len(w)-1]
}

// trimDerivation takes off two endings of a noun or verb made from a shorter
// word that Porter2 keeps: -ur after a consonant (failure/fail,
// architecture/architect, configure/config) and -iz (zeroize/zero, which
// Porter2 strips only from longer words), when four letters or more remain;
// and the noun of a verb in -yze, -ysis, meets it (analysis/analyze, and the
// British analyse).
func trimDerivation(s string) string {
	n := len(s)
	// analysis/analyses/analyse → analyz, as analyze and analyzer.
	if strings.HasSuffix(s, "lysi") {
		return s[:n-2] + "z"
	}
	if strings.HasSuffix(s, "lys") {
		return s[:n-1] + "z"
	}
	if n >= 6 && (s[n-2:] == "ur" && !isVowel(s[n-3]) || s[n-2:] == "iz") {
		return s[:n-2]
	}
	return s
}

// isWordRune reports whether r belongs to a word: a letter or a digit.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}

// lowerWord returns w lowercased: w itself when it has no uppercase letter,
// else a string over buf (when w is ASCII and fits) or a new one.
func lowerWord(w string, buf []byte) string {
	upper := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(w)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return w
	}
	if len(w) > cap(buf) {
		return strings.ToLower(w)
	}
	buf = buf[:len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return unsafe.String(&buf[0], len(buf))
}
