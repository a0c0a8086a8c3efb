package search

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// bodyWords keeps every body of a wordIndex as the sequence of its words as
// written (flatten's words: oneLine(body) is them joined by one space), each
// distinct word once, so that the shown hits' score, first token and excerpt
// come from the index instead of a read of their bodies. A body is a run of
// uvarint word ids; a word also knows its folded form, a word of the index's
// vocabulary, so the folded body is rebuilt from the same ids.
type bodyWords struct {
	text  string  // the distinct words as written, one after the other
	at    []int32 // word r is text[at[r]:at[r+1]]
	fold  []int32 // fold[r]: the vocabulary word of word r folded
	seq   []byte  // every body as uvarint word ids
	seqAt []int32 // the body of the skill at position p is seq[seqAt[p]:seqAt[p+1]]
	runes []int32 // the length of oneLine(body) in runes, per skill
}

// bytes is the memory bw holds, for reports.
func (bw *bodyWords) bytes() int {
	return len(bw.text) + 4*len(bw.at) + 4*len(bw.fold) + len(bw.seq) + 4*len(bw.seqAt) + 4*len(bw.runes)
}

// bodyWordsBuilder collects bodyWords, one skill after the other.
type bodyWordsBuilder struct {
	ids  map[string]int32
	text []byte
	w    bodyWords
}

// startSkill begins the body of the next skill.
func (b *bodyWordsBuilder) startSkill() {
	b.w.seqAt = append(b.w.seqAt, int32(len(b.w.seq)))
	b.w.runes = append(b.w.runes, 0)
}

// known returns the vocabulary word of raw when raw was added before.
func (b *bodyWordsBuilder) known(raw string) (folded int32, ok bool) {
	id, ok := b.ids[raw]
	if !ok {
		return 0, false
	}
	return b.w.fold[id], true
}

// add appends word raw, whose folded form is vocabulary word folded, to the
// body being built.
func (b *bodyWordsBuilder) add(raw string, folded int32) {
	if b.ids == nil {
		b.ids = map[string]int32{}
	}
	id, ok := b.ids[raw]
	if !ok {
		id = int32(len(b.w.fold))
		b.ids[strings.Clone(raw)] = id // not a piece of the body
		b.w.at = append(b.w.at, int32(len(b.text)))
		b.text = append(b.text, raw...)
		b.w.fold = append(b.w.fold, folded)
	}
	b.w.seq = binary.AppendUvarint(b.w.seq, uint64(id))
	n := &b.w.runes[len(b.w.runes)-1]
	if *n > 0 {
		*n++ // the space before
	}
	*n += int32(utf8.RuneCountInString(raw)) // an invalid byte counts one, as U+FFFD in the folded text
}

// done returns the bodies built, without the builder's spare capacity.
func (b *bodyWordsBuilder) done() bodyWords {
	w := b.w
	w.text = string(b.text)
	w.at = append(w.at, int32(len(b.text)))
	w.seqAt = append(w.seqAt, int32(len(w.seq)))
	w.at, w.fold, w.seqAt, w.runes = exact(w.at), exact(w.fold), exact(w.seqAt), exact(w.runes)
	w.seq = append(make([]byte, 0, len(w.seq)), w.seq...)
	*b = bodyWordsBuilder{}
	return w
}

// exact is a copy of s without spare capacity.
func exact(s []int32) []int32 { return append(make([]int32, 0, len(s)), s...) }

// excerpter fills in the shown hits of one query from the index: what the
// reference (tokensFound, excerpt) takes from a body read, with reused buffers.
type excerpter struct {
	tokens []string
	sets   tokenSets // what allTokens found of the tokens
	ids    []int32   // the body's words
	flat   []byte    // the words of oneLine(body) around the excerpt
	folded []byte    // fold(oneLine(body)), built when a token has no word set
	wordAt []int32   // the offset of each word in folded
	built  bool      // whether folded is the body's
}

var excerpters = sync.Pool{New: func() any { return new(excerpter) }}

// newExcerpter returns a pooled excerpter for tokens, given what allTokens
// found of them (or nothing). free puts it back.
func newExcerpter(tokens []string, sets tokenSets) *excerpter {
	e := excerpters.Get().(*excerpter)
	e.tokens, e.sets = tokens, sets
	return e
}

func (e *excerpter) free() {
	e.tokens, e.sets = nil, tokenSets{}
	excerpters.Put(e)
}

