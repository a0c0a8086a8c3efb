package ranked

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/skills-mcp/skills-mcp/core"
)

// query is a context's distinct terms with the word each came from.
type query struct {
	ids   []int32  // term ids known to the snapshot, in order of appearance
	words []string // the lowercased word that first gave each id
	exact []int32  // skills whose name or path the whole context is
	// unknown are the words no skill holds, for explanations (64 at most).
	unknown []string
	// weight is what the whole request weighs: the IDF of each distinct
	// term plus options.UnknownWeight times the largest IDF for each word
	// no skill holds. A skill's confidence is its raw score over weight.
	weight float64
}

// parse reads context against the snapshot's vocabulary.
func (s *searcher) parse(context string) query {
	var q query
	q.exact = s.exact[exactKey(context)]
	seen := map[int32]bool{}
	add := func(id int32, w string) {
		if !seen[id] {
			seen[id] = true
			q.ids = append(q.ids, id)
			q.words = append(q.words, w)
			q.weight += s.idf[id]
		}
	}
	unknown := 0 // distinct words no skill holds (all of them past the 64 kept)
	prev := ""   // the word before, when it was no stop word
	eachWord(context, func(w string) {
		if isStop(w) {
			prev = ""
			return
		}
		// Two words a skill writes as one ("google calendar", "web app"):
		// the compound is a term too.
		if prev != "" {
			if id, ok := s.terms[stem(prev+w)]; ok && !seen[id] {
				add(id, prev+w)
				q.weight -= s.idf[id] // a second reading of words already weighed
			}
		}
		w = strings.Clone(w) // eachWord reuses its buffer
		prev = w
		id, ok := s.terms[stem(w)]
		if !ok {
			// One word for two the skills write apart ("homepage", "codebase").
			if parts := s.compoundParts(w); parts != nil {
				add(parts[0], w)
				add(parts[1], w)
				return
			}
			switch {
			case len(q.unknown) == 64:
				unknown++
			case !slices.Contains(q.unknown, w):
				q.unknown = append(q.unknown, w)
				unknown++
			}
			return
		}
		add(id, w)
	})
	q.weight += float64(unknown) * s.opts.UnknownWeight * s.maxIDF
	return q
}

// scratch is the per-search accumulator, pooled: one raw score and one
// matched-terms mask per skill, the skills touched and their final scores.
type scratch struct {
	acc     []float64
	mask    []uint64
	touched []int32
	scored  []scored // run's answer, reused
}

var scratchPool sync.Pool

func (s *searcher) getScratch() *scratch {
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil || len(sc.acc) < len(s.paths) {
		sc = &scratch{acc: make([]float64, len(s.paths)), mask: make([]uint64, len(s.paths))}
	}
	return sc
}

func putScratch(sc *scratch) {
	for _, d := range sc.touched {
		sc.acc[d], sc.mask[d] = 0, 0
	}
	sc.touched, sc.scored = sc.touched[:0], sc.scored[:0]
	scratchPool.Put(sc)
}

// scored is a skill and its final score, before a core.Match is built.
type scored struct {
	doc   int32
	score float64
}

// run scores q: the final scores of every skill that matched, unsorted, in sc.
// It returns nil when no skill reaches the relevance floor and none is an
// exact hit.
func (s *searcher) run(q query, sc *scratch) []scored {
	for qi, id := range q.ids {
		bit := uint64(1) << min(qi, 63)
		for _, p := range s.postings[id] {
			if sc.mask[p.doc] == 0 {
				sc.touched = append(sc.touched, p.doc)
			}
			sc.acc[p.doc] += float64(p.score)
			sc.mask[p.doc] |= bit
		}
	}
	best := 0.0
	for _, d := range sc.touched {
		if a := sc.acc[d]; a > best { // max(best, a) without its NaN and signed-zero cases: a is a sum of positive scores
			best = a
		}
	}
	if best < s.opts.Floor && len(q.exact) == 0 || best == 0 && len(q.exact) == 0 {
		return nil
	}
	weight := max(q.weight, 1e-9) // an exact hit on a name of stop words weighs nothing
	share := 1.0
	if len(q.exact) > 0 {
		share = s.opts.ExactShare
	}
	out := sc.scored[:0]
	w := -1 // the winner: the best, first by path among equals
	for _, d := range sc.touched {
		if len(q.exact) > 0 && slices.Contains(q.exact, d) {
			continue
		}
		x := scored{d, share*s.confidence(sc.acc[d]/weight) + s.priority[d]*0.001}
		if w < 0 || x.score > out[w].score || x.score == out[w].score && s.less(x, out[w]) < 0 {
			w = len(out)
		}
		out = append(out, x)
	}
	for _, d := range q.exact {
		if sc.mask[d] == 0 {
			sc.touched = append(sc.touched, d)
			sc.mask[d] = 1 << 63 // matched, though by no term (a name of stop words)
		}
		x := scored{d, 1 + s.priority[d]*0.001}
		if w < 0 || x.score > out[w].score || x.score == out[w].score && s.less(x, out[w]) < 0 {
			w = len(out)
		}
		out = append(out, x)
	}
	s.tieSameName(out, w)
	sc.scored = out
	return out
}

