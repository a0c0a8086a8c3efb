// Package corpus owns the deterministic skill corpora the benchmarks run on:
// spec-000 trees (`_root.md`, category `_index.md` files, leaf skills with
// resource directories) side by side with Agent Skills folders, at any size,
// with realistic keyword overlap (Zipf-distributed shared words, category
// themes, compound names, short and accented keywords) and 1–3 KB bodies.
//
// Plan lays a corpus out in memory from a size and a seed; Write renders it to
// disk. The same Options always give the same files, byte for byte, so figures
// taken on two machines are taken on the same tree. Contexts picks the
// get_skill contexts the benchmarks time (single match, ambiguous, no match),
// and RandomContexts draws free-text queries for equivalence tests.
package corpus