// hit sets h's score, first token and excerpt from the index's copy of its
// body; TestBodyWordsEqualReading holds it to the reading reference. A
// token is found in the body by its words: the first word whose folded form
// holds it (a token in a folded text is in one of its words, since it holds
// no white space), told by the token's word set from allTokens, or else
// found in the folded body.
func (e *excerpter) hit(ix *wordIndex, h *Hit) {
	w := &ix.bodies
	p := ix.pos[h.Skill]
	e.ids, e.built = e.ids[:0], false
	for s := w.seq[w.seqAt[p]:w.seqAt[p+1]]; len(s) > 0; {
		v, n := binary.Uvarint(s)
		s = s[n:]
		e.ids = append(e.ids, int32(v))
	}
	hay, haveHay := "", false // fold(install name, name, description), when a token is not in the body
	h.Score, h.first = 0, ""
	start := -1 // rune offset of the first token's first occurrence in oneLine(body)
	for i, t := range e.tokens {
		var holders, words bitset
		if i < len(e.sets.holders) {
			holders, words = e.sets.holders[i], e.sets.words[i]
		}
		if holders != nil && !holders.has(p) {
			continue // in neither the body nor the rest
		}
		var k, r int
		if words != nil {
			k, r = e.wordOffset(ix, words, t)
		} else {
			k, r = e.textOffset(ix, t)
		}
		if k >= 0 {
			if h.first == "" {
				h.first, start = t, e.runesBefore(w, k)+r
			}
			h.Score++
			continue
		}
		if !haveHay {
			hay, haveHay = fold(strings.Join([]string{index.InstallName(h.Skill), h.Skill.Name, h.Skill.Description}, "\n")), true
		}
		if strings.Contains(hay, t) {
			h.Score++
		}
	}
	h.Excerpt = e.excerpt(w, h.first, start, int(w.runes[p]))
}

// wordOffset returns where token t first occurs in the body, given the
// vocabulary words holding it: r runes into word k (k is -1 for nowhere).
func (e *excerpter) wordOffset(ix *wordIndex, words bitset, t string) (k, r int) {
	w := &ix.bodies
	for k, id := range e.ids {
		f := w.fold[id]
		if !words.has(f) {
			continue
		}
		fw := ix.vocab[ix.starts[f] : ix.starts[f+1]-1]
		return k, utf8.RuneCount(fw[:bytes.Index(fw, []byte(t))])
	}
	return -1, 0
}

// runesBefore is the rune offset of word k in oneLine(body): the words
// before it and a space after each.
func (e *excerpter) runesBefore(w *bodyWords, k int) int {
	at := k
	for _, before := range e.ids[:k] {
		at += utf8.RuneCountInString(w.text[w.at[before]:w.at[before+1]])
	}
	return at
}

// textOffset is wordOffset for a token without its word set (a common
// one), in the folded body, built the first time: fold(oneLine(body)) is the
// folded words joined by one space.
func (e *excerpter) textOffset(ix *wordIndex, t string) (k, r int) {
	if !e.built {
		w := &ix.bodies
		e.folded, e.wordAt, e.built = e.folded[:0], e.wordAt[:0], true
		for j, id := range e.ids {
			if j > 0 {
				e.folded = append(e.folded, ' ')
			}
			e.wordAt = append(e.wordAt, int32(len(e.folded)))
			f := w.fold[id]
			e.folded = append(e.folded, ix.vocab[ix.starts[f]:ix.starts[f+1]-1]...)
		}
	}
	at := bytes.Index(e.folded, []byte(t))
	if at < 0 {
		return -1, 0
	}
	k, _ = slices.BinarySearch(e.wordAt, int32(at)) // the word holding at: the last start <= at
	if k == len(e.wordAt) || e.wordAt[k] > int32(at) {
		k--
	}
	return k, utf8.RuneCount(e.folded[e.wordAt[k]:at])
}

// excerpt is excerptFlat(oneLine(body), fold(oneLine(body)), token) given
// the body's words in e.ids, n runes in all, and the rune offset of token's
// first occurrence (-1 for none): only the words of the window are put
// together.
func (e *excerpter) excerpt(w *bodyWords, token string, at, n int) string {
	start := 0
	if token != "" && at > 0 {
		start = at - (ExcerptRunes-utf8.RuneCountInString(token))/2
	}
	if start > n-ExcerptRunes {
		start = n - ExcerptRunes
	}
	if start < 0 {
		start = 0
	}
	end := min(start+ExcerptRunes, n)
	// The words from the one holding rune start (or the space after it) on,
	// until the window's end; base is the rune offset of the first in flat.
	e.flat = e.flat[:0]
	pos, base := 0, -1
	for _, id := range e.ids {
		if pos >= end {
			break
		}
		word := w.text[w.at[id]:w.at[id+1]]
		next := pos + utf8.RuneCountInString(word) + 1 // the next word's offset, after one space
		if base < 0 && next > start {
			base = pos
		}
		if base >= 0 {
			if len(e.flat) > 0 {
				e.flat = append(e.flat, ' ')
			}
			e.flat = append(e.flat, word...)
		}
		pos = next
	}
	from, to := 0, 0
	if base >= 0 {
		from = runeOffsetBytes(e.flat, 0, start-base)
		to = runeOffsetBytes(e.flat, from, end-start)
	}
	// strings.TrimSpace(validRunes(window)) with the ellipses, in one
	// allocation: an invalid byte is not white space, so trimming before
	// validRunes trims the same.
	window := bytes.TrimSpace(e.flat[from:to])
	var out strings.Builder
	out.Grow(len(window) + 2*len("…"))
	if start > 0 {
		out.WriteString("…")
	}
	if utf8.Valid(window) {
		out.Write(window)
	} else {
		for _, r := range string(window) { // an invalid byte as U+FFFD, as string([]rune(s))
			out.WriteRune(r)
		}
	}
	if end < n {
		out.WriteString("…")
	}
	return out.String()
}

// runeOffsetBytes is runeOffset over bytes.
func runeOffsetBytes(s []byte, from, k int) int {
	i := from
	for ; k > 0 && i < len(s); k-- {
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return i
}
