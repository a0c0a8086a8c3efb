package ranked

import (
	"cmp"
	"slices"

	"github.com/skills-mcp/skills-mcp/core"
)

// Explain implements core.Explainer: for each query term found in path's
// skill, its share of the raw score in each field where it occurs (the term's
// BM25F contribution split in proportion to each field's weighted count),
// with the term's IDF as Weight, largest first; an exact name or path hit
// first of all. Query terms the skill lacks follow with an empty Field and
// no score (Weight 0 when no skill of the catalogue holds them either): what
// an author could add to the skill's description.
func (s *searcher) Explain(context, path string) []core.Contribution {
	doc := int32(slices.Index(s.paths, path))
	if doc < 0 {
		return nil
	}
	q := s.parse(context)
	var found, missing []core.Contribution
	if slices.Contains(q.exact, doc) {
		found = append(found, core.Contribution{Term: exactKey(context), Field: "exact", Count: 1, Score: 1})
	}
	for qi, id := range q.ids {
		i, ok := slices.BinarySearchFunc(s.postings[id], doc, func(p posting, d int32) int { return cmp.Compare(p.doc, d) })
		if !ok {
			missing = append(missing, core.Contribution{Term: q.words[qi], Weight: s.idf[id]})
			continue
		}
		p := s.postings[id][i]
		var parts [numFields]float64
		total := 0.0
		for f := range numFields {
			if p.tf[f] > 0 {
				parts[f] = s.fieldTF(f, int(p.tf[f]), int(s.lens[doc][f]))
				total += parts[f]
			}
		}
		for f := range numFields {
			if p.tf[f] > 0 {
				found = append(found, core.Contribution{
					Term: q.words[qi], Field: fieldNames[f], Count: int(p.tf[f]),
					Score: float64(p.score) * parts[f] / total, Weight: s.idf[id],
				})
			}
		}
	}
	for _, w := range q.unknown {
		missing = append(missing, core.Contribution{Term: w})
	}
	slices.SortStableFunc(found, func(a, b core.Contribution) int { return cmp.Compare(b.Score, a.Score) })
	return append(found, missing...)
}
