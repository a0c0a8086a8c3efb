package keyword

import (
	"cmp"
	"runtime"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// Matcher is the built-in keyword core.Matcher (spec 000 §5). Its zero value
// is ready to use.
type Matcher struct{}

var _ core.Matcher = (*Matcher)(nil)

// New returns a keyword Matcher.
func New() *Matcher { return &Matcher{} }

// Build prepares a Searcher over a copy of entries: every keyword is
// lowercased once into a shared vocabulary that knows which entries use it, so
// that a search touches only the keywords its tokens match and the entries
// that declare them. Entries are kept in path order (ties in the order given),
// the order Search returns equal scores in. entries is neither modified nor
// retained.
func (*Matcher) Build(entries []core.MatchEntry) core.Searcher {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(entries[a].Path, entries[b].Path) })
	s := &Searcher{entries: make([]entry, len(entries)), vocab: newVocab()}
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

// Searcher answers keyword queries over one index snapshot. It is immutable
// after Build and safe for concurrent use.
type Searcher struct {
	entries []entry   // in path order, ties in the order given to Build
	words   []int32   // the keywords of every entry as vocabulary ids, entry after entry
	users   [][]int32 // vocabulary id → entries declaring the keyword, ascending, once per declaration
	vocab   *vocab
	// free holds scratch states for reuse. Unlike a sync.Pool it is not
	// emptied by every garbage collection, which under a stream of broad
	// searches would make most searches allocate a fresh state.
	free chan *scratch
}

var _ core.Searcher = (*Searcher)(nil)

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
// keyword, scored as Score does, sorted by score descending then path
// ascending. A context with no tokens (empty, or only stop words) matches
// nothing. The answer is the plain algorithm's, keyword for keyword and bit for
// bit; only the work differs: the tokens find their keywords through the
// vocabulary, only the entries declaring those are scored, and as entries are
// stored in path order, sorting is a stable grouping by score.
func (s *Searcher) Search(context string) []core.Match {
	tokens := Tokenize(context)
	if len(tokens) == 0 || len(s.entries) == 0 {
		return nil
	}
	sc := s.acquire()
	defer s.release(sc)
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
	if len(sc.hits) == 0 {
		return nil
	}
	total := 0
	for i := range sc.hits {
		h := &sc.hits[i]
		e := &s.entries[h.entry]
		h.score = finalScore(int(h.matched), int(e.end-e.start), e.priority)
		total += int(h.matched)
	}
	hits := sortByScore(sc)
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

// collect gathers into sc.hits, in entry (path) order, every entry declaring
// a marked keyword with the number of its keywords marked (a keyword declared
// twice counts twice), and leaves sc.count all zero.
func (s *Searcher) collect(sc *scratch) {
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
func (s *Searcher) acquire() *scratch {
	select {
	case sc := <-s.free:
		return sc
	default:
		return &scratch{word: make([]bool, len(s.vocab.words)), count: make([]int32, len(s.entries))}
	}
}

// release clears the marks of sc and keeps it for reuse (or drops it when
// enough are kept).
func (s *Searcher) release(sc *scratch) {
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
