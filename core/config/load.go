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

	"github.com/skills-mcp/skills-mcp/core"
	"go.yaml.in/yaml/v3"
)

// FileName is the configuration file looked up at the content root.
const FileName = "config.yaml"

// Loaded is a configuration with what was noticed while loading it.
type Loaded struct {
	// Config is the effective configuration.
	Config core.Config
	// Path is the file that was read, or "" when none existed.
	Path string
	// Warnings are non-fatal remarks (unknown keys), each naming the file,
	// line and key: the strings of Problems.
	Warnings []string
	// Problems are the warnings with their file, line and key, in line order.
	Problems []Problem
	// lines maps the dotted keys read from the file to their lines.
	lines map[string]int
}

// Load reads dir/config.yaml (absent is fine: defaults), applies the environment
// overrides of §11.3 through getenv, and validates the result. An invalid
// configuration's error is an *Error listing every problem found, wrong types
// and out-of-range values together, each with its line.
func Load(dir string, getenv func(string) string) (Loaded, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		path, data = "", nil
	case err != nil:
		return Loaded{}, fmt.Errorf("reading %s: %w", path, err)
	}
	loaded, problems := parse(path, data)
	if err := ApplyEnv(&loaded.Config, getenv); err != nil {
		problems = append(problems, Problem{Message: err.Error()})
	}
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
		return Loaded{}, &Error{Problems: problems}
	}
	return loaded, nil
}

// Parse decodes YAML bytes over the defaults. name labels messages. Empty data
// yields the defaults. Wrong types are errors naming the key and its line, all
// of them in one *Error; unknown keys are warnings.
func Parse(name string, data []byte) (Loaded, error) {
	loaded, problems := parse(name, data)
	if len(problems) > 0 {
		return Loaded{}, &Error{Problems: problems}
	}
	return loaded, nil
}

// parse is Parse that returns the configuration decoded so far (each value at
// fault left at its default) together with the problems, sorted.
func parse(name string, data []byte) (Loaded, []Problem) {
	out := Loaded{Config: core.DefaultConfig(), Path: name, lines: map[string]int{}}
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
