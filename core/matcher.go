package core

// MatchEntry is what a Matcher sees of one skill.
type MatchEntry struct {
	// Path is the skill path.
	Path string
	// Keywords are the skill's keywords as declared.
	Keywords []string
	// Priority is the skill's priority.
	Priority float64
	// Name and Description let a matcher derive keywords for a skill that
	// declares none (an Agent Skills folder without `keywords`).
	Name, Description string
}

// Match is one scored skill.
type Match struct {
	// Path is the skill path.
	Path string
	// Score is baseScore + priority*0.001 (spec 000 §5.2).
	Score float64
	// MatchedKeywords are the skill keywords (lowercased) that matched, in declaration order.
	MatchedKeywords []string
}

// Matcher scores skills against a free-text context. Build is called once per
// index snapshot, so a matcher may precompute whatever makes Search fast.
type Matcher interface {
	// Build prepares a Searcher over entries. entries is not modified or retained by callers.
	Build(entries []MatchEntry) Searcher
}

// Searcher answers queries over one snapshot. It must be safe for concurrent use.
type Searcher interface {
	// Search returns every entry with at least one matched keyword, sorted by score descending,
	// then by path ascending. Filtering by min_score and ambiguity are applied
	// by Rank, not here.
	Search(context string) []Match
}

// Outcome is the kind of answer get_skill gives (spec 000 §5.3).
type Outcome int

const (
	// NoMatch: no skill reached min_score.
	NoMatch Outcome = iota
	// SingleMatch: one skill won clearly.
	SingleMatch
	// Ambiguous: the top two are closer than ambiguity_threshold.
	Ambiguous
)

// Ranking is the decision of spec 000 §5.3 over a Searcher's matches.
type Ranking struct {
	// Outcome says which answer applies.
	Outcome Outcome
	// Matches holds the winner (SingleMatch) or up to max_results candidates (Ambiguous).
	Matches []Match
}

// Rank applies §5.3: keep matches with score >= MinScore, then report a single
// match, ambiguity (gap between the first two < AmbiguityThreshold, up to
// MaxResults candidates) or no match. matches must already be sorted as Search returns them.
func Rank(matches []Match, cfg MatchingConfig) Ranking {
	kept := make([]Match, 0, len(matches))
	for _, m := range matches {
		if m.Score >= cfg.MinScore {
			kept = append(kept, m)
		}
	}
	switch {
	case len(kept) == 0:
		return Ranking{Outcome: NoMatch}
	case len(kept) >= 2 && kept[0].Score-kept[1].Score < cfg.AmbiguityThreshold:
		n := cfg.MaxResults
		if n <= 0 || n > len(kept) {
			n = len(kept)
		}
		return Ranking{Outcome: Ambiguous, Matches: kept[:n]}
	default:
		return Ranking{Outcome: SingleMatch, Matches: kept[:1]}
	}
}
