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
	// Headings are the Markdown headings of the skill's body, in order and
	// capped (core.Skill.Headings), for matchers that weigh the body's outline.
	Headings []string
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

// Contribution is one part of a skill's score, as an Explainer reports it:
// what a query term earned in one field of the skill.
type Contribution struct {
	// Term is the query term (as the matcher normalised it).
	Term string `json:"term"`
	// Field names where it was found: "name", "path", "keywords",
	// "description", "headings", or "exact" for an exact name or path hit.
	Field string `json:"field"`
	// Count is how many times the term occurs in the field.
	Count int `json:"count"`
	// Score is the part of the skill's raw score the term earned in the field.
	Score float64 `json:"score"`
	// Weight is how rare the term is in the catalogue (its IDF): a term most
	// skills share is worth little wherever it appears.
	Weight float64 `json:"weight"`
}

// Explainer is a Searcher that can say why a skill scored as it did, for
// `skills-mcp search --explain`. A Searcher may implement it.
type Explainer interface {
	Searcher
	// Explain returns the contributions to path's score for context, largest
	// first; nil when path did not score.
	Explain(context, path string) []Contribution
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

// String is the outcome's name in get_skill's answers: "match",
// "ambiguous" or "no_match".
func (o Outcome) String() string {
	switch o {
	case SingleMatch:
		return "match"
	case Ambiguous:
		return "ambiguous"
	default:
		return "no_match"
	}
}

// Ranking is the decision of spec 000 §5.3 over a Searcher's matches.
type Ranking struct {
	// Outcome says which answer applies.
	Outcome Outcome
	// Matches holds the winner (SingleMatch) or up to max_results candidates (Ambiguous).
	Matches []Match
}

// RankOptions are the parameters of the ranking rule of spec 000 §5.3: the
// thresholds Rank, RankConfident and SearchRank judge matches by. The
// operator's and the content's settings fill them (matching.*); core holds
// no default.
type RankOptions struct {
	// MinScore excludes matches scoring below it (Rank).
	MinScore float64
	// MaxResults caps the ambiguous candidates; all of them when <= 0.
	MaxResults int
	// AmbiguityThreshold: a gap between the top two scores below it is ambiguous.
	AmbiguityThreshold float64
	// MinConfidence is the least confidence of an answer from a Calibrated
	// searcher (RankConfident); MinScore does not apply to those.
	MinConfidence float64
}

// Rank applies §5.3: keep matches with score >= MinScore, then report a single
// match, ambiguity (gap between the first two < AmbiguityThreshold, up to
// MaxResults candidates, all of them when MaxResults <= 0) or no match.
// matches must already be sorted as Search returns them.
//
// Rank reads matches without copying them: it allocates only the slice it
// returns, of exactly the matches returned (length equal to capacity), and
// nothing for NoMatch. That slice shares no memory with matches, so either may
// be modified without affecting the other; the MatchedKeywords of each Match
// are not copied and are shared.
func Rank(matches []Match, cfg RankOptions) Ranking {
	return rank(matches, cfg, true)
}

// rank is Rank. When fresh is false, the returned matches may be a subslice
// of matches (capacity capped at its length): for callers that own matches
// and give it up, such as SearchRank with the result of a TopSearcher.
func rank(matches []Match, cfg RankOptions, fresh bool) Ranking {
	first, second := -1, -1
	for i := range matches {
		if matches[i].Score >= cfg.MinScore {
			if first >= 0 {
				second = i
				break
			}
			first = i
		}
	}
	switch {
	case first < 0:
		return Ranking{Outcome: NoMatch}
	case second >= 0 && matches[first].Score-matches[second].Score < cfg.AmbiguityThreshold:
		n := cfg.MaxResults
		if n <= 0 {
			n = len(matches)
		}
		return Ranking{Outcome: Ambiguous, Matches: firstKept(matches[first:], cfg.MinScore, n, fresh)}
	default:
		return Ranking{Outcome: SingleMatch, Matches: firstKept(matches[first:first+1], cfg.MinScore, 1, fresh)}
	}
}

// firstKept returns the first n (n > 0) matches with Score >= minScore, in
// order. When fresh is false and they lie next to each other in matches, it
// returns them in place; otherwise it copies them into a new slice.
func firstKept(matches []Match, minScore float64, n int, fresh bool) []Match {
	count, end, contiguous := 0, 0, true
	for i := 0; i < len(matches) && count < n; i++ {
		if matches[i].Score >= minScore {
			if i != end {
				contiguous = false
			}
			count++
			end = i + 1
		}
	}
	if contiguous && !fresh {
		return matches[:end:end]
	}
	out := make([]Match, 0, count)
	for _, m := range matches[:end] {
		if m.Score >= minScore {
			out = append(out, m)
		}
	}
	return out
}

// TopSearcher is a Searcher that can also answer with only the head of its
// ranking, sparing the matches Rank would drop. A Searcher may implement it;
// SearchRank uses it when present.
type TopSearcher interface {
	Searcher
	// SearchTop returns the first limit matches of Search(context) whose Score
	// is >= minScore (all of them when limit < 0, none when limit is 0), in
	// Search order and equal to them field for field, together with the number
	// of all matches of Search(context) whose Score is >= minScore. The slice
	// returned belongs to the caller.
	SearchTop(context string, minScore float64, limit int) (top []Match, kept int)
}

// SearchRank returns RankFor(s, s.Search(context), cfg): get_skill's answer.
// When s is a TopSearcher it asks only for the matches the ranking can return
// (the first two that reach MinScore, or RunnerUpShare of MinConfidence for a
// Calibrated s, or
// MaxResults of them; all when MaxResults <= 0), so that a broad context does
// not build a Match for every skill it touches. Ranking.Matches is a new
// slice, as with Rank.
func SearchRank(s Searcher, context string, cfg RankOptions) Ranking {
	calibrated := IsCalibrated(s)
	ts, ok := s.(TopSearcher)
	if !ok {
		return RankFor(s, s.Search(context), cfg)
	}
	limit := -1
	if cfg.MaxResults > 0 {
		limit = max(cfg.MaxResults, 2) // the ambiguity test needs the first two
	}
	if calibrated {
		top, _ := ts.SearchTop(context, candidateFloor(cfg), limit)
		return rankConfident(top, cfg, false)
	}
	top, _ := ts.SearchTop(context, cfg.MinScore, limit)
	return rank(top, cfg, false)
}
