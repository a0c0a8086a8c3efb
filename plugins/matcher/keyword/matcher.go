package keyword

import (
	"cmp"
	"runtime"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// matcher is the built-in keyword core.Matcher (spec 000 §5). Its zero value
// is ready to use.
type matcher struct{}

var _ core.Matcher = (*matcher)(nil)

// New returns a keyword matcher.
func New() core.Matcher { return &matcher{} }

// Build prepares a Searcher over a copy of entries: every keyword is
// lowercased once into a shared vocabulary that knows which entries use it, so
// that a search touches only the keywords its tokens match and the entries
// that declare them. Entries are kept in path order (ties in the order given),
// the order Search returns equal scores in. entries is neither modified nor
// retained.
func (*matcher) Build(entries []core.MatchEntry) core.Searcher {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(entries[a].Path, entries[b].Path) })
	s := &searcher{entries: make([]entry, len(entries)), vocab: newVocab()}
	for r, i := range order {
		e := entries[i]
		keywords := e.Keywords
		if len(keywords) == 0 {
			keywords = DeriveKeywords(e.Name, e.Description)
		}
		start := int32(len(s.words))
		for _, kw := range keywords {
			id := s.vocab.add(strings.ToLower(kw))
			if int(id) == len(s.users) {
				s.users = append(s.users, nil)
			}
			s.users[id] = append(s.users[id], int32(r))
			s.words = append(s.words, id)
		}
		s.entries[r] = entry{path: e.Path, priority: e.Priority, start: start, end: int32(len(s.words))}
	}
	s.vocab.freeze()
	s.free = make(chan *scratch, 2*runtime.GOMAXPROCS(0))
	return s
}

// searcher answers keyword queries over one index snapshot. It is immutable
// after Build and safe for concurrent use.
type searcher struct {
	entries []entry   // in path order, ties in the order given to Build
	words   []int32   // the keywords of every entry as vocabulary ids, entry after entry
	users   [][]int32 // vocabulary id → entries declaring the keyword, ascending, once per declaration
	vocab   *vocab
	// free holds scratch states for reuse. Unlike a sync.Pool it is not
	// emptied by every garbage collection, which under a stream of broad
	// searches would make most searches allocate a fresh state.
	free chan *scratch
}

var _ core.TopSearcher = (*searcher)(nil)

// entry is one skill: its keywords are words[start:end], vocabulary ids in
// declaration order (all entries' ids lie in one slice, in entry order, so
// that reading the keywords of many entries walks memory forward).
type entry struct {
	path       string
	priority   float64
	start, end int32
}

// scratch holds the state of one search. Between searches the marks are all
// false and the buffers empty.
type scratch struct {
	word     []bool  // keywords matched
	words    []int32 // ids marked in word
	count    []int32 // entry → keywords matched
	hits     []hit   // entries collected, then sorted
	sorted   []hit
	buckets  []bucket    // one per distinct score
	bucketOf scoreBucket // score → bucket
	order    []int32     // buckets by score descending
}

// hit is one entry that matched: how many keywords matched, its score and
// the bucket of its score.
type hit struct {
	score   float64
	entry   int32
	matched int32
	bucket  int32
}

// bucket gathers the hits of one score (scores equal under cmp.Compare).
type bucket struct {
	score float64
	count int32 // hits with this score; then the next free slot of the bucket
}

// Search tokenizes context and returns every entry with at least one matched
// keyword, scored as referenceScore does, sorted by score descending then path
// ascending. A context with no tokens (empty, or only stop words) matches
// nothing. The answer is the plain algorithm's, keyword for keyword and bit for
// bit; only the work differs: the tokens find their keywords through the
// vocabulary, only the entries declaring those are scored, and as entries are
// stored in path order, sorting is a stable grouping by score.
func (s *searcher) Search(context string) []core.Match {
	tokens := Tokenize(context)
	if len(tokens) == 0 || len(s.entries) == 0 {
		return nil
	}
	sc := s.acquire()
	defer s.release(sc)
	s.scoreHits(sc, tokens)
	if len(sc.hits) == 0 {
		return nil
	}
	return s.matches(sc, sortByScore(sc))
}

// maxSelect is the largest limit SearchTop picks its matches for by keeping
// the best seen so far; above it, it sorts every hit as Search does.
const maxSelect = 16

// SearchTop implements core.TopSearcher: it returns what Search would,
// filtered to the scores >= minScore and cut to the first limit (all when
// limit < 0), together with the number of matches reaching minScore. It scores
// the same hits as Search but builds a core.Match, and its matched keywords,
// only for the matches it returns, so a broad context over a large index
// allocates only the answer. For a small limit it does not sort the hits: one
// pass in path order keeps the best limit of them.
func (s *searcher) SearchTop(context string, minScore float64, limit int) (top []core.Match, kept int) {
	tokens := Tokenize(context)
	if len(tokens) == 0 || len(s.entries) == 0 {
		return nil, 0
	}
	sc := s.acquire()
	defer s.release(sc)
	s.scoreHits(sc, tokens)
	for i := range sc.hits {
		if sc.hits[i].score >= minScore {
			kept++
		}
	}
	if kept == 0 || limit == 0 {
		return nil, kept
	}
	if limit < 0 || limit > maxSelect {
		return s.matches(sc, firstReaching(sortByScore(sc), minScore, limit)), kept
	}
	return s.matches(sc, selectBest(sc, minScore, limit)), kept
}

