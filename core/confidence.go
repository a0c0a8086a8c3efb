package core

// Calibrated is a Searcher whose scores are confidences: a Match's Score says
// how much of the context the skill answers, on a scale that means the same
// for every context (0: nothing of it; an exact name or path is 1). Rank's
// rules assume scores of one query compared with each other (spec 000 §5);
// confidences can also be compared with fixed thresholds, so RankFor judges
// them with RankConfident. A matcher that combines several signals (a
// semantic one beside the words) makes its combined score such a confidence
// and answers true.
type Calibrated interface {
	Searcher
	// Calibrated reports whether this searcher's scores are confidences.
	Calibrated() bool
}

// IsCalibrated reports whether s scores with confidences.
func IsCalibrated(s Searcher) bool {
	c, ok := s.(Calibrated)
	return ok && c.Calibrated()
}

// RankFor ranks matches, which s returned, as get_skill answers: with
// RankConfident when s is Calibrated, else with Rank (spec 000 §5.3).
func RankFor(s Searcher, matches []Match, cfg RankOptions) Ranking {
	if IsCalibrated(s) {
		return RankConfident(matches, cfg)
	}
	return Rank(matches, cfg)
}

// RunnerUpShare is the part of MinConfidence a runner-up needs to be a
// candidate: when the best reaches MinConfidence and a runner-up within
// AmbiguityThreshold of it reaches this share of it, the answer is ambiguous.
// A best answer just over MinConfidence with a runner-up just under it is a
// weak, split decision, not a clear one: serving the best alone hid the right
// runner-up (docs/RATIONALE.md, "Routing, second round: the runner-up").
const RunnerUpShare = 0.5

// RankConfident decides get_skill's answer from confidences (matches sorted
// as Search returns them): no match when the best is under MinConfidence; a
// single match when it leads the next one by AmbiguityThreshold or more, or
// when no other skill reaches RunnerUpShare of MinConfidence; otherwise
// ambiguous, with up to MaxResults (all when MaxResults <= 0) of the skills
// reaching that share, best first. A weak answer is ambiguous as often as a
// split one: confidences of a weak answer are small, so are the gaps between
// them. MinScore is spec 000 §5's and is not used.
//
// Like Rank, it allocates only the slice it returns and nothing for NoMatch.
func RankConfident(matches []Match, cfg RankOptions) Ranking {
	return rankConfident(matches, cfg, true)
}

// candidateFloor is the least confidence of an ambiguous answer's candidate.
func candidateFloor(cfg RankOptions) float64 { return cfg.MinConfidence * RunnerUpShare }

// rankConfident is RankConfident; fresh as for rank.
func rankConfident(matches []Match, cfg RankOptions, fresh bool) Ranking {
	if len(matches) == 0 || !(matches[0].Score >= cfg.MinConfidence) {
		return Ranking{Outcome: NoMatch}
	}
	floor := candidateFloor(cfg)
	if len(matches) == 1 || !(matches[1].Score >= floor) ||
		matches[0].Score-matches[1].Score >= cfg.AmbiguityThreshold {
		return Ranking{Outcome: SingleMatch, Matches: firstKept(matches[:1], floor, 1, fresh)}
	}
	n := cfg.MaxResults
	if n <= 0 {
		n = len(matches)
	}
	return Ranking{Outcome: Ambiguous, Matches: firstKept(matches, floor, n, fresh)}
}
