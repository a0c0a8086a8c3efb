package server

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"
)

// bodyWords keeps every body of a searchIndex as the sequence of its words as
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
}

// bytes is the memory bw holds, for reports.
func (bw *bodyWords) bytes() int {
	return len(bw.text) + 4*len(bw.at) + 4*len(bw.fold) + len(bw.seq) + 4*len(bw.seqAt)
}

// bodyWordsBuilder collects bodyWords, one skill after the other.
type bodyWordsBuilder struct {
	ids  map[string]int32
	text []byte
	w    bodyWords
}

// startSkill begins the body of the next skill.
func (b *bodyWordsBuilder) startSkill() { b.w.seqAt = append(b.w.seqAt, int32(len(b.w.seq))) }

// add appends word raw, whose folded form is vocabulary word folded, to the
// body being built.
func (b *bodyWordsBuilder) add(raw []byte, folded int32) {
	if b.ids == nil {
		b.ids = map[string]int32{}
	}
	id, ok := b.ids[string(raw)]
	if !ok {
		id = int32(len(b.w.fold))
		b.ids[string(raw)] = id
		b.w.at = append(b.w.at, int32(len(b.text)))
		b.text = append(b.text, raw...)
		b.w.fold = append(b.w.fold, folded)
	}
	b.w.seq = binary.AppendUvarint(b.w.seq, uint64(id))
}

// done returns the bodies built, without the builder's spare capacity.
func (b *bodyWordsBuilder) done() bodyWords {
	w := b.w
	w.text = string(b.text)
	w.at = append(w.at, int32(len(b.text)))
	w.seqAt = append(w.seqAt, int32(len(w.seq)))
	w.at, w.fold, w.seqAt = exact(w.at), exact(w.fold), exact(w.seqAt)
	w.seq = append(make([]byte, 0, len(w.seq)), w.seq...)
	*b = bodyWordsBuilder{}
	return w
}

// exact is a copy of s without spare capacity.
func exact(s []int32) []int32 { return append(make([]int32, 0, len(s)), s...) }

// excerpter fills in the shown hits of one query from the index: what
// shownHit does from a body read, with reused buffers.
type excerpter struct {
	tokens []string
	ids    []int32 // the body's words
	folded []byte  // fold(oneLine(body))
	flat   []byte  // the words of oneLine(body) around the excerpt
}

func newExcerpter(tokens []string) *excerpter { return &excerpter{tokens: tokens} }

// hit sets h's score, first token and excerpt from the index's copy of its
// body; TestSearchIndexEqualsReading holds it to shownHit over the body read.
func (e *excerpter) hit(ix *searchIndex, h *rankedHit) {
	w := &ix.bodies
	p := ix.pos[h.skill]
	e.ids, e.folded = e.ids[:0], e.folded[:0]
	for s := w.seq[w.seqAt[p]:w.seqAt[p+1]]; len(s) > 0; {
		v, n := binary.Uvarint(s)
		s = s[n:]
		e.ids = append(e.ids, int32(v))
	}
	for k, id := range e.ids {
		if k > 0 {
			e.folded = append(e.folded, ' ')
		}
		f := w.fold[id]
		e.folded = append(e.folded, ix.vocab[ix.starts[f]:ix.starts[f+1]-1]...)
	}
	hay := fold(strings.Join([]string{installName(h.skill), h.skill.Name, h.skill.Description}, "\n"))
	h.score, h.first = 0, ""
	firstAt := -1
	for _, t := range e.tokens {
		at := bytes.Index(e.folded, []byte(t))
		if at >= 0 && h.first == "" {
			h.first, firstAt = t, at
		}
		if at >= 0 || strings.Contains(hay, t) {
			h.score++
		}
	}
	h.excerpt = e.excerpt(w, h.first, firstAt)
}

// excerpt is excerptFlat(oneLine(body), fold(oneLine(body)), token) given
// the body's words in e.ids and e.folded, and where token first occurs in
// e.folded (-1 for nowhere): only the words of the window are put together.
func (e *excerpter) excerpt(w *bodyWords, token string, at int) string {
	n := utf8.RuneCount(e.folded) // fold keeps the rune count of oneLine(body)
	start := 0
	if token != "" && at > 0 {
		start = utf8.RuneCount(e.folded[:at]) - (excerptRunes-utf8.RuneCountInString(token))/2
	}
	if start > n-excerptRunes {
		start = n - excerptRunes
	}
	if start < 0 {
		start = 0
	}
	end := min(start+excerptRunes, n)
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
	out := strings.TrimSpace(validRunes(string(e.flat[from:to])))
	if start > 0 {
		out = "…" + out
	}
	if end < n {
		out += "…"
	}
	return out
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