// confidence turns a skill's share of the request into its confidence for
// the catalogue's size: the share's odds, share/(1-share), times f =
// ln(ReferenceSize)/ln(skills). Near the thresholds that is the share times f
// (a larger catalogue matches more of any request by chance, a smaller one
// less); it stays in [0, 1] and keeps the shares' order, at the cost of a
// division (a power per skill touched made get_skill 2.5 times slower at
// 10,000 skills).
func (s *searcher) confidence(share float64) float64 {
	share = min(share, 1)
	return s.chance * share / (1 + (s.chance-1)*share)
}

// tieSameName lifts the skills of another collection (another first path
// segment) that share the winner's name and score at least opts.SameName of
// it to just under the winner (in their order): two collections' pdf skills
// do the same job and their scores cannot tell the collections apart, so
// get_skill answers ambiguous with both and the model picks by their
// descriptions. Same-name skills of one folder are left to their scores.
// w is the winner's index in out (run finds it as it scores).
func (s *searcher) tieSameName(out []scored, w int) {
	if len(out) < 2 || s.opts.SameName >= 1 {
		return
	}
	key := s.nameKey[out[w].doc]
	if key == "" || len(s.exact[key]) < 2 {
		return
	}
	top := out[w].score
	for i := range out {
		if i != w && s.nameKey[out[i].doc] == key && out[i].score >= s.opts.SameName*top &&
			firstSegment(s.paths[out[i].doc]) != firstSegment(s.paths[out[w].doc]) {
			// Within a thousandth of the winner, still in their own order.
			out[i].score = top - 0.001*(1-out[i].score/top)
		}
	}
}

// less orders scored skills best first, then by path. Scores are never NaN
// (priorities are made finite at Build).
func (s *searcher) less(a, b scored) int {
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if s.pathsAscend() {
		return cmp.Compare(a.doc, b.doc)
	}
	return strings.Compare(s.paths[a.doc], s.paths[b.doc])
}

// pathOrder is whether a searcher's paths ascend, found once.
type pathOrder struct {
	once   sync.Once
	ascend bool
}

// pathsAscend reports whether the skills' paths ascend with their doc
// numbers, as internal/index hands them, so that docs compare as their paths do
// without comparing strings.
func (s *searcher) pathsAscend() bool {
	s.inOrder.once.Do(func() {
		s.inOrder.ascend = slices.IsSortedFunc(s.paths, strings.Compare) && !hasAdjacentEqual(s.paths)
	})
	return s.inOrder.ascend
}

// hasAdjacentEqual reports whether two neighbours of ss are equal.
func hasAdjacentEqual(ss []string) bool {
	for i := 1; i < len(ss); i++ {
		if ss[i] == ss[i-1] {
			return true
		}
	}
	return false
}

// match builds the core.Match of one scored skill.
func (s *searcher) match(q query, sc *scratch, x scored) core.Match {
	m := core.Match{Path: s.paths[x.doc], Score: x.score, MatchedKeywords: []string{}}
	for qi, w := range q.words[:min(len(q.words), 63)] { // bit 63 stands for the rest
		if sc.mask[x.doc]&(uint64(1)<<qi) != 0 {
			m.MatchedKeywords = append(m.MatchedKeywords, w)
		}
	}
	return m
}

// Calibrated implements core.Calibrated: scores are confidences.
func (s *searcher) Calibrated() bool { return true }

// Search implements core.Searcher.
func (s *searcher) Search(context string) []core.Match {
	top, _ := s.SearchTop(context, 0, -1)
	return top
}

// SearchTop implements core.TopSearcher: it builds matches only for the
// first limit skills.
func (s *searcher) SearchTop(context string, minScore float64, limit int) ([]core.Match, int) {
	if len(s.paths) == 0 {
		return nil, 0
	}
	q := s.parse(context)
	if len(q.ids) == 0 && len(q.exact) == 0 {
		return nil, 0
	}
	sc := s.getScratch()
	defer putScratch(sc)
	all := s.run(q, sc)
	kept := all[:0]
	for _, x := range all {
		if x.score >= minScore {
			kept = append(kept, x)
		}
	}
	n := len(kept)
	if limit < 0 || limit > n {
		limit = n
	}
	if limit == 0 {
		return nil, n
	}
	if limit*8 < n {
		kept = s.selectTop(kept, limit)
	} else {
		slices.SortFunc(kept, s.less)
	}
	out := make([]core.Match, limit)
	for i := range limit {
		out[i] = s.match(q, sc, kept[i])
	}
	return out, n
}

// selectTop returns the first k of xs in order, by insertion into a sorted
// head: for the few that get_skill needs out of many.
func (s *searcher) selectTop(xs []scored, k int) []scored {
	head := make([]scored, 0, k+1)
	for _, x := range xs {
		if len(head) == k && (x.score < head[k-1].score || s.less(x, head[k-1]) >= 0) {
			continue
		}
		i, _ := slices.BinarySearchFunc(head, x, s.less)
		head = slices.Insert(head, i, x)
		if len(head) > k {
			head = head[:k]
		}
	}
	return head
}

// firstSegment returns the part of path before its first "/".
func firstSegment(path string) string {
	if i := strings.IndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return path
}
