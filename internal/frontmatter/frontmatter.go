package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"unsafe"
)

var (
	// ErrNoFrontmatter: the file does not open with a `---` line.
	ErrNoFrontmatter = errors.New("no frontmatter block")
	// ErrUnterminated: the `---` block is never closed.
	ErrUnterminated = errors.New("frontmatter block is not closed")
)

// BOM is the byte-order mark some editors write before the first line.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// Parts is a Markdown file cut at its frontmatter delimiters. The four
// parts concatenated are the input, byte for byte.
type Parts struct {
	// Open is the optional BOM and the opening `---` line, newline included.
	Open []byte
	// Front is the YAML between the delimiter lines.
	Front []byte
	// Close is the closing `---` line, its newline included when there is one.
	Close []byte
	// Body is every byte after the closing line.
	Body []byte
}

// Split cuts data into its frontmatter block and body. The block opens
// on the first line (after an optional UTF-8 BOM) and closes at the next line that
// is exactly `---`; both delimiter lines may carry trailing spaces, tabs or `\r`.
// It fails with ErrNoFrontmatter or ErrUnterminated.
func Split(data []byte) (Parts, error) {
	start := 0
	if bytes.HasPrefix(data, BOM) {
		start = len(BOM)
	}
	line, next, hasNL := CutLine(data, start)
	if !IsDelimiter(line) {
		return Parts{}, ErrNoFrontmatter
	}
	if !hasNL {
		return Parts{}, ErrUnterminated
	}
	frontStart := next
	for pos := frontStart; pos < len(data); {
		line, next, _ := CutLine(data, pos)
		if IsDelimiter(line) {
			return Parts{
				Open:  data[:frontStart],
				Front: data[frontStart:pos],
				Close: data[pos:next],
				Body:  data[next:],
			}, nil
		}
		pos = next
	}
	return Parts{}, ErrUnterminated
}

// CutLine returns the line starting at from (without its newline), the offset
// just past the newline (or len(data)), and whether a newline ended the line.
func CutLine(data []byte, from int) (line []byte, next int, hasNL bool) {
	if i := bytes.IndexByte(data[from:], '\n'); i >= 0 {
		return data[from : from+i], from + i + 1, true
	}
	return data[from:], len(data), false
}

// IsDelimiter reports a `---` line, ignoring trailing spaces, tabs and `\r`.
func IsDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// decodeFile cuts a skill file at its frontmatter block and decodes the block:
// the frontmatter as ParseYAML gives it, and the body.
func decodeFile(data []byte) (fm map[string]any, body []byte, err error) {
	split, err := Split(data)
	if err != nil {
		return nil, nil, err
	}
	if fm, err = ParseYAML(split.Front); err != nil {
		return nil, nil, err
	}
	return fm, split.Body, nil
}

// DecodeSkillFile is decodeFile for the index, which reads file after file
// into one buffer: the strings of fm are cut from data itself, not copied
// (at 10,000 skills a copy of each block was 3 MB of a build's garbage), so
// they are valid only until data changes; whatever a skill keeps is copied
// (detachStrings) before its file's buffer is read into again.
func DecodeSkillFile(data []byte) (fm map[string]any, body []byte, err error) {
	split, err := Split(data)
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

// ParseYAML decodes the YAML of a frontmatter block into a JSON-safe
// map. An empty block is an empty map; a block that is not a mapping is an error.
// Blocks in the plain subset skill files use are decoded by fastFrontmatter,
// which gives exactly what the full decoder (yamlFrontmatter, YAML 1.2)
// gives; any other block goes to that decoder.
func ParseYAML(front []byte) (map[string]any, error) {
	if m, ok := fastFrontmatter(front); ok {
		return m, nil
	}
	return yamlFrontmatter(front)
}

// yamlFrontmatter decodes a frontmatter block with DecodeNodes:
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
	raw, err := DecodeNodes(front)
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
