package server_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/server"
)

// collectionLine matches one line of a grouped catalogue.
var collectionLine = regexp.MustCompile(`<collection name="([^"]*)" skills="(\d+)">([^<]*)</collection>`)

// collectionsTree writes Agent Skills in collections: sizes[i] skills in
// collection i, each at <collection>/skills/<name>/SKILL.md with a
// description of about 120 characters.
func collectionsTree(t *testing.T, prefix string, sizes []int) string {
	t.Helper()
	files := map[string]string{}
	for c, n := range sizes {
		for j := range n {
			name := fmt.Sprintf("%s%02d-task-%03d", prefix, c, j)
			files[fmt.Sprintf("%s%02d/skills/%s/SKILL.md", prefix, c, name)] = fmt.Sprintf(
				"---\nname: %s\ndescription: Skill %d of collection %d does one narrow thing well, it reads, checks and writes the files of its task.\n---\nBody.\n", name, j, c)
		}
	}
	return writeTree(t, files)
}

// groupedLines returns each collection line's name, count and listed names.
func groupedLines(desc string) (names []string, counts map[string]int, listed map[string][]string) {
	counts, listed = map[string]int{}, map[string][]string{}
	for _, m := range collectionLine.FindAllStringSubmatch(desc, -1) {
		names = append(names, m[1])
		counts[m[1]], _ = strconv.Atoi(m[2])
		for _, n := range strings.Split(m[3], ", ") {
			if n != "" && n != "…" {
				listed[m[1]] = append(listed[m[1]], n)
			}
		}
	}
	return names, counts, listed
}

// TestCatalogueOfCollections: 2,000 skills in 20 collections. The default
// budget used to list the first 92 names alphabetically (two collections'
// worth); it now names every collection with its count, and more skills.
func TestCatalogueOfCollections(t *testing.T) {
	t.Parallel()
	sizes := make([]int, 20)
	for i := range sizes {
		sizes[i] = 100 + 10*(i%2*2-1) // 90 and 110 in turns: 2,000 in all
	}
	dir := collectionsTree(t, "team", sizes)
	h := start(t, dir, withSets(server.ToolSetSkill, server.ToolSetSk))
	desc := h.tool(t, "skill").Description
	if n := utf8.RuneCountInString(desc); n > 8000 {
		t.Errorf("description has %d characters, over the default 8000", n)
	}
	names, counts, listed := groupedLines(desc)
	if len(names) != 20 {
		t.Fatalf("%d collection lines, want 20:\n%s", len(names), desc)
	}
	total := 0
	for c, n := range sizes {
		name := fmt.Sprintf("team%02d", c)
		if counts[name] != n {
			t.Errorf("collection %s: count %d, want %d", name, counts[name], n)
		}
		if len(listed[name]) < 5 {
			t.Errorf("collection %s names %d skills, want at least 5", name, len(listed[name]))
		}
		total += len(listed[name])
	}
	if total < 2*92 {
		t.Errorf("%d skills named, want at least twice the 92 the cut list named", total)
	}
	t.Logf("2,000 skills in 20 collections: %d skills named in %d characters (the cut list named 92)", total, utf8.RuneCountInString(desc))
	mustContain(t, desc, "<!-- 2000 skills in 20 collections", "use skills_search; skills_list lists every one")
	if names[0] != "team00" || names[19] != "team19" {
		t.Errorf("collections not sorted by name: %v", names)
	}
	first := listed["team07"][0]
	if text, isErr := h.call(t, "skill", map[string]any{"name": first}); isErr {
		t.Errorf("skill %q (listed) does not load: %s", first, text)
	}
}

// TestCatalogueSmallTreeUnchanged: a catalogue that fits lists every skill
// as file 002 has it, with nothing grouped.
func TestCatalogueSmallTreeUnchanged(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	var want []string
	for _, name := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
		files["tools/"+name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\nBody.\n"
		want = append(want, "<skill>\n<name>"+name+"</name>\n<description>The "+name+" skill.</description>\n<location>project</location>\n</skill>")
	}
	desc := start(t, writeTree(t, files), withSets(server.ToolSetSkill)).tool(t, "skill").Description
	_, list, _ := strings.Cut(desc, "<available_skills>\n")
	if list != strings.Join(want, "\n")+"\n</available_skills>" {
		t.Errorf("five skills: the list is\n%s\nwant every skill as today", list)
	}
}

// TestCatalogueMostUsedFirst: once skills have been served (the skill tool,
// get_skill), a rebuilt catalogue names them first in their collections.
func TestCatalogueMostUsedFirst(t *testing.T) {
	t.Parallel()
	dir := collectionsTree(t, "c", []int{30, 30})
	h := start(t, dir, withBudget(1800, server.ToolSetSkill, server.ToolSetCore))
	_, _, listed := groupedLines(h.tool(t, "skill").Description)
	if got := listed["c00"]; len(got) == 0 || got[0] != "c00-task-000" || len(got) == 30 {
		t.Fatalf("before any use c00 lists %v, want some of its skills, c00-task-000 first", got)
	}
	for range 2 {
		if text, isErr := h.call(t, "skill", map[string]any{"name": "c00-task-029"}); isErr {
			t.Fatal(text)
		}
	}
	if text, isErr := h.call(t, "get_skill", map[string]any{"context": "c01-task-017"}); isErr || !strings.Contains(text, "c01-task-017") {
		t.Fatalf("get_skill: %s", text)
	}
	h.srv.RefreshToolDescriptions()
	_, _, listed = groupedLines(h.tool(t, "skill").Description)
	if got := listed["c00"]; len(got) == 0 || got[0] != "c00-task-029" {
		t.Errorf("after two loads c00 lists %v, want c00-task-029 first", got)
	}
	if got := listed["c01"]; len(got) == 0 || got[0] != "c01-task-017" {
		t.Errorf("after get_skill served it c01 lists %v, want c01-task-017 first", got)
	}
}

// TestCatalogueTooManyCollections: when not every collection gets a line,
// the largest do and one comment counts the others and their skills.
func TestCatalogueTooManyCollections(t *testing.T) {
	t.Parallel()
	sizes := make([]int, 60)
	for i := range sizes {
		sizes[i] = 2 + i%3
	}
	dir := collectionsTree(t, "k", sizes)
	desc := start(t, dir, withBudget(3000, server.ToolSetSkill)).tool(t, "skill").Description
	if n := utf8.RuneCountInString(desc); n > 3000 {
		t.Errorf("description has %d characters, over 3000", n)
	}
	names, counts, _ := groupedLines(desc)
	m := regexp.MustCompile(`<!-- (\d+) smaller collections \((\d+) skills\) not listed -->`).FindStringSubmatch(desc)
	if m == nil || len(names) == 0 {
		t.Fatalf("want some collection lines and a comment for the others:\n%s", desc)
	}
	groups, _ := strconv.Atoi(m[1])
	skills, _ := strconv.Atoi(m[2])
	shown, bySize := 0, map[int]int{}
	for _, n := range counts {
		shown += n
		bySize[n]++
	}
	for size := 2; size < 4; size++ { // 20 collections of each size
		if bySize[size] > 0 && bySize[size+1] != 20 {
			t.Errorf("lines by collection size %v: a collection of %d skills got a line before a larger one", bySize, size)
		}
	}
	if len(names)+groups != 60 || shown+skills != 180 {
		t.Errorf("%d lines + %d collections counted, %d + %d skills: want 60 and 180", len(names), groups, shown, skills)
	}
}
