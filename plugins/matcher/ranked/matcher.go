package ranked

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// Fields of a skill the matcher scores, in the order of options.Weights.
const (
	fieldName = iota
	fieldPath
	fieldKeywords
	fieldDescription
	fieldHeadings
	numFields
)

// fieldNames name the fields in explanations.
var fieldNames = [numFields]string{"name", "path", "keywords", "description", "headings"}

// options tune the scoring. The zero value of a field means its default.
type options struct {
	// Weights multiply a term's occurrences per field (name, path, keywords,
	// description, headings); defaultOptions has the tuned ones.
	Weights [numFields]float64
	// B is the length normalisation of each field (0: none, 1: full).
	B [numFields]float64
	// K1 is BM25's saturation: how fast repeated hits stop adding up.
	K1 float64
	// Floor is the least raw score a skill needs to be a match at all.
	Floor float64
	// ExactShare multiplies the confidences of the other skills when one is
	// an exact name or path hit (which scores 1).
	ExactShare float64
	// SameName is the least share of the winner's score at which a skill
	// of the winner's name (another collection's pdf) ties with it, so
	// get_skill lists both; 1 or more turns this off.
	SameName float64
	// UnknownWeight is what a word of the request that no skill holds
	// weighs in the request's weight, the denominator of every confidence,
	// in units of the largest IDF of the catalogue (a term only one skill
	// holds weighs about that much): the more of a request the catalogue
	// does not know, the less any skill answers it.
	UnknownWeight float64
	// ReferenceSize is the number of skills at which a confidence is the
	// share of the request a skill covers, as it is. In a larger catalogue
	// more words of any request match some skill by chance (the share an
	// off-topic request gets grows with the logarithm of the number of
	// skills), in a smaller one fewer: the confidence's odds are the share's
	// times f = ln(ReferenceSize)/ln(skills), so the confidence is about the
	// share times f near the thresholds, and under 1 always.
	ReferenceSize float64
}

// defaultOptions are the settings measured on testdata/routing (docs/RATIONALE.md).
func defaultOptions() options {
	return options{
		Weights:       [numFields]float64{3, 1.5, 3, 1.5, 0.6},
		B:             [numFields]float64{0.5, 0.5, 0.5, 0.75, 0.75},
		K1:            1.2,
		Floor:         0.5,
		ExactShare:    0.5,
		SameName:      0.5,
		UnknownWeight: 2,
		ReferenceSize: 300,
	}
}

// matcher is the ranked core.Matcher.
type matcher struct{ opts options }

// New returns a ranked matcher with defaultOptions.
func New() core.Matcher { return &matcher{opts: defaultOptions()} }

// newWith returns a ranked matcher with opts (zero fields take their defaults).
func newWith(opts options) core.Matcher {
	def := defaultOptions()
	for f := range numFields {
		if opts.Weights[f] == 0 {
			opts.Weights[f] = def.Weights[f]
		}
		if opts.B[f] == 0 {
			opts.B[f] = def.B[f]
		}
	}
	if opts.K1 == 0 {
		opts.K1 = def.K1
	}
	if opts.Floor == 0 {
		opts.Floor = def.Floor
	}
	if opts.ExactShare == 0 {
		opts.ExactShare = def.ExactShare
	}
	if opts.SameName == 0 {
		opts.SameName = def.SameName
	}
	if opts.UnknownWeight == 0 {
		opts.UnknownWeight = def.UnknownWeight
	}
	if opts.ReferenceSize == 0 {
		opts.ReferenceSize = def.ReferenceSize
	}
	return &matcher{opts: opts}
}

// posting is one skill holding a term: its precomputed contribution and its
// counts per field (for explanations).
type posting struct {
	doc   int32
	score float32
	tf    [numFields]uint8
}

// searcher is one snapshot's index.
type searcher struct {
	opts     options
	paths    []string
	priority []float64
	terms    map[string]int32 // term → index in postings and idf
	postings [][]posting
	idf      []float64
	maxIDF   float64            // the IDF of a term no skill holds
	chance   float64            // the exponent of every confidence for the catalogue's size (options.ReferenceSize)
	lens     [][numFields]int32 // each skill's field lengths in terms
	avg      [numFields]float64 // the average of each field's length
	exact    map[string][]int32 // exactKey of a name or path → skills
	nameKey  []string           // each skill's exactKey of its name (of its folder when it has none)
	inOrder  pathOrder          // whether paths ascend (set by the first search)
}

