// Package frontmatter is the one reader of a skill file's YAML frontmatter,
// shared by the index (serving), validate and the Skills extension: splitting
// the `---` block from the body (BOM, CRLF, unterminated blocks), decoding it
// as YAML 1.2's core schema with merge keys and an alias budget, a fast path
// for the plain blocks most skills have (checked against the full decoder by
// a differential fuzz target), which fields are text whatever they look like,
// and the block rendered as JSON with its keys in file order.
package frontmatter
