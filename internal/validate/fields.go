package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// checkFields checks the frontmatter fields whose values the formats
// enumerate or type (priority, inherit, keywords, assets, scripts with their
// execution, needs and args): a wrong value is an error, because the server would
// silently serve something else (`inherit: no` is the string "no", which
// does not turn inheritance off). A declared asset or script missing on disk
// is an error too. It returns the value nodes it reported on, which the
// YAML 1.1 check leaves alone.
func (f *skillFile) checkFields(rel func(string) string) map[*yaml.Node]bool {
	bad := map[*yaml.Node]bool{}
	fail := func(n *yaml.Node, format string, args ...any) {
		bad[n] = true
		f.add("error", f.lineOf(n), format, args...)
	}
	if k, v := f.field("priority"); k != nil && !isNull(v) && !isNumber(v) {
		fail(v, "priority: want a number, got %s", config.DescribeNode(v))
	}
	if k, v := f.field("inherit"); k != nil && !isNull(v) && !isBool(v) {
		fail(v, "inherit: want true or false, got %s%s", config.DescribeNode(v), boolHint(v))
	}
	if k, v := f.field("keywords"); k != nil && !isNull(v) {
		if v.Kind != yaml.SequenceNode {
			fail(v, "keywords: want a list of words (keywords: [deploy, release]), got %s", config.DescribeNode(v))
		} else {
			for i, item := range v.Content {
				if item = resolve(item); item.Kind != yaml.ScalarNode || isNull(item) {
					fail(item, "keywords[%d]: want a word, got %s", i, config.DescribeNode(item))
				}
			}
		}
	}
	dir := resourceDir(f.skill)
	f.entries("assets", "file", func(i int, item, file *yaml.Node, fields *yaml.Node) {
		if file == nil {
			fail(item, "assets[%d]: want a file (a path, or a mapping with file:), got %s", i, config.DescribeNode(item))
			return
		}
		f.checkOnDisk("asset", file, dir, rel, bad)
		if fields != nil {
			if _, t := lookup(fields, "type"); t != nil && !isNull(t) && !isString(t) {
				fail(t, "assets[%d].type: want a word such as template, got %s", i, config.DescribeNode(t))
			}
		}
	}, fail)
	f.entries("scripts", "file", func(i int, item, file *yaml.Node, fields *yaml.Node) {
		if file == nil {
			fail(item, "scripts[%d]: want a file (a path, or a mapping with file:), got %s", i, config.DescribeNode(item))
			return
		}
		f.checkOnDisk("script", file, dir, rel, bad)
		if fields == nil {
			return
		}
		if _, e := lookup(fields, "execution"); e != nil && !isNull(e) && (!isString(e) || e.Value != core.ExecutionClaude && e.Value != core.ExecutionServer) {
			fail(e, "scripts[%d].execution: want %q or %q, got %s", i, core.ExecutionClaude, core.ExecutionServer, config.DescribeNode(e))
		}
		f.needs(i, fields, fail)
		f.args(i, fields, fail)
	}, fail)
	return bad
}

// entries walks the list under a top-level key (assets, scripts): each item
// is a path or a mapping holding nameKey. each gets the item, the node of
// its path (nil when there is none) and its mapping (nil for a bare path).
func (f *skillFile) entries(key, nameKey string, each func(i int, item, name, fields *yaml.Node), fail func(*yaml.Node, string, ...any)) {
	k, v := f.field(key)
	if k == nil || isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		fail(v, "%s: want a list, got %s", key, config.DescribeNode(v))
		return
	}
	for i, item := range v.Content {
		item = resolve(item)
		switch {
		case item.Kind == yaml.ScalarNode && isString(item) && item.Value != "":
			each(i, item, item, nil)
		case item.Kind == yaml.MappingNode:
			if _, name := lookup(item, nameKey); name != nil && isString(name) && name.Value != "" {
				each(i, item, name, item)
			} else {
				each(i, item, nil, item)
			}
		default:
			each(i, item, nil, nil)
		}
	}
}

// needs checks what script i says it needs (issue 28): a list of known
// needs, today only "network", which a server that denies scripts the
// network refuses before the run starts.
func (f *skillFile) needs(i int, script *yaml.Node, fail func(*yaml.Node, string, ...any)) {
	_, v := lookup(script, "needs")
	if v == nil || isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		fail(v, "scripts[%d].needs: want a list such as [%s], got %s", i, core.NeedNetwork, config.DescribeNode(v))
		return
	}
	for j, item := range v.Content {
		if item = resolve(item); !isString(item) || item.Value != core.NeedNetwork {
			fail(item, "scripts[%d].needs[%d]: want %q (the only need a script declares), got %s", i, j, core.NeedNetwork, config.DescribeNode(item))
		}
	}
}

// args checks the argument list of script i.
func (f *skillFile) args(i int, script *yaml.Node, fail func(*yaml.Node, string, ...any)) {
	_, v := lookup(script, "args")
	if v == nil || isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		fail(v, "scripts[%d].args: want a list, got %s", i, config.DescribeNode(v))
		return
	}
	for j, arg := range v.Content {
		arg = resolve(arg)
		switch {
		case arg.Kind == yaml.ScalarNode && isString(arg) && arg.Value != "":
		case arg.Kind == yaml.MappingNode:
			if _, name := lookup(arg, "name"); name == nil || !isString(name) || name.Value == "" {
				fail(arg, "scripts[%d].args[%d]: want a name:", i, j)
			}
			if _, r := lookup(arg, "required"); r != nil && !isNull(r) && !isBool(r) {
				fail(r, "scripts[%d].args[%d].required: want true or false, got %s%s", i, j, config.DescribeNode(r), boolHint(r))
			}
		default:
			fail(arg, "scripts[%d].args[%d]: want a name (a word, or a mapping with name:), got %s", i, j, config.DescribeNode(arg))
		}
	}
}

// checkOnDisk reports a declared file that is not a regular file in the
// skill's resource directory: an error, or a note when a build recipe names
// it (buildRecipe). Paths the index refuses (absolute, `..`) are
// its to report.
func (f *skillFile) checkOnDisk(kind string, file *yaml.Node, dir string, rel func(string) string, bad map[*yaml.Node]bool) {
	if confine.CheckRelPath(file.Value) != nil {
		return
	}
	abs := filepath.Join(dir, filepath.FromSlash(file.Value))
	if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
		return
	}
	bad[file] = true
	if recipe, ok := buildRecipe(abs); ok { // a build product: absent from a fresh clone, made by the recipe
		f.add("note", f.lineOf(file), "declared %s %q is a build product named in %s; build it before serving", kind, file.Value, rel(recipe))
		return
	}
	f.add("error", f.lineOf(file), "declared %s %q does not exist: no file %s", kind, file.Value, rel(abs))
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func isNumber(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float")
}

func isBool(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" }

func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

// boolHint explains a YAML 1.1 boolean word written where a boolean belongs.
func boolHint(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || n.Style != 0 {
		return ""
	}
	if b, ok := yaml11BoolWords[strings.ToLower(n.Value)]; ok {
		return fmt.Sprintf(" (only YAML 1.1 reads %s as a boolean; write %v)", n.Value, b)
	}
	return ""
}

// yaml11BoolWords are the words YAML 1.1 reads as booleans and YAML 1.2 as
// strings.
var yaml11BoolWords = map[string]bool{"y": true, "yes": true, "on": true, "n": false, "no": false, "off": false}
