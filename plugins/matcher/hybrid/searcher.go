package hybrid

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/skills-mcp/skills-mcp/core"
)

// minSkills is the smallest catalogue the similarity is used for: below it
// the spread of the similarities says nothing (see standOut).
const minSkills = 8

// spread is how many standard deviations above the chance level a skill's
// similarity must stand to earn the full semantic score.
const spread = 2.0

// searcher is one snapshot: ranked's searcher, each skill's unit vector.
type searcher struct {
	m      *matcher
	ranked core.Searcher
	n      int
	paths  []string            // each skill's path, in entry order
	exact  map[string]struct{} // exactKey of every name and path
	dim    int                 // 0: no vectors, ranked alone
	vecs   []float32           // n unit vectors of dim values, flat
}

// Calibrated implements core.Calibrated: the mix of two confidences is one
// when ranked's scores are (get_skill holds it to matching.min_confidence).
func (s *searcher) Calibrated() bool { return core.IsCalibrated(s.ranked) }

// Search implements core.Searcher: ranked's matches, combined with the
// request's similarity to each skill when the vectors are there and the
// endpoint answers in time; ranked's matches as they are otherwise.
func (s *searcher) Search(context string) []core.Match {
	matches := s.ranked.Search(context)
	if s.dim == 0 || strings.TrimSpace(context) == "" || s.isExact(context) || !s.m.health.allow() {
		return matches
	}
	q, err := s.m.embedQuery(context)
	if err == nil && len(q) != s.dim {
		err = &dimensionError{got: len(q), want: s.dim}
	}
	if err != nil {
		s.m.health.failed("embedding a request", err)
		return matches
	}
	s.m.health.ok()
	return s.combine(matches, s.semantic(normalized(q)))
}

// semantic returns each skill's semantic score in [0, 1] for the unit
// vector q: how far its cosine similarity stands above the catalogue's, in
// standard deviations, beyond what the best of n unrelated skills reaches by
// chance (standOut), over spread.
func (s *searcher) semantic(q []float32) []float64 {
	cos := make([]float64, s.n)
	mean := 0.0
	for i := range s.n {
		v := s.vecs[i*s.dim : (i+1)*s.dim]
		dot := 0.0
		for j, x := range v {
			dot += float64(x) * float64(q[j])
		}
		cos[i] = dot
		mean += dot
	}
	mean /= float64(s.n)
	variance := 0.0
	for _, c := range cos {
		variance += (c - mean) * (c - mean)
	}
	sd := math.Sqrt(variance / float64(s.n))
	out := make([]float64, s.n)
	if sd < 1e-9 {
		return out
	}
	chance := standOut(s.n)
	for i, c := range cos {
		out[i] = min(max(((c-mean)/sd-chance)/spread, 0), 1)
	}
	return out
}

// standOut is about the largest z-score among n similarities that owe
// nothing to the request (the expected maximum of n normal draws,
// sqrt(2 ln n)): a skill must stand further out to count.
func standOut(n int) float64 { return math.Sqrt(2 * math.Log(float64(n))) }

// combine mixes ranked's score r and the semantic score v of every skill
// that has either: r + w·v·(1-r), sorted by score descending, then path.
// ranked's scores are confidences (the share of the request a skill covers),
// and so is the mix: a similarity that adds nothing (v = 0) leaves ranked's
// answer as it was, a skill found by its meaning alone scores up to w, and
// one that both find up to 1.
func (s *searcher) combine(matches []core.Match, sem []float64) []core.Match {
	w := s.m.opts.SemanticWeight
	byPath := make(map[string]int, len(matches))
	for i, m := range matches {
		byPath[m.Path] = i
	}
	out := make([]core.Match, 0, len(matches))
	for i, path := range s.paths {
		j, lexical := byPath[path]
		if !lexical && sem[i] == 0 {
			continue
		}
		m := core.Match{Path: path}
		r := 0.0
		if lexical {
			m = matches[j]
			r = m.Score
			delete(byPath, path)
		}
		m.Score = r + w*sem[i]*(1-r)
		out = append(out, m)
	}
	for _, j := range byPath { // a path twice in entries: keep ranked's answer
		out = append(out, matches[j])
	}
	slices.SortFunc(out, func(a, b core.Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// isExact reports whether context is exactly a skill's name or path: ranked
// routes those outright, and a similarity must not outvote it.
func (s *searcher) isExact(context string) bool {
	_, ok := s.exact[exactKey(context)]
	return ok
}

// exactKeys returns the exactKey of every entry's name, path and folder, and
// the entries' paths.
func exactKeys(entries []core.MatchEntry) (map[string]struct{}, []string) {
	keys := map[string]struct{}{}
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = strings.Clone(e.Path)
		folder := e.Path[strings.LastIndexByte(e.Path, '/')+1:]
		if strings.HasPrefix(folder, "_") {
			continue
		}
		for _, k := range []string{exactKey(e.Name), exactKey(e.Path), exactKey(folder)} {
			if k != "" {
				keys[k] = struct{}{}
			}
		}
	}
	return keys, paths
}

// exactKey folds s to its lowercase letters and digits, runs of anything
// else becoming one "-": "PDF Tools", "pdf-tools" and "pdf_tools" agree.
func exactKey(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// normalized returns v scaled to length 1 (all zeros stays zeros).
func normalized(v []float32) []float32 {
	norm := 0.0
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if norm == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}
