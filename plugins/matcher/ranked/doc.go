// Package ranked is a core.Matcher for skills written as prose: Agent Skills
// folders whose only routing signal is a name, a description and a body.
//
// It scores with BM25F: each query term's occurrences in a skill's fields
// (name, path segments, keywords, description, the body's headings) are
// weighted per field and length-normalised, summed, saturated and
// multiplied by the term's IDF over the served catalogue, computed in Build so
// every snapshot (every reload) has its own. A query that is exactly a
// skill's name or path routes to that skill outright.
//
// Scores are relative: the best skill scores 1 and every other its share of
// the best raw score, so core.Rank's gap test (ambiguity_threshold) is a
// relative margin and min_score drops candidates far behind the winner. A
// skill that is an exact name or path hit scores 1 and every other at most
// half the winner's share. Nothing matches when no query term is both in a
// skill and rarer than noise (relevance floor): that is the only no_match.
//
// Tokenize splits on anything but letters and digits, and between camelCase
// words; it folds case, width and accents, drops English stop words and the
// words of a request ("please", "need"), and stems with Porter2 (Snowball's
// English stemmer) plus two endings it keeps (-ure, a short -ize).
// docs/RATIONALE.md explains the weights.
package ranked
