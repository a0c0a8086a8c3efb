package validate

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// FuzzFrontmatterReadings is the differential test of the two frontmatter
// readers: the index's (what the server serves) and goldmark-meta's (YAML
// 1.1, what PyYAML and the official SDKs see). On every file both accept,
// they must agree on every value, except where validate reports the value:
// a difference nobody is told about is a bug in one of them, or in validate.
// Seeds: testdata/fuzz/FuzzFrontmatterReadings.
func FuzzFrontmatterReadings(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		served, err := frontmatter.Read(data)
		if err != nil {
			return
		}
		sk := &core.Skill{Format: core.FormatAgentSkill, AbsPath: "/nonexistent/skill/SKILL.md", FilePath: "skill/SKILL.md"}
		file := newSkillFile(sk, "SKILL.md", data)
		if file == nil {
			t.Fatalf("the index read the frontmatter of %q, validate found no block", data)
		}
		if file.yaml11 == nil {
			return // goldmark-meta does not accept it (or cuts the block elsewhere)
		}
		skip := file.checkFields(func(p string) string { return p })
		file.checkYAML11(skip)
		if file.front == nil {
			return // validate warned that YAML 1.2 readers reject the block: every reading is suspect
		}
		var diffs []string
		diffReadings(served, normalize11(file.yaml11), "", &diffs)
		for _, d := range diffs {
			if !covered(file.covered, d) {
				t.Errorf("the readings differ at %q without a Finding\nfile: %q\nserved: %#v\nYAML 1.1: %#v\nfindings: %v",
					d, data, served, file.yaml11, file.findings)
			}
		}
	})
}

// normalize11 gives goldmark-meta's value the shape of the index's: maps
// keyed by strings.
func normalize11(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[k] = normalize11(val)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[fmt.Sprint(k)] = normalize11(val)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, val := range t {
			out[i] = normalize11(val)
		}
		return out
	case float32:
		return float64(t)
	default:
		return t
	}
}

// diffReadings appends the exact paths where a and b differ ("" for the
// whole document, or its empty key).
func diffReadings(a, b any, path string, out *[]string) {
	switch at := a.(type) {
	case map[string]any:
		bt, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, path)
			return
		}
		keys := map[string]bool{}
		for k := range at {
			keys[k] = true
		}
		for k := range bt {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			diffReadings(at[k], bt[k], joinPath(path, k), out)
		}
	case []any:
		bt, ok := b.([]any)
		if !ok || len(bt) != len(at) {
			*out = append(*out, path)
			return
		}
		for i := range at {
			diffReadings(at[i], bt[i], fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, path)
		}
	}
}

// covered reports a path at or below one a Finding is about.
func covered(paths map[string]bool, p string) bool {
	for c := range paths {
		if p == c || strings.HasPrefix(p, c+".") || strings.HasPrefix(p, c+"[") {
			return true
		}
	}
	return false
}
