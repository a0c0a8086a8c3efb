package search

import (
	"context"
	"index/suffixarray"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// wordIndex answers skills_search's literal rule (every folded query token
// in the folded install name, name, description or body) for one snapshot
// without reading a body per query. It is built once per snapshot, the first
// time skills_search asks, from one read of every body.
//
// A token is whitespace-free (strings.Fields of the folded query), and folded
// text is valid UTF-8, so a token occurs in a skill's folded text exactly when
// it occurs in one of that text's whitespace-separated words. The index keeps
// the distinct words of every skill once, joined by newlines into one string
// that a token is searched in, and for each word the skills holding it.
type wordIndex struct {
	snap   *index.Snapshot
	order  []*core.Skill // every skill by install name (sortByInstallName)
	pos    map[*core.Skill]int32
	vocab  []byte             // "\n" + word + "\n" + word ... + "\n" (the suffix array's own copy)
	sa     *suffixarray.Index // over vocab: where a token occurs in it
	starts []int32            // starts[w]: offset of word w in vocab; then len(vocab)
	post   postings           // the skills of each word
	words  int                // number of words
	bodies bodyWords          // every body's words as they are written, for the shown hits' excerpts
	err    error              // a body that could not be read: searches fall back to reading them
}

// buildWordIndex reads every body of snap once and indexes the words of
// every skill's folded text.
func buildWordIndex(snap *index.Snapshot) *wordIndex {
	order := snap.Skills()
	index.SortByInstallName(order)
	ix := &wordIndex{snap: snap, order: order, pos: make(map[*core.Skill]int32, len(order))}
	b := indexBuilder{ids: map[string]int32{}}
	b.vocab.WriteByte('\n')
	for i, sk := range order {
		ix.pos[sk] = int32(i)
		body, err := snap.ReadBody(sk)
		if err != nil {
			ix.err = err
			return ix
		}
		for _, text := range [...]string{index.InstallName(sk), sk.Name, sk.Description} {
			b.add(text, int32(i))
		}
		b.addBody(body, int32(i))
	}
	ix.bodies = b.body.done()
	ix.sa = suffixarray.New([]byte(b.vocab.String()))
	ix.vocab = ix.sa.Bytes()
	ix.words = len(b.lists)
	ix.starts = exact(append(b.starts, int32(len(ix.vocab))))
	ix.post = newPostings(b.lists, len(order))
	return ix
}

// indexBuilder collects the distinct words of the skills and who holds them.
type indexBuilder struct {
	ids    map[string]int32
	lists  [][]int32 // per word, the skills holding it, ascending
	starts []int32
	vocab  strings.Builder
	word   []byte // the word being read, folded
	body   bodyWordsBuilder
}

// add records the words of fold(text) for skill i: strings.Fields(fold(text))
// without allocating per word (fold maps an invalid byte to U+FFFD, as
// ranging over the string yields it).
func (b *indexBuilder) add(text string, i int32) {
	b.word = b.word[:0]
	for _, r := range text {
		r = unicode.ToLower(r)
		if unicode.IsSpace(r) {
			b.flush(i)
			continue
		}
		b.word = utf8.AppendRune(b.word, r)
	}
	b.flush(i)
}

// addBody is add for a body, which also keeps the body's words as written
// (split where flatten splits: unicode.IsSpace of the rune, which is
// unicode.IsSpace of its lower case for every rune) in b.body. A word met
// before is not folded again: its vocabulary word is known.
func (b *indexBuilder) addBody(body string, i int32) {
	b.body.startSkill()
	from := -1 // where the word being read starts
	end := func(to int) {
		if from < 0 {
			return
		}
		raw := body[from:to]
		from = -1
		if f, ok := b.body.known(raw); ok {
			b.post(f, i)
			b.body.add(raw, f)
			return
		}
		b.word = b.word[:0]
		for _, r := range raw { // an invalid byte is RuneError
			b.word = utf8.AppendRune(b.word, unicode.ToLower(r))
		}
		b.body.add(raw, b.flush(i))
	}
	for k := 0; k < len(body); {
		c, size := rune(body[k]), 1
		space := c < utf8.RuneSelf && asciiSpace[c]
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(body[k:]) // an invalid byte is RuneError of size 1
			space = unicode.IsSpace(c)
		}
		if space {
			end(k)
		} else if from < 0 {
			from = k
		}
		k += size
	}
	end(len(body))
}

