package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the configuration file looked up at the content root.
const FileName = "config.yaml"

// EnvOperatorFile names the operator's settings file: config.yaml's
// schema, outside the content, over the content's config.yaml and under the
// environment and flags.
const EnvOperatorFile = "SKILLS_CONFIG"

// Loaded is a configuration with what was noticed while loading it.
type Loaded struct {
	// Config is the effective configuration: the defaults, the content's
	// config.yaml, the operator's settings file, the environment, in that
	// order, each over the one before.
	Config Config
	// Content is the content's layer alone: the defaults and its config.yaml
	// held to the table of keys (Keys). A ContentNarrows key's value here
	// narrows the operator's where both are known.
	Content Config
	// Path is the content's config.yaml that was read, or "" when none existed.
	Path string
	// OperatorPath is the operator's settings file (SKILLS_CONFIG), or "".
	OperatorPath string
	// Warnings are non-fatal remarks (unknown keys, ignored keys), each
	// naming the file, line and key: the strings of Problems.
	Warnings []string
	// Problems are the warnings with their file, line and key, in line order.
	Problems []Problem
	// Ignored are the warnings about the keys the content's config.yaml held
	// and may not set (Keys); they are in Warnings and Problems too.
	Ignored []Problem
	// plugins holds each plugin section's settings by its key.
	plugins map[string]any
	// lines maps the dotted keys read from the content's file to their lines.
	lines map[string]int
	// opLines maps the dotted keys read from the operator's file to theirs.
	opLines map[string]int
	// env maps the dotted keys an environment variable set to its name.
	env map[string]string
}

// LoadOptions configures LoadWith.
type LoadOptions struct {
	// Discovered says the content's file was found by the fallback search of
	// the standard locations (./skills, ~/.claude/skills, …), not named by
	// the operator (SKILLS_DIR, SKILLS_REPO): a project being worked on may
	// hold it. Its ContentNamed keys (analytics, scripts.runners) are then
	// ignored, each with a warning naming its key and line, and keep their
	// defaults; the operator's settings still set them.
	Discovered bool
	// OperatorFile is the operator's settings file (SKILLS_CONFIG), "" for
	// none. Every key may be set there. It must exist, be readable and lie
	// outside every directory of Content.
	OperatorFile string
	// Content are the directories the content lives in (the skills
	// directories, the content root, the git clone): the operator's file
	// may not lie inside one, since whoever writes the content would then
	// write the operator's settings.
	Content []string
	// Sections are the plugins' own sections.
	Sections []Section
}

// Section is a plugin's own part of the settings (caddy's module model):
// the dotted key it lives at (plugins.sinks.NAME, plugins.matchers.NAME,
// plugins.runners..EXT) and a constructor of the plugin's own settings
// value (a pointer to a struct with yaml tags, holding its defaults) that
// the section is decoded into as every key is: an unknown key warned about
// and a wrong type refused, at its line. Only the operator's settings file
// sets a plugin's section.
type Section struct {
	Key string
	New func() any
}

// Plugin returns the settings decoded for the plugin section key: the value
// its Section's New returned, with the operator's file over it; nil for a
// key no Section declared.
func (l Loaded) Plugin(key string) any { return l.plugins[key] }

// Origin says where the value of the dotted key (analytics.endpoint) came
// from: the environment variable that set it, the file and line, or
// "default".
func (l Loaded) Origin(key string) string {
	if name, ok := l.env[key]; ok {
		return name
	}
	if line, ok := l.opLines[key]; ok {
		return fmt.Sprintf("%s:%d", l.OperatorPath, line)
	}
	if line, ok := l.lines[key]; ok {
		return fmt.Sprintf("%s:%d", displayName(l.Path), line)
	}
	return "default"
}

// InContent reports whether the content's config.yaml set the dotted key
// (and it was not ignored).
func (l Loaded) InContent(key string) bool {
	_, ok := l.lines[key]
	return ok
}

// ByOperator reports whether the operator's settings file or the
// environment set the dotted key.
func (l Loaded) ByOperator(key string) bool {
	_, file := l.opLines[key]
	_, env := l.env[key]
	return file || env
}

// Load reads dir/config.yaml (absent is fine: defaults), applies the environment
// overrides of §11.3 through getenv, and validates the result. An invalid
// configuration's error is an *Error listing every problem found, wrong types
// and out-of-range values together, each with its line.
func Load(dir string, getenv func(string) string) (Loaded, error) {
	return LoadWith(dir, getenv, LoadOptions{})
}

// LoadOperator is the defaults with the operator's settings file (path,
// "" for none) and the environment over them: the settings of a command
// that reads no content (version).
func LoadOperator(path string, getenv func(string) string) (Loaded, error) {
	return LoadWith("", getenv, LoadOptions{OperatorFile: path})
}

