package index

import (
	"bytes"
	"errors"
	"fmt"
	"unsafe"
)

var (
	// errNoFrontmatter: the file does not open with a `---` line.
	errNoFrontmatter = errors.New("no frontmatter block")
	// errUnterminatedFrontmatter: the `---` block is never closed.
	errUnterminatedFrontmatter = errors.New("frontmatter block is not closed")
)

// utf8BOM is the byte-order mark some editors write before the first line.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// frontmatterSplit is a Markdown file cut at its frontmatter delimiters. The four
// parts concatenated are the input, byte for byte.
type frontmatterSplit struct {
	// Open is the optional BOM and the opening `---` line, newline included.
	Open []byte
	// Front is the YAML between the delimiter lines.
	Front []byte
	// Close is the closing `---` line, its newline included when there is one.
	Close []byte
	// Body is every byte after the closing line.
	Body []byte
}

// splitFrontmatter cuts data into its frontmatter block and body. The block opens
// on the first line (after an optional UTF-8 BOM) and closes at the next line that
// is exactly `---`; both delimiter lines may carry trailing spaces, tabs or `\r`.
// It fails with errNoFrontmatter or errUnterminatedFrontmatter.
func splitFrontmatter(data []byte) (frontmatterSplit, error) {
	start := 0
	if bytes.HasPrefix(data, utf8BOM) {
		start = len(utf8BOM)
	}
	line, next, hasNL := cutLine(data, start)
	if !isDelimiter(line) {
		return frontmatterSplit{}, errNoFrontmatter
	}
	if !hasNL {
		return frontmatterSplit{}, errUnterminatedFrontmatter
	}
	frontStart := next
	for pos := frontStart; pos < len(data); {
		line, next, _ := cutLine(data, pos)
		if isDelimiter(line) {
			return frontmatterSplit{
				Open:  data[:frontStart],
				Front: data[frontStart:pos],
				Close: data[pos:next],
				Body:  data[next:],
			}, nil
		}
		pos = next
	}
	return frontmatterSplit{}, errUnterminatedFrontmatter
}

// cutLine returns the line starting at from (without its newline), the offset
// just past the newline (or len(data)), and whether a newline ended the line.
func cutLine(data []byte, from int) (line []byte, next int, hasNL bool) {
	if i := bytes.IndexByte(data[from:], '\n'); i >= 0 {
		return data[from : from+i], from + i + 1, true
	}
	return data[from:], len(data), false
}

// isDelimiter reports a `---` line, ignoring trailing spaces, tabs and `\r`.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// decodeFile cuts a skill file at its frontmatter block and decodes the block:
// the frontmatter as parseFrontmatterYAML gives it, and the body.
func decodeFile(data []byte) (fm map[string]any, body []byte, err error) {
	split, err := splitFrontmatter(data)
	if err != nil {
		return nil, nil, err
	}
	if fm, err = parseFrontmatterYAML(split.Front); err != nil {
		return nil, nil, err
	}
	return fm, split.Body, nil
}

// decodeSkillFile is decodeFile for the index, which reads file after file
// into one buffer: the strings of fm are cut from data itself, not copied
// (at 10,000 skills a copy of each block was 3 MB of a build's garbage), so
// they are valid only until data changes; whatever a skill keeps is copied
// (detachStrings) before its file's buffer is read into again.
func decodeSkillFile(data []byte) (fm map[string]any, body []byte, err error) {
	split, err := splitFrontmatter(data)
	if err != nil {
		return nil, nil, err
	}
	front := unsafe.String(unsafe.SliceData(split.Front), len(split.Front))
	if fm, ok := fastFrontmatterOf(front); ok {
		return fm, split.Body, nil
	}
	if fm, err = yamlFrontmatter(split.Front); err != nil {
		return nil, nil, err
	}
	return fm, split.Body, nil
}

// parseFrontmatterYAML decodes the YAML of a frontmatter block into a JSON-safe
// map. An empty block is an empty map; a block that is not a mapping is an error.
// Blocks in the plain subset skill files use are decoded by fastFrontmatter,
// which gives exactly what yaml.v2 gives; any other block goes to yaml.v2.
func parseFrontmatterYAML(front []byte) (map[string]any, error) {
	if m, ok := fastFrontmatter(front); ok {
		return m, nil
	}
	return yamlFrontmatter(front)
}

// yamlFrontmatter decodes a frontmatter block with decodeFrontmatterNodes:
// YAML 1.2 as the reference implementation reads it, keys and text fields as
// written, merge keys merged.
func yamlFrontmatter(front []byte) (m map[string]any, err error) {
	// the YAML decoder is third-party code fed with repository content: a
	// panic on a malformed file must cost that file only, never the server.
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("parsing frontmatter: yaml decoder panicked: %v", r)
		}
	}()
	raw, err := decodeFrontmatterNodes(front)
	if err != nil {
		return nil, fmt.Errorf("parsing frontmatter: %w", err)
	}
	switch v := plainValue(raw).(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return v, nil
	default:
		return nil, fmt.Errorf("parsing frontmatter: not a mapping but %T", v)
	}
}
