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
// Scores are confidences (core.Calibrated), the same across requests: the
// share of the request's weight the skill covers, its raw score over the sum
// of the IDFs of the request's terms plus UnknownWeight times the largest IDF
// for each word no skill holds, then corrected for the catalogue's size (a
// larger catalogue matches any request by chance more, a smaller one less:
// the share's odds times f = ln(ReferenceSize)/ln(skills)). get_skill compares them with matching.min_confidence (no_match
// below) and ambiguity_threshold (the lead a single match needs). A skill that
// is an exact name or path hit scores 1 and every other at most half its own
// share. Nothing matches when no query term is both in a skill and rarer than
// noise (the relevance floor).
//
// The tokenizer splits on anything but letters and digits, and between camelCase
// words; it folds case, width and accents, drops English stop words and the
// words of a request ("please", "need"), and stems with Porter2 (Snowball's
// English stemmer) plus two endings it keeps (-ure, a short -ize) and the s
// of a plural acronym (pdfs).
// docs/RATIONALE.md explains the weights.
package ranked