// LoadWith is Load with options: the layers are the defaults, dir/config.yaml
// (held to the table of keys), the operator's file, the environment.
func LoadWith(dir string, getenv func(string) string, opts LoadOptions) (Loaded, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	switch {
	case dir == "": // the operator's settings alone (LoadOperator)
		path, data = "", nil
	case errors.Is(err, fs.ErrNotExist):
		path, data = "", nil
	case err != nil:
		return Loaded{}, fmt.Errorf("reading %s: %w", path, err)
	}
	content, problems := decodeLayer(displayName(path), data, Default(), nil)
	var ignored []Problem
	ignored, problems = content.applyAccess(opts.Discovered, problems)
	loaded := Loaded{Config: content.cfg.clone(), Content: content.cfg, Path: path, lines: content.lines,
		Ignored: ignored, Problems: append(content.warnings, ignored...), opLines: map[string]int{}, plugins: map[string]any{}}
	for _, s := range opts.Sections {
		loaded.plugins[s.Key] = s.New()
	}
	if opts.OperatorFile != "" {
		opPath, data, err := readOperatorFile(opts.OperatorFile, opts.Content)
		if err != nil {
			return Loaded{}, err
		}
		op, opProblems := decodeLayer(opPath, data, loaded.Config, loaded.plugins)
		loaded.Config, loaded.OperatorPath, loaded.opLines = op.cfg, opPath, op.lines
		loaded.Problems = append(loaded.Problems, op.warnings...)
		problems = append(problems, opProblems...)
	}
	sortProblems(loaded.Problems)
	for _, w := range loaded.Problems {
		loaded.Warnings = append(loaded.Warnings, w.String())
	}
	env, err := applyEnv(&loaded.Config, getenv)
	if err != nil {
		problems = append(problems, Problem{Message: err.Error()})
	}
	loaded.env = env
	problems = append(problems, loaded.rangeProblems()...)
	if len(problems) > 0 {
		sortProblems(problems)
		return Loaded{}, &Error{Problems: problems, Warnings: loaded.Problems}
	}
	return loaded, nil
}

// rangeProblems are Validate's problems of the effective configuration, each
// at the line of the file that set the value, and those of the content's
// narrowing values, which narrow the operator's later.
func (l Loaded) rangeProblems() []Problem {
	var out []Problem
	seen := map[string]bool{}
	add := func(err error, only func(key string) bool) {
		var invalid *Error
		if !errors.As(err, &invalid) {
			if err != nil {
				out = append(out, Problem{File: displayName(l.Path), Message: err.Error()})
			}
			return
		}
		for _, p := range invalid.Problems {
			if !only(p.Key) {
				continue
			}
			if line, ok := l.opLines[p.Key]; ok {
				p.File, p.Line = l.OperatorPath, line
			} else if line, ok := l.lines[p.Key]; ok {
				p.File, p.Line = displayName(l.Path), line
			}
			if !seen[p.String()] {
				seen[p.String()] = true
				out = append(out, p)
			}
		}
	}
	add(Validate(l.Config), func(string) bool { return true })
	add(Validate(l.Content), func(key string) bool { return KeyOf(key).Access == ContentNarrows && l.InContent(key) })
	return out
}

// layer is one settings file decoded over the layers below it.
type layer struct {
	file     string // as messages name it
	cfg      Config
	lines    map[string]int
	warnings []Problem
}

// decodeLayer decodes YAML bytes over base (a copy of it). file labels
// messages. Empty data yields base. It returns the configuration decoded so
// far (each value at fault left as it was) together with the problems,
// sorted: wrong types naming the key and its line; unknown keys are
// warnings. sections, when not nil, are the plugins' settings the file's
// plugins section is decoded into (the operator's file); when nil, the
// plugins key is only noted (the content's, which applyAccess ignores).
func decodeLayer(file string, data []byte, base Config, sections map[string]any) (layer, []Problem) {
	out := layer{file: file, cfg: base.clone(), lines: map[string]int{}}
	var doc yaml.Node
	if err := unmarshal(data, &doc); err != nil {
		msg := yamlLinePrefix.ReplaceAllString(strings.TrimPrefix(err.Error(), "yaml: "), "")
		return out, []Problem{{File: file, Line: syntaxLine(err), Message: "invalid YAML: " + msg}}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 { // an empty file, or only comments
		return out, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return out, nil
	}
	d := decoder{file: file, lines: out.lines}
	root = d.plugins(root, sections)
	d.into(&out.cfg, root)
	sortProblems(d.errors)
	sortProblems(d.warnings)
	out.warnings = d.warnings
	return out, d.errors
}

// unmarshal is yaml.Unmarshal that turns a panic of the decoder on hostile
// input into an error.
func unmarshal(data []byte, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml decoder panicked: %v", r)
		}
	}()
	return yaml.Unmarshal(data, doc)
}

// yamlLine finds the line number the YAML library puts in its errors.
var (
	yamlLine       = regexp.MustCompile(`line (\d+)`)
	yamlLinePrefix = regexp.MustCompile(`^line \d+: `)
)

// syntaxLine is the line of a YAML syntax error, or 1.
func syntaxLine(err error) int {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil && n > 0 {
			return n
		}
	}
	return 1
}

func displayName(path string) string {
	if path == "" {
		return FileName
	}
	return path
}
