package ranked

import (
	"math"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// Fields of a skill the matcher scores, in the order of Options.Weights.
const (
	fieldName = iota
	fieldPath
	fieldKeywords
	fieldDescription
	fieldHeadings
	fieldBody
	numFields
)

// fieldNames name the fields in explanations.
var fieldNames = [numFields]string{"name", "path", "keywords", "description", "headings", "body"}

// Options tune the scoring. The zero value of a field means its default.
type Options struct {
	// Weights multiply a term's occurrences per field (name, path, keywords,
	// description, headings, body); DefaultOptions has the tuned ones.
	Weights [numFields]float64
	// B is the length normalisation of each field (0: none, 1: full).
	B [numFields]float64
	// K1 is BM25's saturation: how fast repeated hits stop adding up.
	K1 float64
	// Floor is the least raw score a skill needs to be a match at all.
	Floor float64
	// ExactShare caps the scores of the other skills when one is an exact
	// name or path hit, as a share of the hit's score.
	ExactShare float64
}

// DefaultOptions are the weights measured on testdata/routing (docs/RATIONALE.md).
func DefaultOptions() Options {
	return Options{
		Weights:    [numFields]float64{3, 1.5, 3, 1.5, 0.6, 0.3},
		B:          [numFields]float64{0.5, 0.5, 0.5, 0.75, 0.75, 0.75},
		K1:         1.2,
		Floor:      0.5,
		ExactShare: 0.5,
	}
}

// Matcher is the ranked core.Matcher.
type Matcher struct{ opts Options }

// New returns a ranked Matcher with DefaultOptions.
func New() *Matcher { return &Matcher{opts: DefaultOptions()} }

// NewWith returns a ranked Matcher with opts (zero fields take their defaults).
func NewWith(opts Options) *Matcher {
	def := DefaultOptions()
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
	return &Matcher{opts: opts}
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
	opts     Options
	paths    []string
	priority []float64
	terms    map[string]int32 // term → index in postings and idf
	postings [][]posting
	idf      []float64
	lens     [][numFields]int32 // each skill's field lengths in terms
	avg      [numFields]float64 // the average of each field's length
	exact    map[string][]int32 // exactKey of a name or path → skills
}

// Build implements core.Matcher: it tokenizes every field of every entry,
// computes each term's IDF over entries and each (term, skill) contribution.
func (m *Matcher) Build(entries []core.MatchEntry) core.Searcher {
	n := len(entries)
	s := &searcher{
		opts:     m.opts,
		paths:    make([]string, n),
		priority: make([]float64, n),
		lens:     make([][numFields]int32, n),
		terms:    map[string]int32{},
		exact:    map[string][]int32{},
	}
	type docTerms struct {
		tf  map[int32]*[numFields]uint8
		len [numFields]int
	}
	docs := make([]docTerms, n)
	var total [numFields]float64
	for i, e := range entries {
		s.paths[i] = strings.Clone(e.Path)
		p := e.Priority
		if math.IsNaN(p) || math.IsInf(p, 0) {
			p = 0
		}
		s.priority[i] = p
		d := docTerms{tf: map[int32]*[numFields]uint8{}}
		add := func(f int, text string) {
			for _, t := range Tokenize(text) {
				id, ok := s.terms[t]
				if !ok {
					id = int32(len(s.postings))
					s.terms[strings.Clone(t)] = id
					s.postings = append(s.postings, nil)
				}
				c := d.tf[id]
				if c == nil {
					c = new([numFields]uint8)
					d.tf[id] = c
				}
				if c[f] < math.MaxUint8 {
					c[f]++
				}
				d.len[f]++
			}
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
		add(fieldBody, e.Lead)
		for f := range numFields {
			total[f] += float64(d.len[f])
			s.lens[i][f] = int32(min(d.len[f], math.MaxInt32))
		}
		docs[i] = d
		for _, key := range []string{exactKey(e.Name), exactKey(e.Path), exactKey(lastSegment(e.Path))} {
			if key != "" && !strings.HasPrefix(lastSegment(e.Path), "_") && !containsDoc(s.exact[key], int32(i)) {
				s.exact[strings.Clone(key)] = append(s.exact[key], int32(i))
			}
		}
	}
	for f := range numFields {
		s.avg[f] = max(total[f]/float64(max(n, 1)), 1)
	}
	df := make([]int, len(s.postings))
	for _, d := range docs {
		for id := range d.tf {
			df[id]++
		}
	}
	s.idf = make([]float64, len(df))
	for id, c := range df {
		s.idf[id] = math.Log(1 + (float64(n)-float64(c)+0.5)/(float64(c)+0.5))
		s.postings[id] = make([]posting, 0, c)
	}
	for i, d := range docs {
		for id, tf := range d.tf {
			w := s.pseudoTF(tf, &d.len)
			s.postings[id] = append(s.postings[id], posting{doc: int32(i), score: float32(s.idf[id] * w / (s.opts.K1 + w)), tf: *tf})
		}
	}
	return s
}

// pseudoTF is BM25F's combined term frequency: each field's count, weighted
// and normalised by the field's length against its average.
func (s *searcher) pseudoTF(tf *[numFields]uint8, length *[numFields]int) float64 {
	w := 0.0
	for f := range numFields {
		if tf[f] > 0 {
			w += s.fieldTF(f, int(tf[f]), length[f])
		}
	}
	return w
}

// fieldTF is one field's share of pseudoTF.
func (s *searcher) fieldTF(f, tf, length int) float64 {
	b := s.opts.B[f]
	return s.opts.Weights[f] * float64(tf) / (1 - b + b*float64(length)/s.avg[f])
}

// exactKey is the form in which a query equals a name or path: its folded
// words (stop words kept, nothing stemmed) joined by "-".
func exactKey(s string) string { return strings.Join(words(s), "-") }

// lastSegment returns the part of path after its last "/".
func lastSegment(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

func containsDoc(docs []int32, d int32) bool {
	for _, x := range docs {
		if x == d {
			return true
		}
	}
	return false
}
