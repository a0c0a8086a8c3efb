package frontmatter

import "bytes"

// Block cuts a skill file where the index cuts it: front is the
// YAML between the delimiter lines, line the 1-based line of the file front
// starts on, body every byte after the closing delimiter. It fails as the
// index does on a file without a closed block. The slices share data's bytes.
func Block(data []byte) (front []byte, line int, body []byte, err error) {
	split, err := Split(data)
	if err != nil {
		return nil, 0, nil, err
	}
	return split.Front, bytes.Count(split.Open, []byte("\n")) + 1, split.Body, nil
}

// Read decodes the frontmatter of a skill file exactly as the index
// reads it to serve the skill: maps keyed by strings, []any for sequences,
// YAML 1.2 booleans. validate compares it with what YAML 1.1 readers see.
func Read(data []byte) (map[string]any, error) {
	fm, _, err := decodeFile(data)
	return fm, err
}
