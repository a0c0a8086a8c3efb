package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark"
	meta "github.com/yuin/goldmark-meta"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v3"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// skillFile is one served skill file read for validate's own checks: its
// frontmatter as a YAML node tree (for lines and source text), its YAML 1.1
// reading through goldmark-meta, and its Markdown document through goldmark.
type skillFile struct {
	skill *core.Skill
	name  string // the file as findings name it
	data  []byte
	// front is the frontmatter's node tree (nil when YAML 1.2 cannot read
	// it); frontLine is the file's line of the first line of the block.
	front     *yaml.Node
	frontLine int
	// yaml11 is the frontmatter as goldmark-meta (yaml.v2, YAML 1.1) reads
	// it; nil when it cannot, or cuts the block elsewhere than the index.
	yaml11 map[string]any
	// doc is the Markdown document, whose source is md: data without a
	// leading BOM (goldmark-meta would not see the block behind one).
	doc      ast.Node
	md       []byte
	findings []Finding
	// covered are the exact frontmatter paths (keywords[1], metadata.a)
	// whose value a Finding is about: where the YAML 1.1 reading and the
	// server's may differ without a word (FuzzFrontmatterReadings).
	covered map[string]bool
}

// markdown is goldmark with goldmark-meta: the parser of validate's checks.
var markdown = goldmark.New(goldmark.WithExtensions(meta.Meta))

// readSkillFile reads a served skill's file; a file that changed since the
// index read it into something the index would not serve gives nil.
func readSkillFile(sk *core.Skill, name string) *skillFile {
	data, err := os.ReadFile(sk.AbsPath)
	if err != nil {
		return nil
	}
	return newSkillFile(sk, name, data)
}

// newSkillFile parses the bytes of a skill file; nil when the index would not
// find a frontmatter block in them.
func newSkillFile(sk *core.Skill, name string, data []byte) *skillFile {
	front, line, _, err := frontmatter.Block(data)
	if err != nil {
		return nil
	}
	f := &skillFile{skill: sk, name: name, data: data, frontLine: line}
	var doc yaml.Node
	switch err := unmarshalNode(front, &doc); {
	case err != nil:
		f.add("warning", line, "YAML 1.2 readers, this server among them, reject this frontmatter (%s); YAML 1.1 readers accept it", strings.TrimPrefix(err.Error(), "yaml: "))
	case len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode:
		f.front = doc.Content[0]
	}
	f.md = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	f.doc, f.yaml11 = parseMarkdown(f.md, front)
	return f
}

// unmarshalNode is yaml.Unmarshal into a node that turns a panic of the
// decoder on hostile input into an error.
func unmarshalNode(data []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml decoder panicked: %v", r)
		}
	}()
	return yaml.Unmarshal(data, n)
}

// parseMarkdown parses data with goldmark and goldmark-meta; yaml11 is the
// metadata when goldmark-meta read exactly the block front (it ends a block
// at any line of dashes, the index only at `---`) without error. Both are nil
// when the parser panics.
func parseMarkdown(data, front []byte) (doc ast.Node, yaml11 map[string]any) {
	defer func() { // yaml.v2 under goldmark-meta on repository content: a panic costs this file's checks only
		if recover() != nil {
			doc, yaml11 = nil, nil
		}
	}()
	ctx := parser.NewContext()
	doc = markdown.Parser().Parse(text.NewReader(data), parser.WithContext(ctx))
	m, err := meta.TryGet(ctx)
	if err != nil || m == nil || cutsEarly(front) {
		return doc, nil
	}
	return doc, m
}

// cutsEarly reports a block holding a line goldmark-meta takes for its end: a
// line of only dashes, spaces and tabs.
func cutsEarly(front []byte) bool {
	for line := range bytes.Lines(front) {
		if t := bytes.Trim(line, " \t\r\n"); len(t) > 0 && len(bytes.Trim(t, "-")) == 0 {
			return true
		}
	}
	return false
}

// lineOf turns a line of the frontmatter block into a line of the file.
func (f *skillFile) lineOf(n *yaml.Node) int { return f.frontLine + n.Line - 1 }

func (f *skillFile) add(severity string, line int, format string, args ...any) {
	f.findings = append(f.findings, Finding{File: f.name, Line: max(line, 1), Severity: severity, Message: fmt.Sprintf(format, args...)})
}

// field returns the value node of a top-level frontmatter key and the node
// of the key itself, or nils.
func (f *skillFile) field(key string) (k, v *yaml.Node) {
	if f.front == nil {
		return nil, nil
	}
	return lookup(f.front, key)
}

// lookup returns the key and value nodes of key in the mapping n.
func lookup(n *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], resolve(n.Content[i+1])
		}
	}
	return nil, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// resourceDir is where a skill's declared files are looked up: an Agent
// Skill's folder, a tree skill's resource directory (named after the file,
// whether or not it exists).
func resourceDir(sk *core.Skill) string {
	if sk.Format == core.FormatAgentSkill {
		return filepath.Dir(sk.AbsPath)
	}
	if sk.ResourceDir != "" {
		return sk.ResourceDir
	}
	return strings.TrimSuffix(sk.AbsPath, ".md")
}

// checkSkillFiles runs checkSkillFile on every skill, on as many goroutines
// as there are CPUs, and returns the findings in the order of skills.
func checkSkillFiles(skills []*core.Skill, rel func(string) string) []Finding {
	results := make([][]Finding, len(skills))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(skills), 1)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(skills); i = int(next.Add(1) - 1) {
				results[i] = checkSkillFile(skills[i], rel(skills[i].AbsPath), rel)
			}
		})
	}
	wg.Wait()
	var out []Finding
	for _, r := range results {
		out = append(out, r...)
	}
	return out
}

// checkSkillFile runs validate's own checks on one served skill file.
func checkSkillFile(sk *core.Skill, name string, rel func(string) string) []Finding {
	f := readSkillFile(sk, name)
	if f == nil {
		return nil
	}
	checked := f.checkFields(rel)
	f.checkYAML11(checked)
	f.checkLinks(rel)
	return f.findings
}
