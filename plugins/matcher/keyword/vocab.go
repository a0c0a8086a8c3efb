package keyword

import (
	"index/suffixarray"
	"sort"
	"strings"
	"unicode/utf8"
)

// vocab is the set of distinct lowercased keywords of one Searcher, each with
// an id, indexed so that every keyword a token matches under the §5.2 rule is
// found without comparing the token with every keyword:
//
//   - equal: a map lookup;
//   - token contains keyword: a lookup of every substring of the token that
//     has at least shortLen runes (a keyword found inside a valid UTF-8 token
//     always starts and ends on rune boundaries);
//   - keyword contains token: a suffix array over the long keywords, joined
//     by NUL bytes (tokens never hold a NUL, so no occurrence straddles two
//     keywords).
//
// Keywords the suffix array cannot hold (invalid UTF-8 or a NUL byte, which
// lowercasing and YAML make all but impossible) are kept apart and compared
// with each token by the plain rule.
type vocab struct {
	words []string         // id → lowercased keyword
	short []bool           // id → fewer than shortLen runes
	ids   map[string]int32 // lowercased keyword → id
	// maxLong is the byte length of the longest long keyword: no substring of
	// a token longer than that can be one.
	maxLong int
	// sa indexes joined: the long keywords of saIDs, each followed by a NUL.
	sa      *suffixarray.Index
	saStart []int32 // offset in joined of each keyword of saIDs, ascending
	saIDs   []int32
	odd     []int32 // long keywords compared by the plain rule
}

// newVocab returns an empty vocabulary ready for add.
func newVocab() *vocab { return &vocab{ids: map[string]int32{}} }

// add returns the id of the lowercased keyword w, adding it when new.
func (v *vocab) add(w string) int32 {
	if id, ok := v.ids[w]; ok {
		return id
	}
	id := int32(len(v.words))
	v.ids[w] = id
	v.words = append(v.words, w)
	v.short = append(v.short, utf8.RuneCountInString(w) < shortLen)
	return id
}

// freeze builds the substring indexes once every keyword is added.
func (v *vocab) freeze() {
	var joined strings.Builder
	for id, w := range v.words {
		if v.short[id] {
			continue
		}
		if !utf8.ValidString(w) || strings.IndexByte(w, 0) >= 0 {
			v.odd = append(v.odd, int32(id))
			continue
		}
		v.maxLong = max(v.maxLong, len(w))
		v.saStart = append(v.saStart, int32(joined.Len()))
		v.saIDs = append(v.saIDs, int32(id))
		joined.WriteString(w)
		joined.WriteByte(0)
	}
	v.sa = suffixarray.New([]byte(joined.String()))
}

// matches calls hit with the id of every keyword tok matches (spec 000 §5.2);
// an id may be reported more than once. tok is a token from Tokenize.
func (v *vocab) matches(tok string, hit func(id int32)) {
	if id, ok := v.ids[tok]; ok {
		hit(id)
	}
	if utf8.RuneCountInString(tok) < shortLen {
		return // a short token matches only an identical keyword
	}
	if !utf8.ValidString(tok) {
		v.plainMatches(tok, hit) // never from Tokenize, but Search must stay exact
		return
	}
	v.keywordsInToken(tok, hit)
	v.keywordsAroundToken(tok, hit)
	for _, id := range v.odd {
		if w := v.words[id]; strings.Contains(tok, w) || strings.Contains(w, tok) {
			hit(id)
		}
	}
}

// keywordsInToken reports the long keywords that are substrings of tok: every
// run of at least shortLen runes and at most maxLong bytes is looked up.
func (v *vocab) keywordsInToken(tok string, hit func(id int32)) {
	for i := 0; i < len(tok); {
		_, size := utf8.DecodeRuneInString(tok[i:])
		end, runes := i, 0
		for end < len(tok) && end-i <= v.maxLong {
			_, n := utf8.DecodeRuneInString(tok[end:])
			end += n
			runes++
			if runes < shortLen || end-i > v.maxLong {
				continue
			}
			if id, ok := v.ids[tok[i:end]]; ok && !v.short[id] {
				hit(id)
			}
		}
		i += size
	}
}

// keywordsAroundToken reports the long keywords tok is a substring of.
func (v *vocab) keywordsAroundToken(tok string, hit func(id int32)) {
	if len(tok) > v.maxLong {
		return
	}
	for _, off := range v.sa.Lookup([]byte(tok), -1) {
		k := sort.Search(len(v.saStart), func(k int) bool { return int(v.saStart[k]) > off }) - 1
		hit(v.saIDs[k])
	}
}

// plainMatches compares tok with every keyword by the plain rule.
func (v *vocab) plainMatches(tok string, hit func(id int32)) {
	for id, w := range v.words {
		if tokenMatches(tok, w) {
			hit(int32(id))
		}
	}
}