// scoreHits fills sc.hits with the entries declaring a keyword one of tokens
// matches, in path order, and scores them.
func (s *searcher) scoreHits(sc *scratch, tokens []string) {
	mark := func(id int32) {
		if !sc.word[id] {
			sc.word[id] = true
			sc.words = append(sc.words, id)
		}
	}
	for _, tok := range tokens {
		s.vocab.matches(tok, mark)
	}
	s.collect(sc)
	for i := range sc.hits {
		h := &sc.hits[i]
		e := &s.entries[h.entry]
		h.score = finalScore(int(h.matched), int(e.end-e.start), e.priority)
	}
}

// matches builds the core.Match of each of hits, in order, with its matched
// keywords: two allocations whatever the number of hits.
func (s *searcher) matches(sc *scratch, hits []hit) []core.Match {
	total := 0
	for _, h := range hits {
		total += int(h.matched)
	}
	matched := make([]string, total)
	out := make([]core.Match, len(hits))
	next := 0
	for i, h := range hits {
		e := &s.entries[h.entry]
		kws := matched[next : next : next+int(h.matched)]
		next += int(h.matched)
		for _, id := range s.words[e.start:e.end] {
			if sc.word[id] {
				kws = append(kws, s.vocab.words[id])
			}
		}
		out[i] = core.Match{Path: e.path, Score: h.score, MatchedKeywords: kws}
	}
	return out
}

// firstReaching filters sorted in place to its first limit hits (all when
// limit < 0) scoring >= minScore.
func firstReaching(sorted []hit, minScore float64, limit int) []hit {
	out := sorted[:0]
	for _, h := range sorted {
		if h.score >= minScore {
			out = append(out, h)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// selectBest returns, in Search order, the first limit (> 0) hits scoring >=
// minScore, without sorting them all: sc.hits is read once, in path order,
// keeping the best limit seen so far in sc.sorted, where a hit goes after
// every kept one that scores at least as much (so equal scores stay in path
// order). Kept scores are never NaN (NaN >= minScore is false), so plain
// comparisons order them as cmp.Compare does, -0 equal to 0.
func selectBest(sc *scratch, minScore float64, limit int) []hit {
	best := sc.sorted[:0]
	for _, h := range sc.hits {
		if !(h.score >= minScore) {
			continue
		}
		if len(best) == limit {
			if !(h.score > best[limit-1].score) {
				continue
			}
			best = best[:limit-1]
		}
		i := len(best)
		for i > 0 && best[i-1].score < h.score {
			i--
		}
		best = append(best, hit{})
		copy(best[i+1:], best[i:])
		best[i] = h
	}
	sc.sorted = best
	return best
}

// collect gathers into sc.hits, in entry (path) order, every entry declaring
// a marked keyword with the number of its keywords marked (a keyword declared
// twice counts twice), and leaves sc.count all zero.
func (s *searcher) collect(sc *scratch) {
	for _, id := range sc.words {
		for _, e := range s.users[id] {
			if sc.count[e] == 0 {
				sc.hits = append(sc.hits, hit{entry: e})
			}
			sc.count[e]++
		}
	}
	if len(sc.hits) > len(s.entries)/32 {
		// Many hits: reading the counts in order is cheaper than sorting.
		sc.hits = sc.hits[:0]
		for e, n := range sc.count {
			if n > 0 {
				sc.count[e] = 0
				sc.hits = append(sc.hits, hit{entry: int32(e), matched: n})
			}
		}
		return
	}
	for i := range sc.hits {
		h := &sc.hits[i]
		h.matched, sc.count[h.entry] = sc.count[h.entry], 0
	}
	slices.SortFunc(sc.hits, func(a, b hit) int { return cmp.Compare(a.entry, b.entry) })
}

// sortByScore orders sc.hits, already in path order, by score descending,
// keeping path order among equal scores (scores compared as cmp.Compare does,
// so -0 equals 0 and NaN sorts last, as in the plain algorithm). Scores take
// few distinct values, so the hits are grouped by score, not compared with
// each other.
func sortByScore(sc *scratch) []hit {
	sc.bucketOf.reset(len(sc.hits))
	for i := range sc.hits {
		h := &sc.hits[i]
		b, added := sc.bucketOf.find(h.score, int32(len(sc.buckets)))
		if added {
			sc.buckets = append(sc.buckets, bucket{score: h.score})
		}
		h.bucket = b
		sc.buckets[b].count++
	}
	order := sc.order[:0]
	for i := range sc.buckets {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(sc.buckets[b].score, sc.buckets[a].score) })
	sc.order = order
	next := int32(0)
	for _, b := range order {
		next, sc.buckets[b].count = next+sc.buckets[b].count, next
	}
	sc.sorted = slices.Grow(sc.sorted[:0], len(sc.hits))[:len(sc.hits)]
	for _, h := range sc.hits {
		b := &sc.buckets[h.bucket]
		sc.sorted[b.count] = h
		b.count++
	}
	return sc.sorted
}

// acquire returns a free scratch state, or a new one.
func (s *searcher) acquire() *scratch {
	select {
	case sc := <-s.free:
		return sc
	default:
		return &scratch{word: make([]bool, len(s.vocab.words)), count: make([]int32, len(s.entries))}
	}
}

// release clears the marks of sc and keeps it for reuse (or drops it when
// enough are kept).
func (s *searcher) release(sc *scratch) {
	for _, id := range sc.words {
		sc.word[id] = false
	}
	sc.words, sc.hits, sc.sorted, sc.buckets = sc.words[:0], sc.hits[:0], sc.sorted[:0], sc.buckets[:0]
	select {
	case s.free <- sc:
	default:
	}
}

// DeriveKeywords gives a skill that declares no keywords (an Agent Skills
// folder) the tokens of its name, hyphens split, then of its description.
func DeriveKeywords(name, description string) []string {
	return Tokenize(strings.ReplaceAll(name, "-", " ") + " " + description)
}
