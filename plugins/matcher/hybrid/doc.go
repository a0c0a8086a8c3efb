// Package hybrid is an optional core.Matcher for teams that run an
// embeddings service: it combines the ranked matcher's score with the cosine
// similarity of a request and each skill, both embedded by an
// OpenAI-compatible `/v1/embeddings` endpoint the operator names.
//
// Skill vectors are computed in Build (at index time), in batches, and cached
// by a digest of the embedded text, the endpoint and the model: in memory
// and, when a cache directory is given, on disk, so a rebuild embeds only the
// skills whose text changed. The request is embedded per Search with a short
// timeout.
//
// The semantic part never makes routing worse than ranked alone: a skill
// counts semantically only when its similarity stands out of the catalogue's
// (z-score above what the best of as many unrelated skills would reach by
// chance), an exact name or path is left to ranked, and an endpoint that is
// slow, failing or answers vectors of the wrong size makes the matcher serve
// ranked's answer, with one warning per outage rather than one per request.
// docs/RATIONALE.md explains the score combination.
package hybrid
