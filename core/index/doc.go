// Package index owns the skill index of spec 000 §4, §6 and §7: discovery of
// Markdown skill files under a skills directory, frontmatter parsing and
// validation, skill paths and the parent tree, inheritance chains and the
// aggregated content, asset and script resolution (own, inherited, chain
// lookup, confined reading), the list_skills tree, and the atomic rebuild that
// swaps in a new immutable Snapshot. Keyword search is delegated to a
// core.Matcher, built once per snapshot.
//
// A Snapshot never changes once built: a caller holding one sees a single
// consistent index for as long as it keeps it, however many rebuilds happen.
package index
