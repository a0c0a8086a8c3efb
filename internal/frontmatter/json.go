package frontmatter

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/jsonstr"
)

// ToJSON renders the YAML frontmatter block of a Markdown file as a
// JSON object whose keys, at every level, keep their order in the file; scalar
// values are those of the index (timestamps stay strings, non-string keys are
// printed). It fails when the file has no frontmatter block, the block is not
// a mapping, or it holds a value JSON cannot carry (.inf, .nan).
func ToJSON(data []byte) (out json.RawMessage, err error) {
	split, err := Split(data)
	if err != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: %w", err)
	}
	defer func() { // the YAML decoder on repository content: a panic costs this file only
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("rendering frontmatter as JSON: yaml decoder panicked: %v", r)
		}
	}()
	doc, err := DecodeNodes(split.Front)
	if err != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: %w", err)
	}
	if _, ok := doc.(*Map); !ok && doc != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: not a mapping")
	}
	var buf strings.Builder
	if doc == nil {
		doc = &Map{vals: map[string]any{}}
	}
	if err := writeOrderedJSON(&buf, doc); err != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: %w", err)
	}
	return json.RawMessage(buf.String()), nil
}

// writeOrderedJSON writes v, a value of DecodeNodes, as JSON,
// keeping the order of every mapping.
func writeOrderedJSON(buf *strings.Builder, v any) error {
	switch t := v.(type) {
	case *Map:
		buf.WriteByte('{')
		for i, key := range t.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			jsonstr.Write(buf, key, true) // as json.Marshal writes it
			buf.WriteByte(':')
			if err := writeOrderedJSON(buf, t.vals[key]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case []any:
		buf.WriteByte('[')
		for i, item := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeOrderedJSON(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return err
		}
		buf.Write(data)
		return nil
	}
}
