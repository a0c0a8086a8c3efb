package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestSkillsOnDiskAsWritten covers collections as they are on disk (issue
// 29): a URI belongs to the folder that bears its name, not to an earlier
// folder whose frontmatter borrows it; a SKILL.md that is a symlink to a file
// elsewhere in the skills directory is listed and read; skills left out
// because their URI is another's are summed up in one warning, and
// skillsext.Collisions names each pair for validate.
func TestSkillsOnDiskAsWritten(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"aaa-helper/SKILL.md":              "---\nname: code-review\ndescription: Impostor\n---\nIMPOSTOR\n",
		"code-review/SKILL.md":             "---\nname: code-review\ndescription: Genuine code review\n---\nGENUINE\n",
		"shared/linked.txt":                "---\nname: linked\ndescription: Linked skill\n---\nLINKED\n",
		"linked/notes.txt":                 "notes",
		"zoho_invoice-automation/SKILL.md": "---\nname: zoho-invoice-automation\ndescription: Zoho A\n---\nA\n",
		"zoho-invoice-automation/SKILL.md": "---\nname: zoho-invoice-automation\ndescription: Zoho B\n---\nB\n",
		"zoho_books-automation/SKILL.md":   "---\nname: zoho-books-automation\ndescription: Books A\n---\nA\n",
		"zoho-books-automation/SKILL.md":   "---\nname: zoho-books-automation\ndescription: Books B\n---\nB\n",
	})
	if err := os.Symlink(filepath.Join("..", "shared", "linked.txt"), filepath.Join(dir, "linked", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	buf := &testlog.Buffer{}
	logger := hclog.New(&hclog.LoggerOptions{Output: buf, Level: hclog.Debug})
	h := startSkills(t, dir, func(o *server.Options) { o.Logger = logger }, nil, "")

	got, _ := h.readBytes(t, "skill://code-review/SKILL.md")
	if !strings.Contains(string(got), "GENUINE") {
		t.Errorf("skill://code-review/SKILL.md: got %q, want the code-review folder's", got)
	}
	got, _ = h.readBytes(t, "skill://linked/SKILL.md")
	if !strings.Contains(string(got), "LINKED") {
		t.Errorf("skill://linked/SKILL.md: got %q, want the linked file", got)
	}
	skills, _ := h.allSkills(t)
	listed := map[string]wireSkill{}
	for _, s := range skills {
		listed[s.URI] = s
	}
	linked, ok := listed["skill://linked/SKILL.md"]
	if !ok {
		t.Fatalf("skills/list: no linked skill among %v", keys(listed))
	}
	var uris []string
	for _, r := range linked.Resources {
		uris = append(uris, r.URI)
	}
	if strings.Join(uris, " ") != "skill://linked/SKILL.md skill://linked/notes.txt" {
		t.Errorf("linked resources: got %q, want its SKILL.md and notes.txt", uris)
	}
	if want := sha256Digest([]byte("---\nname: linked\ndescription: Linked skill\n---\nLINKED\n")); linked.Resources[0].Digest != want {
		t.Errorf("linked SKILL.md digest %s, want %s", linked.Resources[0].Digest, want)
	}
	if len(skills) != 4 {
		t.Errorf("skills/list: got %d skills, want 4 (the 3 borrowing a URI left out): %v", len(skills), keys(listed))
	}

	log := buf.String()
	if n := strings.Count(log, "[WARN]"); n != 1 {
		t.Errorf("want one warning for the 3 skills left out, got %d:\n%s", n, log)
	}
	mustContain(t, log, "3 skills are not served as skill:// resources", "aaa-helper (code-review holds skill://code-review)", "validate")
	if n := strings.Count(log, "[DEBUG]"); n < 3 {
		t.Errorf("want each pair at debug level:\n%s", log)
	}

	idx := index.New(index.Options{Root: dir})
	snap, err := idx.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var pairs []string
	for _, c := range skillsext.Collisions(snap) {
		pairs = append(pairs, c.Skill.Path+">"+c.Holder.Path+"@"+c.URI)
	}
	want := "aaa-helper>code-review@skill://code-review zoho_books-automation>zoho-books-automation@skill://zoho-books-automation " +
		"zoho_invoice-automation>zoho-invoice-automation@skill://zoho-invoice-automation"
	if strings.Join(pairs, " ") != want {
		t.Errorf("skillsext.Collisions: got %q,\nwant %q", pairs, want)
	}
	var agent int
	for _, s := range snap.Skills() {
		if s.Format == core.FormatAgentSkill {
			agent++
		}
	}
	if agent != 7 {
		t.Errorf("every skill stays indexed (reachable by path): got %d", agent)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
