package validate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
	"go.yaml.in/yaml/v3"
)

// checkYAML11 warns where YAML 1.1 readers (PyYAML, the official SDKs, and
// goldmark-meta, whose reading f.yaml11 is) would read a plain scalar
// differently: in a field the formats define as text, any value they do not
// read as that text (`description: yes` is the boolean true, `version: 1.10`
// the number 1.1, `2024-01-01` a date, `null` nothing); in any other field,
// a value YAML 1.1 and YAML 1.2 (this server) read as different kinds
// (`on`: true, or the string "on"). Each warning says how to write it.
// Values checkFields already reported (skip) are left alone.
func (f *skillFile) checkYAML11(skip map[*yaml.Node]bool) {
	if f.front == nil || f.yaml11 == nil {
		return
	}
	v11 := make(map[any]any, len(f.yaml11))
	for k, v := range f.yaml11 {
		v11[k] = v
	}
	f.walk11(f.front, v11, "", "", skip)
}

// walk11 walks the node n and the YAML 1.1 value v together. path names
// the field with `[]` for list entries (keywords[]), exact with the
// indices (keywords[1]); each exact path reported on goes in f.covered.
func (f *skillFile) walk11(n *yaml.Node, v any, path, exact string, skip map[*yaml.Node]bool) {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		m, ok := v.(map[any]any)
		if !ok {
			return // the two readings disagree on the shape: the YAML 1.1 key check below covers the usual cause
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Style == 0 && k.Value == "<<" {
				f.add("warning", f.lineOf(k), "%s: merge keys (<<) are YAML 1.1 only: this server and YAML 1.1 readers merge the keys in, YAML 1.2 readers need not; write the keys out",
					orTopKey(path))
				f.cover(exact)
				continue
			}
			f.checkKey11(k, exact)
			if v, found := mapValue(m, k.Value); found {
				f.walk11(n.Content[i+1], v, joinPath(path, k.Value), joinPath(exact, k.Value), skip)
			}
		}
	case yaml.SequenceNode:
		items, ok := v.([]any)
		if !ok || len(items) != len(n.Content) {
			return
		}
		for i, item := range n.Content {
			f.walk11(item, items[i], path+"[]", fmt.Sprintf("%s[%d]", exact, i), skip)
		}
	case yaml.ScalarNode:
		switch {
		case skip[n]:
			f.cover(exact) // reported as an error already
		case n.Style != 0:
			// quoted and block scalars are strings to every reader
		case f.checkScalar11(n, v, path):
			f.cover(exact)
		}
	}
}

// cover records that the value at the exact path was reported on.
func (f *skillFile) cover(exact string) {
	if f.covered == nil {
		f.covered = map[string]bool{}
	}
	f.covered[exact] = true
}

// checkScalar11 compares the readings of one plain scalar and reports
// whether it warned.
func (f *skillFile) checkScalar11(n *yaml.Node, v any, path string) bool {
	read11, isText11 := reading11(n, v)
	key := path
	if strings.HasSuffix(key, "[]") {
		key = strings.TrimSuffix(key, "[]") + " entry"
	}
	if frontmatter.TextField(path) {
		if isText11 {
			return false
		}
		f.add("warning", f.lineOf(n), "%s: YAML 1.1 readers (PyYAML, the official SDKs) read %s as %s, not as text; quote it: %s",
			key, n.Value, read11, quoted(n.Value))
		return true
	}
	if isText11 == (n.ShortTag() == "!!str") {
		return false
	}
	hint := "quote it (" + quoted(n.Value) + ") if you mean the text"
	if b, word := yaml11BoolWords[strings.ToLower(n.Value)]; word {
		hint = fmt.Sprintf("write %v for a boolean, or quote it (%s) for the text", b, quoted(n.Value))
	}
	f.add("warning", f.lineOf(n), "%s: YAML 1.1 readers (PyYAML, the official SDKs) read %s as %s, this server as %s; %s",
		key, n.Value, read11, config.DescribeNode(n), hint)
	return true
}

// checkKey11 warns about a plain mapping key that YAML readers do not read
// as its text: a number (`00:` is the key 0, and collides with `0:`), null,
// a boolean, or a YAML 1.1-only boolean word (`on:` is the key true in YAML
// 1.1). Both spellings of the key's path are covered.
func (f *skillFile) checkKey11(k *yaml.Node, exact string) {
	if k.Kind != yaml.ScalarNode || k.Style != 0 {
		return
	}
	var read string
	var as any
	if b, word := yaml11BoolWords[strings.ToLower(k.Value)]; word {
		read, as = fmt.Sprintf("YAML 1.1 readers (PyYAML, the official SDKs) read it as the boolean %v", b), b
	} else if k.ShortTag() != "!!str" {
		if k.Decode(&as) != nil {
			return
		}
		read = "YAML readers read it as " + config.DescribeNode(k)
	} else {
		return
	}
	f.add("warning", f.lineOf(k), "key %s: %s, not as text; quote it: %s:", k.Value, read, quoted(k.Value))
	f.cover(joinPath(exact, k.Value))
	f.cover(joinPath(exact, fmt.Sprint(as)))
}

// mapValue finds key in a YAML 1.1 mapping, whose keys may be non-strings.
func mapValue(m map[any]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if _, isString := k.(string); !isString && fmt.Sprint(k) == key {
			return v, true
		}
	}
	return nil, false
}

// sexagesimal is YAML 1.1's base-60 number (`1:20` is 80), which PyYAML
// reads and yaml.v2 does not.
var sexagesimal = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$`)

// reading11 says how YAML 1.1 reads the plain scalar n whose yaml.v2 value is
// v, and whether that is the text itself. YAML 1.1's timestamps and base-60
// numbers count although yaml.v2 leaves them as text: PyYAML does not.
func reading11(n *yaml.Node, v any) (string, bool) {
	switch {
	case n.ShortTag() == "!!timestamp":
		return "a date", false
	case sexagesimal.MatchString(n.Value):
		return "a number in base 60", false
	}
	switch t := v.(type) {
	case string:
		return strconv.Quote(t), t == n.Value
	case bool:
		return fmt.Sprintf("the boolean %v", t), false
	case nil:
		return "null (no value)", false
	case int, int64, uint64, float64:
		return fmt.Sprintf("the number %v", t), false
	default:
		return fmt.Sprintf("%v", t), false
	}
}

func orTopKey(path string) string {
	if path == "" {
		return "frontmatter"
	}
	return path
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// quoted writes s as a YAML double-quoted scalar.
func quoted(s string) string { return strconv.Quote(s) }
