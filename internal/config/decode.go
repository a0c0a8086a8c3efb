package config

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// decoder walks the YAML node tree against a typed destination, so that every
// problem names its dotted key and its line, and goes on past a problem: a
// file's problems are all reported at once. A value at fault keeps its default.
type decoder struct {
	file     string
	errors   []Problem
	warnings []Problem
	// lines maps each dotted key (and list item) that was read to its line,
	// for the range checks of Validate, which see values only.
	lines map[string]int
}

func (d *decoder) fail(line int, key, format string, args ...any) {
	d.errors = append(d.errors, Problem{File: d.file, Line: line, Key: orTop(key), Message: fmt.Sprintf(format, args...)})
}

func (d *decoder) warn(line int, key, format string, args ...any) {
	d.warnings = append(d.warnings, Problem{File: d.file, Line: line, Key: orTop(key), Message: fmt.Sprintf(format, args...)})
}

// into decodes the document node over the value dst points to.
func (d *decoder) into(dst any, doc *yaml.Node) {
	d.value(reflect.ValueOf(dst).Elem(), doc, "", doc.Line)
}

// value decodes n into v; key is the dotted path so far and line the line of
// the key (or list item) that holds n.
func (d *decoder) value(v reflect.Value, n *yaml.Node, key string, line int) {
	n = resolveAlias(n)
	if n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" { // `key:` with no value keeps the default
		return
	}
	if key != "" {
		d.lines[key] = line
	}
	switch v.Kind() {
	case reflect.Struct:
		d.structure(v, n, key, line)
	case reflect.Bool:
		d.boolean(v, n, key, line)
	case reflect.Int, reflect.Int64:
		if i, ok := wholeNumber(n); ok {
			v.SetInt(i)
		} else {
			d.fail(line, key, "want a whole number, got %s", DescribeNode(n))
		}
	case reflect.Float64:
		if f, ok := number(n); ok {
			v.SetFloat(f)
		} else {
			d.fail(line, key, "want a number, got %s", DescribeNode(n))
		}
	case reflect.String:
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
			v.SetString(n.Value)
		} else {
			d.fail(line, key, "want a string, got %s", DescribeNode(n))
		}
	case reflect.Slice:
		d.list(v, n, key, line)
	case reflect.Map:
		d.mapping(v, n, key, line)
	default:
		d.fail(line, key, "unsupported setting type %s", v.Kind())
	}
}

// boolean takes true and false, and also the YAML 1.1 words (yes, no, on,
// off, y, n) a file written for the earlier YAML library may hold, with a
// warning: YAML 1.2 readers take them for strings.
func (d *decoder) boolean(v reflect.Value, n *yaml.Node, key string, line int) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				v.SetBool(b)
				return
			}
		case "!!str":
			if b, ok := yaml11Bools[strings.ToLower(n.Value)]; ok && n.Style == 0 {
				v.SetBool(b)
				d.warn(line, key, "%q is a boolean only in YAML 1.1; write %v", n.Value, b)
				return
			}
		}
	}
	d.fail(line, key, "want true or false, got %s", DescribeNode(n))
}

// yaml11Bools are the plain words YAML 1.1 reads as booleans besides true and
// false (in any case: y, Y, yes, Yes, YES, …).
var yaml11Bools = map[string]bool{"y": true, "yes": true, "on": true, "n": false, "no": false, "off": false}

func (d *decoder) structure(v reflect.Value, n *yaml.Node, key string, line int) {
	if n.Kind != yaml.MappingNode {
		d.fail(line, key, "want a mapping, got %s", DescribeNode(n))
		return
	}
	fields := map[string]int{}
	for i := 0; i < v.NumField(); i++ {
		if tag := strings.Split(v.Type().Field(i).Tag.Get("yaml"), ",")[0]; tag != "" {
			fields[tag] = i
		}
	}
	d.entries(n, key, func(k string, kn, vn *yaml.Node) {
		child := join(key, k)
		i, known := fields[k]
		if !known {
			d.warn(kn.Line, child, "unknown key (ignored)")
			return
		}
		d.value(v.Field(i), vn, child, kn.Line)
	})
}

// entries calls each for every pair of the mapping n, in file order, with the
// key as text; a key defined twice is an error and its second value ignored.
func (d *decoder) entries(n *yaml.Node, key string, each func(k string, kn, vn *yaml.Node)) {
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := resolveAlias(n.Content[i]), n.Content[i+1]
		k := kn.Value
		if first, dup := seen[k]; dup {
			d.fail(kn.Line, join(key, k), "defined twice (first at line %d); the second is ignored", first)
			continue
		}
		seen[k] = kn.Line
		each(k, kn, vn)
	}
}

func (d *decoder) list(v reflect.Value, n *yaml.Node, key string, line int) {
	if n.Kind != yaml.SequenceNode {
		d.fail(line, key, "want a list, got %s", DescribeNode(n))
		return
	}
	out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		d.value(out.Index(i), item, fmt.Sprintf("%s[%d]", key, i), item.Line)
	}
	v.Set(out)
}

// mapping merges into the map: defaults stay unless a key overrides them.
func (d *decoder) mapping(v reflect.Value, n *yaml.Node, key string, line int) {
	if n.Kind != yaml.MappingNode {
		d.fail(line, key, "want a mapping, got %s", DescribeNode(n))
		return
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	d.entries(n, key, func(k string, kn, vn *yaml.Node) {
		elem := reflect.New(v.Type().Elem()).Elem()
		if existing := v.MapIndex(reflect.ValueOf(k)); existing.IsValid() {
			elem.Set(existing)
		}
		before := len(d.errors)
		d.value(elem, vn, join(key, k), kn.Line)
		if len(d.errors) == before { // a value at fault leaves the map as it was
			v.SetMapIndex(reflect.ValueOf(k), elem)
		}
	})
}

// resolveAlias follows an alias (`*name`) to the node it names.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// wholeNumber reads an integer, or a float without a fractional part that a
// float64 holds exactly.
func wholeNumber(n *yaml.Node) (int64, bool) {
	if n.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch n.ShortTag() {
	case "!!int":
		var i int64
		return i, n.Decode(&i) == nil
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true
		}
	}
	return 0, false
}

func number(n *yaml.Node) (float64, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" && n.ShortTag() != "!!float" {
		return 0, false
	}
	var f float64
	return f, n.Decode(&f) == nil
}

// DescribeNode says what a YAML value is, for a message that wants another
// kind ("want a number, got the string \"x\""): a list, a mapping, the
// string, boolean, number or date with its text, or no value. The one
// description of YAML values for the settings and for validate's checks of
// skill files.
func DescribeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	switch n.ShortTag() {
	case "!!str":
		return fmt.Sprintf("the string %q", n.Value)
	case "!!bool":
		return "the boolean " + n.Value
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!timestamp":
		return "the date " + n.Value
	case "!!null":
		return "no value"
	default:
		return n.Value
	}
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func orTop(key string) string {
	if key == "" {
		return "(top level)"
	}
	return key
}

// reflectElem is the value a pointer points to.
func reflectElem(ptr any) reflect.Value { return reflect.ValueOf(ptr).Elem() }
