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

// Loaded is a configuration with what was noticed while loading it.
type Loaded struct {
	// Config is the effective configuration.
	Config Config
	// Path is the file that was read, or "" when none existed.
	Path string
	// Warnings are non-fatal remarks (unknown keys), each naming the file,
	// line and key: the strings of Problems.
	Warnings []string
	// Problems are the warnings with their file, line and key, in line order.
	Problems []Problem
	// Ignored are the warnings about the operator settings a discovered file
	// held and that were not applied (LoadOptions.Discovered); they are in
	// Warnings and Problems too.
	Ignored []Problem
	// lines maps the dotted keys read from the file to their lines.
	lines map[string]int
	// env maps the dotted keys an environment variable set to its name.
	env map[string]string
}

// LoadOptions configures LoadWith.
type LoadOptions struct {
	// Discovered says the file was found by the fallback search of the
	// standard locations (./skills, ~/.claude/skills, …), not named by the
	// operator (SKILLS_DIR, SKILLS_REPO): a project being worked on may hold
	// it. Its operator settings (analytics, scripts.allow_remote,
	// scripts.runners, wasm.mounts, wasm.cwd_roots) are then ignored, each
	// with a warning naming its key and line, and keep their defaults; the
	// environment (ANALYTICS_ENDPOINT) still sets them.
	Discovered bool
}

// Origin says where the value of the dotted key (analytics.endpoint) came
// from: the environment variable that set it, the file and line, or
// "default".
func (l Loaded) Origin(key string) string {
	if name, ok := l.env[key]; ok {
		return name
	}
	if line, ok := l.lines[key]; ok {
		return fmt.Sprintf("%s:%d", displayName(l.Path), line)
	}
	return "default"
}

// Load reads dir/config.yaml (absent is fine: defaults), applies the environment
// overrides of §11.3 through getenv, and validates the result. An invalid
// configuration's error is an *Error listing every problem found, wrong types
// and out-of-range values together, each with its line.
func Load(dir string, getenv func(string) string) (Loaded, error) {
	return LoadWith(dir, getenv, LoadOptions{})
}

// LoadWith is Load with options.
func LoadWith(dir string, getenv func(string) string, opts LoadOptions) (Loaded, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		path, data = "", nil
	case err != nil:
		return Loaded{}, fmt.Errorf("reading %s: %w", path, err)
	}
	loaded, problems := parse(path, data)
	var operatorOnly []Problem
	operatorOnly, problems = loaded.ignoreOperatorOnly(problems)
	loaded.Ignored = append(loaded.Ignored, operatorOnly...)
	if opts.Discovered {
		var ignored []Problem
		ignored, problems = loaded.ignoreOperatorSettings(problems)
		loaded.Ignored = append(loaded.Ignored, ignored...)
		sortProblems(loaded.Ignored)
	}
	if len(loaded.Ignored) > 0 {
		loaded.Problems = append(loaded.Problems, loaded.Ignored...)
		sortProblems(loaded.Problems)
		loaded.Warnings = nil
		for _, w := range loaded.Problems {
			loaded.Warnings = append(loaded.Warnings, w.String())
		}
	}
	env, err := applyEnv(&loaded.Config, getenv)
	if err != nil {
		problems = append(problems, Problem{Message: err.Error()})
	}
	loaded.env = env
	var invalid *Error
	if err := Validate(loaded.Config); errors.As(err, &invalid) {
		for _, p := range invalid.Problems {
			if line, fromFile := loaded.lines[p.Key]; fromFile {
				p.File, p.Line = displayName(path), line
			}
			problems = append(problems, p)
		}
	} else if err != nil {
		problems = append(problems, Problem{File: displayName(path), Message: err.Error()})
	}
	if len(problems) > 0 {
		sortProblems(problems)
		return Loaded{}, &Error{Problems: problems, Warnings: loaded.Problems}
	}
	return loaded, nil
}

// parse decodes YAML bytes over the defaults. name labels messages. Empty
// data yields the defaults. It returns the configuration decoded so far (each
// value at fault left at its default) together with the problems, sorted:
// wrong types naming the key and its line; unknown keys are warnings.
func parse(name string, data []byte) (Loaded, []Problem) {
	out := Loaded{Config: Default(), Path: name, lines: map[string]int{}}
	file := displayName(name)
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
	d.into(&out.Config, root)
	sortProblems(d.errors)
	sortProblems(d.warnings)
	out.Problems = d.warnings
	for _, w := range d.warnings {
		out.Warnings = append(out.Warnings, w.String())
	}
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
