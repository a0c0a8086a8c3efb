// Package index owns the skill index: discovery of skills under one or more
// skills directories, validation of the frontmatter (read by internal/frontmatter), skill paths and the
// parent tree, inheritance chains and the aggregated content, asset and script
// resolution (own, inherited, chain lookup, confined reading), the list_skills
// tree, lookup by name, the problems a rebuild found, and the atomic rebuild
// that swaps in a new immutable Snapshot. Keyword search is delegated to a
// core.Matcher, built once per snapshot.
//
// One tree holds two formats side by side:
//
//   - Spec-000 tree files (spec 000 §4, §6, §7): `ui/react/auth.md` is the skill
//     ui/react/auth, `_root.md` and `ui/_index.md` are the parents it inherits
//     from, and the directory `ui/react/auth/` beside the file is its resource
//     directory holding the assets and scripts its frontmatter declares.
//     `description` and `keywords` are required.
//   - Agent Skills folders (agentskills.io): a folder holding a file named
//     exactly SKILL.md is the skill whose path is the folder's (`tools/git`).
//     Everything inside the folder is its content, never another skill. Its
//     frontmatter needs `name` and `description`; `license`, `compatibility`,
//     `metadata` and `allowed-tools` are kept, spec-000 keys (keywords,
//     priority, assets, scripts) honoured. The other rules of the format (name
//     charset and length, name equal to the folder, description and
//     compatibility lengths) are checked leniently: the skill is served and the
//     break reported. An Agent Skill never inherits; any file of its folder can
//     be fetched as an asset without being declared.
//
// Several roots are indexed in precedence order (Options.Roots, DefaultRoots):
// an earlier root wins a skill path, and an earlier Agent Skill wins a name.
// What loses, and every file skipped or suspicious, is logged and listed by
// Snapshot.Problems.
//
// A Snapshot never changes once built: a caller holding one sees a single
// consistent index for as long as it keeps it, however many rebuilds happen.
package index