// Build implements core.Matcher: it tokenizes every field of every entry,
// computes each term's IDF over entries and each (term, skill) contribution.
func (m *matcher) Build(entries []core.MatchEntry) core.Searcher {
	n := len(entries)
	s := &searcher{
		opts:     m.opts,
		paths:    make([]string, n),
		priority: make([]float64, n),
		lens:     make([][numFields]int32, n),
		nameKey:  make([]string, n),
		terms:    map[string]int32{},
		exact:    map[string][]int32{},
	}
	// Every skill's (term, counts per field), flat: skill i holds
	// occ[start[i]:start[i+1]].
	type occurrence struct {
		id int32
		tf [numFields]uint8
	}
	var occ []occurrence
	start := make([]int, n+1)
	var df []int32
	// For each term, the last skill that held it (+1, so 0 is none) and
	// where in occ: no map per skill.
	var lastDoc, slot []int32
	var total [numFields]float64
	// Each word's term, so a word is stemmed once per snapshot (Porter2
	// costs about ten map lookups).
	wordID := map[string]int32{}
	for i, e := range entries {
		s.paths[i] = strings.Clone(e.Path)
		p := e.Priority
		if math.IsNaN(p) || math.IsInf(p, 0) {
			p = 0
		}
		s.priority[i] = p
		start[i] = len(occ)
		var length [numFields]int
		add := func(f int, text string) {
			eachWord(text, func(w string) {
				id, ok := wordID[w]
				if !ok {
					if isStop(w) {
						return
					}
					t := stem(w)
					if id, ok = s.terms[t]; !ok {
						id = int32(len(df))
						s.terms[strings.Clone(t)] = id
						df, lastDoc, slot = append(df, 0), append(lastDoc, 0), append(slot, 0)
					}
					wordID[strings.Clone(w)] = id
				}
				j := int(slot[id])
				if lastDoc[id] != int32(i+1) {
					j = len(occ)
					lastDoc[id], slot[id] = int32(i+1), int32(j)
					occ = append(occ, occurrence{id: id})
					df[id]++
				}
				if occ[j].tf[f] < math.MaxUint8 {
					occ[j].tf[f]++
				}
				length[f]++
			})
		}
		add(fieldName, e.Name)
		add(fieldPath, e.Path)
		for _, k := range e.Keywords {
			add(fieldKeywords, k)
		}
		add(fieldDescription, e.Description)
		for _, h := range e.Headings {
			add(fieldHeadings, h)
		}
		for f := range numFields {
			total[f] += float64(length[f])
			s.lens[i][f] = int32(min(length[f], math.MaxInt32))
		}
		if !strings.HasPrefix(lastSegment(e.Path), "_") {
			keys := [...]string{exactKey(e.Name), exactKey(e.Path), exactKey(lastSegment(e.Path))}
			for _, key := range keys {
				if key != "" && !slices.Contains(s.exact[key], int32(i)) {
					s.exact[key] = append(s.exact[key], int32(i))
				}
			}
			s.nameKey[i] = cmp.Or(keys[0], keys[2])
		}
	}
	start[n] = len(occ)
	for f := range numFields {
		s.avg[f] = max(total[f]/float64(max(n, 1)), 1)
	}
	// A name written as one word of two the catalogue knows ("dockerfile",
	// "googlecalendar", "webapp") holds both words too, once each.
	type split struct {
		doc int
		id  int32
	}
	var splits []split
	for i, e := range entries {
		first := len(splits)
		eachWord(e.Name, func(w string) {
			for _, id := range s.compoundParts(w) {
				if !slices.ContainsFunc(occ[start[i]:start[i+1]], func(o occurrence) bool { return o.id == id }) &&
					!slices.Contains(splits[first:], split{i, id}) {
					splits = append(splits, split{i, id})
					df[id]++
				}
			}
		})
	}
	s.maxIDF = math.Log(1 + (float64(n)+0.5)/0.5)
	s.chance = 1
	if n > 1 && s.opts.ReferenceSize > 1 {
		s.chance = math.Log(s.opts.ReferenceSize) / math.Log(float64(n))
	}
	s.idf = make([]float64, len(df))
	s.postings = make([][]posting, len(df))
	all := make([]posting, len(occ)+len(splits)) // one allocation, cut into each term's postings
	off := 0
	for id, c := range df {
		s.idf[id] = math.Log(1 + (float64(n)-float64(c)+0.5)/(float64(c)+0.5))
		s.postings[id] = all[off : off : off+int(c)]
		off += int(c)
	}
	next := 0 // the first split of skill i, splits being in skill order
	for i := range n {
		for _, o := range occ[start[i]:start[i+1]] {
			w := s.pseudoTF(&o.tf, &s.lens[i])
			s.postings[o.id] = append(s.postings[o.id], posting{doc: int32(i), score: float32(s.idf[o.id] * w / (s.opts.K1 + w)), tf: o.tf})
		}
		for ; next < len(splits) && splits[next].doc == i; next++ {
			id := splits[next].id
			var tf [numFields]uint8
			tf[fieldName] = 1
			w := s.pseudoTF(&tf, &s.lens[i])
			s.postings[id] = append(s.postings[id], posting{doc: int32(i), score: float32(s.idf[id] * w / (s.opts.K1 + w)), tf: tf})
		}
	}
	return s
}

// compoundParts returns the terms of the two words w is made of, when w
// (6 to 32 bytes) splits into two known terms of three letters or more; the
// split with the longest first part wins.
func (s *searcher) compoundParts(w string) []int32 {
	if len(w) < 6 || len(w) > 32 {
		return nil
	}
	for i := len(w) - 3; i >= 3; i-- {
		a, okA := s.terms[stem(w[:i])]
		b, okB := s.terms[stem(w[i:])]
		if okA && okB {
			return []int32{a, b}
		}
	}
	return nil
}

// pseudoTF is BM25F's combined term frequency: each field's count, weighted
// and normalised by the field's length against its average.
func (s *searcher) pseudoTF(tf *[numFields]uint8, length *[numFields]int32) float64 {
	w := 0.0
	for f := range numFields {
		if tf[f] > 0 {
			w += s.fieldTF(f, int(tf[f]), int(length[f]))
		}
	}
	return w
}

// fieldTF is one field's share of pseudoTF.
func (s *searcher) fieldTF(f, tf, length int) float64 {
	b := s.opts.B[f]
	return s.opts.Weights[f] * float64(tf) / (1 - b + b*float64(length)/s.avg[f])
}

// ExactKey is the form in which a request equals a skill's name or path, as
// the ranked matcher compares them: its folded words (stop words kept,
// nothing stemmed) joined by "-", so "PDF forms", "pdf-forms" and
// "pdf_forms" are one key.
func ExactKey(s string) string { return exactKey(s) }

// exactKey is ExactKey.
func exactKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	eachWord(s, func(w string) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
	})
	return b.String()
}

// lastSegment returns the part of path after its last "/".
func lastSegment(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}
