// Package validate owns validate's own checks of skill files, beyond what the
// index reports: frontmatter fields and their types at their line, YAML 1.1
// readings a client would take differently, links out of a skill, build
// recipes, and the on-disk presence of declared assets and scripts. It is the
// only importer of goldmark and goldmark-meta, so the serving path never
// links a Markdown parser. The validate subcommand (cmd/skillscmd) decides what
// to check and prints the findings.
package validate
