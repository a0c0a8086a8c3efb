package skillscmd

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// catalogueTree writes n Agent Skills spread over three collections, each
// with a description of about 120 characters.
func catalogueTree(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		name := fmt.Sprintf("skill-%03d", i)
		dir := fmt.Sprintf("collection-%c/skills/%s", 'a'+i%3, name)
		files[dir+"/SKILL.md"] = agentSkill(name, fmt.Sprintf("Skill number %d does one narrow thing well, it reads, checks and writes the files of task %d.", i, i), "Body.\n")
	}
	return files
}

var catalogueNames = regexp.MustCompile(`<name>(.*?)</name>`)
var omittedComment = regexp.MustCompile(`<!-- (\d+) more skills? not listed: use the skills_search tool to find them -->`)

// TestCatalogueWithoutSilentCuts (issue 15, item 5): the skill tool's
// description shortens descriptions before it drops names, and when it must
// drop some it says exactly how many and where to find them; an unknown name
// is an error with at most 10 close names under 4 KB; every path skills_list
// reports loads in skills_show.
func TestCatalogueWithoutSilentCuts(t *testing.T) {
	t.Parallel()
	t.Run("60 skills: every name, descriptions shortened", func(t *testing.T) {
		s, _ := serveTree(t, catalogueTree(60), "SKILLS_TOOLS=skill,sk")
		s.listedPaths(t) // once the index is built
		desc := s.toolDescription(t, "skill")
		if n := utf8.RuneCountInString(desc); n > 8000 {
			t.Errorf("description is %d characters, over 8000", n)
		}
		if got := len(catalogueNames.FindAllString(desc, -1)); got != 60 || omittedComment.MatchString(desc) {
			t.Errorf("listed %d names (want all 60, none left out):\n%s", got, desc)
		}
		if !strings.Contains(desc, "…</description>") {
			t.Errorf("want shortened descriptions:\n%s", desc)
		}
	})
	t.Run("900 skills: one line per collection, counted and pointed to", func(t *testing.T) {
		s, _ := serveTree(t, catalogueTree(900), "SKILLS_TOOLS=skill,sk")
		paths := s.listedPaths(t) // once the index is built
		desc := s.toolDescription(t, "skill")
		if n := utf8.RuneCountInString(desc); n > 8000 {
			t.Errorf("description is %d characters, over 8000", n)
		}
		for _, c := range []string{"a", "b", "c"} {
			if want := `<collection name="collection-` + c + `" skills="300">skill-`; !strings.Contains(desc, want) {
				t.Errorf("no line %q…", want)
			}
		}
		if !strings.Contains(desc, "900 skills in 3 collections") || !strings.Contains(desc, "use skills_search") {
			t.Errorf("want the count and how to search:\n%s", desc)
		}
		msg, isErr := s.call(t, "skill", map[string]any{"name": "skill-12"})
		if !isErr || len(msg) >= 4096 || strings.Count(msg, `\n- `) > 10 || !strings.Contains(msg, "skill-012") || !strings.Contains(msg, "900 skills in all; skills_search") {
			t.Errorf("unknown name: got (error %v, %d bytes) %s", isErr, len(msg), msg)
		}
		if len(paths) != 900 {
			t.Fatalf("skills_list: %d paths, want 900", len(paths))
		}
		for _, p := range paths {
			if text, isErr := s.call(t, "skills_show", map[string]any{"name": p}); isErr {
				t.Fatalf("skills_show %s: %s", p, text)
			}
		}
	})
}
