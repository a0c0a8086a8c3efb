package frontmatter

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// textFields are the frontmatter values the formats (spec 000, Agent Skills)
// define as text, by path: keys joined with `.`, `[]` for a list entry, `.*`
// any key below. Their plain scalars keep the text they are written as
// (`description: yes`, `version: 1.10`, `2024-01-01`).
var textFields = map[string]bool{
	"name": true, "description": true, "license": true, "compatibility": true, "version": true,
	"allowed-tools": true, "allowed-tools[]": true, "keywords[]": true, "metadata.*": true,
	"assets[]": true, "assets[].file": true, "assets[].description": true, "assets[].type": true,
	"scripts[]": true, "scripts[].file": true, "scripts[].description": true, "scripts[].execution": true,
	"scripts[].args[]": true, "scripts[].args[].name": true, "scripts[].args[].description": true,
}

// TextField reports whether the frontmatter value at path (keys joined with
// `.`, `[]` for a list entry: `keywords[]`, `metadata.version`) is one the
// formats define as text: the index serves its plain scalars as written, and
// validate warns where YAML 1.1 readers would read them otherwise.
func TextField(path string) bool {
	if textFields[path] {
		return true
	}
	top, _, nested := strings.Cut(path, ".")
	return nested && textFields[top+".*"]
}

// maxAliasExpansions bounds the aliases followed in one block, and
// maxNodeVisits the values built from it: a billion-laughs block is refused,
// not expanded.
const (
	maxAliasExpansions = 10000
	maxNodeVisits      = 200000
)

// errAliasBomb is why a block whose aliases expand too far is refused.
var errAliasBomb = errors.New("aliases expand to too many values")

// Map is a mapping with its keys in file order.
type Map struct {
	keys []string
	vals map[string]any
}

// set puts key, keeping its first position when it repeats (the last value wins).
func (m *Map) set(key string, v any) {
	if _, seen := m.vals[key]; !seen {
		m.keys = append(m.keys, key)
	}
	m.vals[key] = v
}

// DecodeNodes decodes a frontmatter block as the server reads it:
// YAML 1.2's core schema (yes, on, no, off are text; y and n too), every
// mapping key as written (`00:` and `0:` are two keys, `on:` is "on"),
// merge keys (`<<: *base`) merged with the explicit keys winning, timestamps
// as written, and the values the formats define as text (TextField) as
// written whatever they look like. Mappings are orderedMaps, sequences []any.
func DecodeNodes(front []byte) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return nil, err
	}
	c := &nodeConverter{}
	return c.value(&doc, "", 0)
}

// nodeConverter turns yaml.v3 nodes into values, counting alias expansions
// and values built.
type nodeConverter struct{ expansions, visits int }

// value converts n, found at path (see TextField).
func (c *nodeConverter) value(n *yaml.Node, path string, depth int) (any, error) {
	if depth > 10000 {
		return nil, errors.New("nested too deeply")
	}
	if c.visits++; c.visits > maxNodeVisits {
		return nil, errAliasBomb
	}
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], path, depth+1)
	case yaml.AliasNode:
		if c.expansions++; c.expansions > maxAliasExpansions {
			return nil, errAliasBomb
		}
		return c.value(n.Alias, path, depth+1)
	case yaml.MappingNode:
		return c.mapping(n, path, depth)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item, path+"[]", depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	default:
		return scalarValue(n, path)
	}
}

// mapping converts a mapping node: its explicit keys in order, then the keys
// of its merge keys (`<<`) that it does not set itself, earlier merges first.
func (c *nodeConverter) mapping(n *yaml.Node, path string, depth int) (*Map, error) {
	m := &Map{vals: map[string]any{}}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, err := c.keyText(k, depth)
		if err != nil {
			return nil, err
		}
		val, err := c.value(v, joinKey(path, key), depth+1)
		if err != nil {
			return nil, err
		}
		m.set(key, val)
	}
	for _, mv := range merges {
		if mv.Kind == yaml.AliasNode {
			if c.expansions++; c.expansions > maxAliasExpansions {
				return nil, errAliasBomb
			}
			mv = mv.Alias
		}
		sources := []*yaml.Node{mv}
		if mv.Kind == yaml.SequenceNode {
			sources = mv.Content
		}
		for _, src := range sources {
			if src.Kind == yaml.AliasNode {
				src = src.Alias
			}
			if src.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: a merge key (<<) needs a mapping or a list of mappings", mv.Line)
			}
			merged, err := c.mapping(src, path, depth+1)
			if err != nil {
				return nil, err
			}
			for _, key := range merged.keys {
				if _, set := m.vals[key]; !set {
					m.set(key, merged.vals[key])
				}
			}
		}
	}
	return m, nil
}

// keyText is a mapping key as written: a scalar's text (an empty key is
// ""), any other key printed.
func (c *nodeConverter) keyText(k *yaml.Node, depth int) (string, error) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind == yaml.ScalarNode {
		return k.Value, nil
	}
	v, err := c.value(k, "", depth+1)
	if err != nil {
		return "", err
	}
	return fmt.Sprint(plainValue(v)), nil
}

// scalarValue is a scalar as the server reads it: null as nil; in a text
// field, the text as written; otherwise strings and timestamps as written,
// booleans, integers (int, or uint64 and float64 beyond), and finite floats.
func scalarValue(n *yaml.Node, path string) (any, error) {
	tag := n.ShortTag()
	switch {
	case tag == "!!null":
		return nil, nil
	case TextField(path), tag == "!!str", tag == "!!timestamp":
		return n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("line %d: %w", n.Line, err)
	}
	switch t := v.(type) {
	case bool, int, int64, uint64, float64, string:
		return t, nil
	case []byte: // !!binary
		return string(t), nil
	default:
		return n.Value, nil
	}
}

// joinKey appends key to path.
func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// plainValue turns orderedMaps into map[string]any, recursively.
func plainValue(v any) any {
	switch t := v.(type) {
	case *Map:
		out := make(map[string]any, len(t.keys))
		for _, k := range t.keys {
			out[k] = plainValue(t.vals[k])
		}
		return out
	case []any:
		for i := range t {
			t[i] = plainValue(t[i])
		}
		return t
	default:
		return t
	}
}
