package index

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// Validation failures of spec 000 §4.2; the reason of a skipped file.
var (
	errKeywords    = errors.New("keywords must be a non-empty list")
	errDescription = errors.New("description must be a non-empty string")
)

// parseSkill turns the bytes of the Markdown file at rel (relative to its root,
// `/` separators) into a skill with its frontmatter validated and defaulted
// (spec 000 §4.2, §4.3). Assets and scripts are the declared ones, not yet
// resolved against a resource directory; Parent is not set. Problems with single
// asset or script entries are logged on logger and the entry dropped; an error
// means the whole file is invalid. unknown lists the frontmatter keys neither
// format defines, sorted. The skill keeps no byte of data: its body is
// described (core.BodyInfo), not held.
func parseSkill(rel string, data []byte, logger hclog.Logger) (s *core.Skill, unknown []string, _ error) {
	fm, body, err := frontmatter.DecodeSkillFile(data)
	if err != nil {
		return nil, nil, err
	}
	keywords, err := parseKeywords(fm["keywords"])
	if err != nil {
		return nil, nil, err
	}
	description, ok := fm["description"].(string)
	if !ok || strings.TrimSpace(description) == "" {
		return nil, nil, errDescription
	}
	for key := range fm {
		if !knownKeys[key] {
			unknown = append(unknown, key)
		}
	}
	slices.Sort(unknown)
	path := skillPath(rel)
	s = &core.Skill{
		Path:        path,
		FilePath:    rel,
		Format:      core.FormatTree,
		Name:        skillName(path),
		Description: description,
		Keywords:    keywords,
		Priority:    parsePriority(fm["priority"]),
		Inherit:     fm["inherit"] != false,
		Assets:      parseAssets(fm["assets"], rel, logger),
		Scripts:     parseScripts(fm["scripts"], rel, logger),
		Body:        bodyInfoOf(body),
	}
	s.Headings = headingsOf(body)
	detachStrings(s)
	return s, unknown, nil
}

// parseKeywords coerces a non-empty YAML list to strings: numbers and booleans
// through fmt.Sprint; nulls, nested lists and maps, and blank strings dropped.
func parseKeywords(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errKeywords
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		s, ok := scalarString(item)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, errKeywords
	}
	return out, nil
}

// scalarString renders a YAML scalar as a string; ok is false for nulls, lists and maps.
func scalarString(v any) (string, bool) {
	switch t := v.(type) {
	case nil, []any, map[string]any:
		return "", false
	case string:
		return t, true
	default:
		return fmt.Sprint(t), true
	}
}

// parsePriority accepts any YAML number; everything else is the default 0.
func parsePriority(v any) float64 {
	switch t := v.(type) {
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case uint64:
		return float64(t)
	case float64:
		return t
	default:
		return 0
	}
}

// stringField returns m[key] when it is a string, else "".
func stringField(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// entryMap reads one assets/scripts/args entry: a map, or a plain string taken
// as the value of key (`- scripts/a.sh` is `- {file: scripts/a.sh}`).
func entryMap(v any, key string) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case string:
		return map[string]any{key: t}, true
	default:
		return nil, false
	}
}

// entries returns v as a list; a missing value is the empty list and anything
// else is logged and treated as empty.
func entries(v any, field, rel string, logger hclog.Logger) []any {
	switch t := v.(type) {
	case nil:
		return nil
	case []any:
		return t
	default:
		logger.Warn("a field that must be a list is not; ignoring it", "file", rel, "field", field)
		return nil
	}
}

// parseAssets reads the declared assets with their defaults (type "other").
func parseAssets(v any, rel string, logger hclog.Logger) []core.Asset {
	out := []core.Asset{}
	for i, item := range entries(v, "assets", rel, logger) {
		m, ok := entryMap(item, "file")
		file := stringField(m, "file")
		if !ok || file == "" {
			logger.Warn("an asset entry has no file; skipping it", "file", rel, "entry", fmt.Sprintf("assets[%d]", i))
			continue
		}
		typ := stringField(m, "type")
		if typ == "" {
			typ = "other"
		}
		out = append(out, core.Asset{File: file, Description: stringField(m, "description"), Type: typ})
	}
	return out
}

// parseScripts reads the declared scripts with their defaults (execution
// "claude", no args, args required unless `required: false`).
func parseScripts(v any, rel string, logger hclog.Logger) []core.Script {
	out := []core.Script{}
	for i, item := range entries(v, "scripts", rel, logger) {
		m, ok := entryMap(item, "file")
		file := stringField(m, "file")
		if !ok || file == "" {
			logger.Warn("a script entry has no file; skipping it", "file", rel, "entry", fmt.Sprintf("scripts[%d]", i))
			continue
		}
		execution := stringField(m, "execution")
		if execution == "" {
			execution = core.ExecutionClaude
		}
		out = append(out, core.Script{
			File:        file,
			Description: stringField(m, "description"),
			Execution:   execution,
			Args:        parseArgs(m["args"], rel, file, logger),
			Needs:       parseNeeds(m["needs"]),
		})
	}
	return out
}

// parseNeeds reads a script's needs: a list of words (validate checks that
// each is known); anything else declares none.
func parseNeeds(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, item := range list {
		if s, ok := item.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// parseArgs reads a script's declared arguments.
func parseArgs(v any, rel, script string, logger hclog.Logger) []core.Arg {
	out := []core.Arg{}
	for i, item := range entries(v, "args of "+script, rel, logger) {
		m, ok := entryMap(item, "name")
		name := stringField(m, "name")
		if !ok || name == "" {
			// script is cut from the file's buffer; the line is logged after the scan
			logger.Warn("a script argument has no name; skipping it", "file", rel, "script", strings.Clone(script), "entry", fmt.Sprintf("args[%d]", i))
			continue
		}
		out = append(out, core.Arg{
			Name:        name,
			Description: stringField(m, "description"),
			Required:    m["required"] != false,
		})
	}
	return out
}