// post records that skill i holds vocabulary word id.
func (b *indexBuilder) post(id, i int32) {
	if l := b.lists[id]; len(l) == 0 || l[len(l)-1] != i {
		b.lists[id] = append(l, i)
	}
}

// flush records the word read so far, if any, for skill i, and returns its
// id (-1 for none).
func (b *indexBuilder) flush(i int32) int32 {
	if len(b.word) == 0 {
		return -1
	}
	id, ok := b.ids[string(b.word)]
	if !ok {
		id = int32(len(b.lists))
		b.starts = append(b.starts, int32(b.vocab.Len()))
		b.vocab.Write(b.word)
		b.vocab.WriteByte('\n')
		b.ids[string(b.word)] = id
		b.lists = append(b.lists, nil)
	}
	b.post(id, i)
	b.word = b.word[:0]
	return id
}

// bitset is a set of skill positions.
type bitset []uint64

func newBitset(n int) bitset      { return make(bitset, (n+63)/64) }
func (b bitset) set(i int32)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) has(i int32) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitset) and(o bitset) {
	for i := range b {
		b[i] &= o[i]
	}
}

// empty reports whether b has no member.
func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// each calls f with every member, in increasing order, until f returns false.
func (b bitset) each(f func(i int32) bool) {
	for w, word := range b {
		for word != 0 {
			if !f(int32(w*64 + bits.TrailingZeros64(word))) {
				return
			}
			word &= word - 1
		}
	}
}

// allTokens returns the set of skills holding every token. A token inside
// another (a in add, it in with) is left out: every skill holding the other
// holds it. The others are taken rarest first (fewest occurrences in the
// vocabulary, counted up to lookupCap; those with more last, longest first),
// and once no skill is left the others are not looked at, nor all the
// occurrences of a common one looked up. The sets found on the way are
// returned too, for the shown hits.
//
// It stops when ctx ends, with ctx's error.
func (ix *wordIndex) allTokens(ctx context.Context, tokens []string, a *bitsets) (all bitset, found tokenSets, err error) {
	type token struct {
		i    int    // its index in tokens
		text string // tokens[i]
		occ  []int  // its occurrences in vocab, all of them unless capped
	}
	found = tokenSets{holders: make([]bitset, len(tokens)), words: make([]bitset, len(tokens))}
	var ts []token
	for _, i := range outerTokens(tokens) {
		if err := ctx.Err(); err != nil {
			return nil, found, err
		}
		ts = append(ts, token{i, tokens[i], ix.sa.Lookup([]byte(tokens[i]), lookupCap)})
	}
	capped := func(t token) bool { return len(t.occ) >= lookupCap }
	slices.SortStableFunc(ts, func(a, b token) int {
		if capped(a) && capped(b) {
			return len(b.text) - len(a.text)
		}
		return len(a.occ) - len(b.occ)
	})
	var set bitset
	for k, t := range ts {
		if err := ctx.Err(); err != nil {
			return nil, found, err
		}
		if set != nil && set.empty() {
			// No skill left: the rest only get their words when they are
			// few (for the shown hits' excerpts).
			for _, t := range ts[k:] {
				if !capped(t) {
					found.words[t.i] = ix.wordsAt(t.occ, a)
				}
			}
			break
		}
		if capped(t) {
			t.occ = ix.sa.Lookup([]byte(t.text), -1)
		}
		words, h := ix.wordsAt(t.occ, a), a.get(len(ix.order))
		words.each(func(w int32) bool {
			ix.post.addTo(h, w)
			return true
		})
		found.holders[t.i], found.words[t.i] = h, words
		if set == nil {
			set = a.get(len(ix.order))
			copy(set, h)
		} else {
			set.and(h)
		}
	}
	return set, found, nil
}

// wordsAt returns the set of vocabulary words holding the offsets occ.
func (ix *wordIndex) wordsAt(occ []int, a *bitsets) bitset {
	words := a.get(ix.words)
	for _, off := range occ {
		// the word holding offset off: the last start <= off
		if w := sort.Search(ix.words, func(k int) bool { return int(ix.starts[k]) > off }) - 1; w >= 0 {
			words.set(int32(w))
		}
	}
	return words
}

// tokenSets are, for the tokens of a query that allTokens looked at, the
// skills holding each (in any field; nil for a token not needed to find the
// skills holding every token) and the vocabulary words holding it (nil for a
// token inside another, or a common one not needed).
type tokenSets struct {
	holders []bitset
	words   []bitset
}

