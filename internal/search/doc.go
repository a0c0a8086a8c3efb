// Package search owns skills_search's full-text engine (Engine): per
// snapshot, a word index built from one read of every body (the distinct
// folded words in a suffix array, compressed postings, each body kept as
// word ids for the shown hits' excerpts), the query's tokens looked up
// rarest first over pooled bitsets, the matcher's order merged in, and the
// reference that reads every body, which the index is held to and falls
// back to.
//
// It knows nothing of MCP: internal/server's skills_search calls Search and
// renders the hits. docs/RATIONALE.md says why the ranked matcher keeps an
// index of its own and what serving both from this one would take.
package search