// lookupCap bounds the occurrences of a token looked up to order the tokens
// of a query: a token with more is common, looked up in full only if the
// rarer ones leave some skill.
const lookupCap = 256

// hits is skills_search over the index: the skills the matcher ranks first
// (its order), then the others holding every token by install name. It
// returns the first limit hits, their excerpts from the index's copy of
// their bodies' words (no body is read), and how many there are in all.
//
// It stops when ctx ends, with ctx's error.
func (ix *wordIndex) hits(ctx context.Context, query string, tokens []string, limit int) ([]Hit, int, error) {
	a := getBitsets()
	defer a.free()
	all, found, err := ix.allTokens(ctx, tokens, a)
	if err != nil {
		return nil, 0, err
	}
	ranked, shown, total, ok := ix.rankedTop(query, limit, all, a)
	if !ok {
		if ranked, shown, total, err = ix.rankedAll(ctx, query, limit, a); err != nil {
			return nil, 0, err
		}
	}
	all.each(func(p int32) bool {
		if !ranked.has(p) {
			total++
			if len(shown) < limit {
				shown = append(shown, Hit{Skill: ix.order[p]})
			}
		}
		return true
	})
	ex := newExcerpter(tokens, found)
	defer ex.free()
	for i := range shown {
		ex.hit(ix, &shown[i])
	}
	return shown, total, nil
}

// rankedTop asks the matcher for its first limit matches only, which is
// enough when every skill holding every token is among them (or there is
// none): then whether such a skill is ranked is known without the rest. ok is
// false when it is not enough. (A match whose score is NaN, which only the
// keyword matcher gives, for a NaN priority, is not counted by SearchTop.)
func (ix *wordIndex) rankedTop(query string, limit int, all bitset, a *bitsets) (ranked bitset, shown []Hit, n int, ok bool) {
	ts, isTop := ix.snap.Searcher().(core.TopSearcher)
	if !isTop {
		return nil, nil, 0, false
	}
	top, n := ts.SearchTop(query, math.Inf(-1), limit)
	ranked = a.get(len(ix.order))
	if len(top) > 0 {
		shown = make([]Hit, 0, limit)
	}
	for _, m := range top {
		sk, found := ix.snap.Get(m.Path)
		p, known := ix.pos[sk]
		if !found || !known || ranked.has(p) {
			return nil, nil, 0, false // not a skill of this snapshot, or twice: the reference path decides
		}
		ranked.set(p)
		shown = append(shown, Hit{Skill: sk})
	}
	if n > len(top) {
		ok = true
		all.each(func(p int32) bool {
			ok = ranked.has(p)
			return ok
		})
		if !ok {
			return nil, nil, 0, false
		}
	}
	return ranked, shown, n, true
}

// rankedAll is every match of the matcher: the set, the first limit of them
// and how many. It stops when ctx ends, with ctx's error.
func (ix *wordIndex) rankedAll(ctx context.Context, query string, limit int, a *bitsets) (ranked bitset, shown []Hit, n int, err error) {
	ranked = a.get(len(ix.order))
	for k, m := range ix.snap.Searcher().Search(query) {
		if k%ctxCheckEvery == 0 && ctx.Err() != nil {
			return nil, nil, 0, ctx.Err()
		}
		sk, ok := ix.snap.Get(m.Path)
		if !ok {
			continue
		}
		p, ok := ix.pos[sk]
		if !ok || ranked.has(p) {
			continue
		}
		ranked.set(p)
		n++
		if len(shown) < limit {
			shown = append(shown, Hit{Skill: sk})
		}
	}
	return ranked, shown, n, nil
}

// search is hits, or when the index could not be built the reference
// searchHits, which reads every body.
func (ix *wordIndex) search(ctx context.Context, query string, tokens []string, limit int) ([]Hit, int, error) {
	if ix.err == nil {
		return ix.hits(ctx, query, tokens, limit)
	}
	all, err := searchHits(ctx, ix.snap, query, tokens)
	if err != nil {
		return nil, 0, err
	}
	shown := all[:min(limit, len(all))]
	for i := range shown {
		flat, folded := flatten(shown[i].body)
		shown[i].Excerpt, shown[i].body = excerptFlat(flat, folded, shown[i].first), ""
	}
	return shown, len(all), nil
}
