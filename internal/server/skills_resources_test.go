package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

func TestSkillResourceRead(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	tests := []struct {
		name, uri, mime string
		wantBlob        bool
		want            string // the bytes; "" with wantRendered for a rendered SKILL.md
	}{
		{name: "SKILL.md of an Agent Skill is its file", uri: "skill://pdf-processing/SKILL.md", mime: "text/markdown",
			want: skillsTree()["pdf-processing/SKILL.md"]},
		{name: "markdown", uri: "skill://pdf-processing/templates/regional/eu-invoice.md", mime: "text/markdown", want: "# EU invoice\n"},
		{name: "python", uri: "skill://pdf-processing/scripts/extract.py", mime: "text/x-python", want: "print('extract')\n"},
		{name: "binary by extension is a blob", uri: "skill://pdf-processing/assets/logo.png", mime: "image/png", wantBlob: true, want: "\x89PNG\r\n\x1a\n\x00\x01\xfe\xff"},
		{name: "wasm is a blob", uri: "skill://pdf-processing/scripts/fill.wasm", mime: "application/wasm", wantBlob: true, want: "\x00asm\x01\x00\x00\x00"},
		{name: "text that is not UTF-8 is a blob", uri: "skill://pdf-processing/assets/latin1.txt", mime: "text/plain", wantBlob: true, want: "caf\xe9\n"},
		{name: "empty file is an empty blob", uri: "skill://pdf-processing/assets/empty.txt", mime: "text/plain", wantBlob: true, want: ""},
		{name: "file of a tree skill's resource directory", uri: "skill://ui/react/auth/AuthProvider.tsx", mime: "text/x-typescript", want: "export const AuthProvider = 1;\n"},
		{name: "file of _root", uri: "skill://root/global.css", mime: "text/css", want: "body{}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, c := h.readBytes(t, tt.uri)
			if string(data) != tt.want {
				t.Errorf("got %q, want %q", data, tt.want)
			}
			if (c.Blob != nil) != tt.wantBlob || (c.Blob != nil && c.Text != "") {
				t.Errorf("got text %q blob %q, want blob %v", c.Text, c.Blob, tt.wantBlob)
			}
			if c.URI != tt.uri || c.MIMEType != tt.mime {
				t.Errorf("got uri %s mimeType %s, want %s %s", c.URI, c.MIMEType, tt.uri, tt.mime)
			}
		})
	}

	errorCases := []struct{ name, uri string }{
		{name: "unknown skill", uri: "skill://nope/SKILL.md"},
		{name: "unknown file of a skill", uri: "skill://pdf-processing/references/NOPE.md"},
		{name: "hidden file", uri: "skill://pdf-processing/.secret"},
		{name: "a directory", uri: "skill://pdf-processing/templates"},
		{name: "the tree file itself", uri: "skill://ui/react/auth.md"},
		{name: "traversal", uri: "skill://pdf-processing/../acme/billing/refunds/SKILL.md"},
		{name: "another scheme", uri: "file:///etc/passwd"},
	}
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
			if code := rpcCode(err); code != -32602 {
				t.Errorf("got %v (code %d), want -32602", err, code)
			}
		})
	}

	t.Run("a file deleted since the rebuild", func(t *testing.T) {
		if err := os.Remove(filepath.Join(h.dir, "pdf-processing", "references", "FORMS.md")); err != nil {
			t.Fatal(err)
		}
		_, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://pdf-processing/references/FORMS.md"})
		if code := rpcCode(err); code != -32602 {
			t.Errorf("got %v (code %d), want -32602", err, code)
		}
	})
}

// TestRenderedSkillMD: a tree skill is served as a SKILL.md holding a name and
// description frontmatter and, as body, exactly what get_skill returns.
func TestRenderedSkillMD(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	snap := h.idx.Snapshot()
	tests := []struct{ name, skillPath, uri, skillName string }{
		{name: "leaf", skillPath: "ui/react/auth", uri: "skill://ui/react/auth/SKILL.md", skillName: "auth"},
		{name: "category", skillPath: "ui/_index", uri: "skill://ui/SKILL.md", skillName: "ui"},
		{name: "nested category", skillPath: "ui/react/_index", uri: "skill://ui/react/SKILL.md", skillName: "react"},
		{name: "_root", skillPath: "_root", uri: "skill://root/SKILL.md", skillName: "root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := snap.Get(tt.skillPath)
			if !ok {
				t.Fatalf("no skill %s", tt.skillPath)
			}
			want := "---\nname: \"" + tt.skillName + "\"\ndescription: \"" + s.Description + "\"\n---\n\n" + mustContent(t, snap, s) + "\n"
			data, c := h.readBytes(t, tt.uri)
			if string(data) != want || c.Blob != nil {
				t.Errorf("got %q,\nwant text %q", data, want)
			}
			fm, err := frontmatter.ToJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := h.mustGetSkill(t, tt.uri).Frontmatter; string(got) != string(fm) {
				t.Errorf("entry frontmatter %s, file frontmatter %s: want them identical", got, fm)
			}
		})
	}
	t.Run("get_skill serves the same body", func(t *testing.T) {
		out := struct {
			Content string `json:"content"`
		}{}
		res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "auth", "skill_path": "ui/react/auth"}})
		if err != nil || res.IsError {
			t.Fatalf("get_skill: %v %+v", err, res)
		}
		text, ok := res.Content[0].(*mcp.TextContent)
		if !ok {
			t.Fatalf("got %T, want text", res.Content[0])
		}
		if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
			t.Fatal(err)
		}
		data, _ := h.readBytes(t, "skill://ui/react/auth/SKILL.md")
		if !strings.HasSuffix(string(data), "\n\n"+out.Content+"\n") {
			t.Errorf("SKILL.md %q does not end with get_skill's content %q", data, out.Content)
		}
	})
}

// TestResourcesListPagination lists more resources than one page holds, and a
// skill over the extension's 512-file limit: it is served whole, and the
// index reports it.
func TestResourcesListPagination(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	want := map[string]bool{}
	for _, skill := range []struct {
		name  string
		files int
	}{{"big", 600}, {"medium", 300}, {"small", 150}} {
		files[skill.name+"/SKILL.md"] = "---\nname: " + skill.name + "\ndescription: " + skill.name + " skill\n---\nBody.\n"
		want["skill://"+skill.name+"/SKILL.md"] = true
		for i := range skill.files {
			rel := fmt.Sprintf("%s/ref/f%04d.md", skill.name, i)
			files[rel] = rel
			want["skill://"+rel] = true
		}
	}
	h := startSkills(t, writeTree(t, files), nil, nil, "")
	listed, pages := pageThrough(t, func(cursor string) ([]*mcp.Resource, string, error) {
		res, err := h.session.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
	got := uriSet(t, listed)
	if pages < 2 {
		t.Errorf("got %d page for %d resources, want several", pages, len(want))
	}
	if len(got) != len(want) {
		t.Errorf("got %d resources, want %d", len(got), len(want))
	}
	for uri := range want {
		if !got[uri] {
			t.Errorf("%s not listed", uri)
		}
	}

	t.Run("over the 512-file limit", func(t *testing.T) {
		tests := []struct {
			name, uri, file string
			files           int
			wantProblem     bool
		}{
			{name: "601 files", uri: "skill://big/SKILL.md", file: "big/SKILL.md", files: 601, wantProblem: true},
			{name: "301 files", uri: "skill://medium/SKILL.md", file: "medium/SKILL.md", files: 301, wantProblem: false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if n := len(h.mustGetSkill(t, tt.uri).Resources); n != tt.files {
					t.Errorf("got %d resources, want all %d", n, tt.files)
				}
				var found *index.Problem
				for _, p := range h.idx.Snapshot().Problems() {
					if p.File == tt.file && strings.Contains(p.Message, "MCP skills extension limits") {
						found = &p
					}
				}
				if (found != nil) != tt.wantProblem {
					t.Fatalf("limit problem: got %+v, want one: %v", found, tt.wantProblem)
				}
				if found != nil && found.Severity != index.SeverityWarning {
					t.Errorf("got severity %s, want %s", found.Severity, index.SeverityWarning)
				}
			})
		}
	})
}

// TestSkillsConcurrentRebuilds reads and lists while rebuilds swap snapshots:
// a file that never changes is always served with its listed digest.
func TestSkillsConcurrentRebuilds(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	const uri = "skill://pdf-processing/references/FORMS.md"
	want := sha256Digest([]byte("# Forms\n"))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("added-%d", i)
			if err := os.MkdirAll(filepath.Join(h.dir, name), 0o755); err != nil {
				errs <- err
				return
			}
			md := "---\nname: " + name + "\ndescription: Added concurrently\n---\nNew.\n"
			if err := os.WriteFile(filepath.Join(h.dir, name, "SKILL.md"), []byte(md), 0o644); err != nil {
				errs <- err
				return
			}
			if _, err := h.srv.Rebuild(context.Background()); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			res, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				errs <- err
				return
			}
			if got := sha256Digest([]byte(res.Contents[0].Text)); got != want {
				errs <- fmt.Errorf("read %s, want %s", got, want)
			}
			if _, err := mcp.CallCustomMethod[*wireListSkillsParams, *wireListSkillsResult](context.Background(), h.session, "skills/list", &wireListSkillsParams{}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	all, _ := h.allSkills(t)
	if len(all) != len(wantSkillURIs)+4 {
		t.Errorf("got %d skills after the rebuilds, want %d", len(all), len(wantSkillURIs)+4)
	}
}

// listAllResources follows resources/list to its last page.
func (h *skillsHarness) listAllResources(t *testing.T) []*mcp.Resource {
	t.Helper()
	all, _ := pageThrough(t, func(cursor string) ([]*mcp.Resource, string, error) {
		res, err := h.session.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
	return all
}

// pageThrough calls page from the empty cursor, then with each cursor it
// returns, until it returns none; it gives every resource listed, in order,
// and the number of pages. An error fails the test.
func pageThrough(t *testing.T, page func(cursor string) ([]*mcp.Resource, string, error)) ([]*mcp.Resource, int) {
	t.Helper()
	var all []*mcp.Resource
	for pages, cursor := 1, ""; ; pages++ {
		res, next, err := page(cursor)
		if err != nil {
			t.Fatalf("listing page %d (cursor %q): %v", pages, cursor, err)
		}
		all = append(all, res...)
		if cursor = next; cursor == "" {
			return all, pages
		}
	}
}

// uriSet is the set of the URIs of listed, failing the test on a URI listed twice.
func uriSet(t *testing.T, listed []*mcp.Resource) map[string]bool {
	t.Helper()
	got := make(map[string]bool, len(listed))
	for _, r := range listed {
		if got[r.URI] {
			t.Errorf("%s listed twice", r.URI)
		}
		got[r.URI] = true
	}
	return got
}

// TestResourcesListMatchesReadsAndSkills: resources/list, answered from the
// snapshot, lists exactly the files the skill entries name, sorted by URI,
// each with the size of the bytes resources/read serves and skills/get lists.
func TestResourcesListMatchesReadsAndSkills(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	listed := h.listAllResources(t)
	entries := map[string]wireSkillResource{}
	skills, _ := h.allSkills(t)
	for _, s := range skills {
		for _, r := range s.Resources {
			entries[r.URI] = r
		}
	}
	if len(listed) != len(entries) {
		t.Errorf("got %d resources listed, want the %d files of the skill entries", len(listed), len(entries))
	}
	for i, r := range listed {
		t.Run(r.URI, func(t *testing.T) {
			if i > 0 && listed[i-1].URI >= r.URI {
				t.Errorf("listed after %s, want URIs sorted", listed[i-1].URI)
			}
			entry, ok := entries[r.URI]
			if !ok {
				t.Fatalf("listed, but no skill entry names it")
			}
			data, c := h.readBytes(t, r.URI)
			if r.Size != int64(len(data)) || entry.Size != r.Size {
				t.Errorf("got size %d listed, %d in its skill entry, want both %d, the bytes read", r.Size, entry.Size, len(data))
			}
			if c.MIMEType != r.MIMEType {
				t.Errorf("got mimeType %s read, %s listed, want them equal", c.MIMEType, r.MIMEType)
			}
		})
	}
}

// TestSkillResourceTemplate: the skill:// files are served through one
// resource template, which resources/templates/list shows.
func TestSkillResourceTemplate(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	res, err := h.session.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ResourceTemplates) != 1 || res.ResourceTemplates[0].URITemplate != "skill://{+path}" {
		t.Fatalf("got templates %+v, want the one skill://{+path}", res.ResourceTemplates)
	}
}

// TestResourcesListCursor: a bad cursor is -32602, and a rebuild between two
// pages neither repeats nor skips a resource that stays.
func TestResourcesListCursor(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for _, name := range []string{"alpha", "omega"} {
		files[name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: " + name + " skill\n---\nBody.\n"
		for i := range 600 {
			files[fmt.Sprintf("%s/ref/f%04d.md", name, i)] = "x"
		}
	}
	h := startSkills(t, writeTree(t, files), nil, nil, "")
	if _, err := h.session.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: "%%%"}); rpcCode(err) != -32602 {
		t.Errorf("bad cursor: got %v, want -32602", err)
	}
	first, err := h.session.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.NextCursor == "" {
		t.Fatalf("got %d resources on one page, want several pages", len(first.Resources))
	}
	addSkill(t, h.dir, "aaa") // sorts before the cursor
	addSkill(t, h.dir, "zzz") // sorts after it
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range first.Resources {
		seen[r.URI] = true
	}
	for cursor := first.NextCursor; cursor != ""; {
		page, err := h.session.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Resources {
			if seen[r.URI] {
				t.Errorf("%s listed twice", r.URI)
			}
			seen[r.URI] = true
		}
		cursor = page.NextCursor
	}
	for _, uri := range []string{"skill://alpha/ref/f0599.md", "skill://omega/SKILL.md", "skill://omega/ref/f0599.md", "skill://zzz/SKILL.md"} {
		if !seen[uri] {
			t.Errorf("%s skipped", uri)
		}
	}
	if seen["skill://aaa/SKILL.md"] {
		t.Errorf("skill://aaa/SKILL.md listed after the cursor, want it left to a new listing")
	}
}

// TestResourceListChangedOnEdit: a rebuild after an edit that keeps every URI
// but changes what a file holds notifies; an unchanged rebuild does not.
func TestResourceListChangedOnEdit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(t *testing.T, dir string)
		notify bool
	}{
		{name: "nothing changed", edit: func(*testing.T, string) {}, notify: false},
		{name: "a supporting file's content", notify: true, edit: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "pdf-processing", "references", "FORMS.md"), "# Forms, edited\n")
		}},
		{name: "a parent's body, rendered into its children's SKILL.md", notify: true, edit: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "ui", "_index.md"), "---\ndescription: UI rules\nkeywords: [ui]\n---\nUI rules, edited\n")
		}},
		{name: "a tree skill's keywords only, which no file shows", notify: false, edit: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "api", "auth.md"), "---\ndescription: API authentication\nkeywords: [api, token]\n---\nAPI auth rules\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &testlog.Buffer{}
			h := startSkills(t, writeTree(t, skillsTree()), func(o *server.Options) { o.Logger = debugLogger(logs) }, nil, "")
			const updated = "skills extension resources updated"
			tt.edit(t, h.dir)
			if _, err := h.srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(logs.String(), updated) == 1; got != tt.notify {
				t.Errorf("resources updated (list_changed sent): got %v, want %v", got, tt.notify)
			}
		})
	}
}

// writeFile overwrites the file at p.
func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResourceListChangedTreeResourceDir: a tree skill's resource directory
// is compared across a rebuild when a client could have read its listing
// (resources/list walks it), across any number of rebuilds; one nobody asked
// for is not walked for the comparison, and its edit notifies nobody.
func TestResourceListChangedTreeResourceDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		listed   bool // resources/list before the first rebuild
		rebuilds int  // rebuilds before the edit, then one after it
		notify   bool
	}{
		{name: "listed, edited", listed: true, notify: true},
		{name: "listed, edited after a rebuild", listed: true, rebuilds: 1, notify: true},
		{name: "listed, edited after two rebuilds", listed: true, rebuilds: 2, notify: true},
		{name: "never listed, edited", notify: false},
		{name: "never listed, edited after a rebuild", rebuilds: 1, notify: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &testlog.Buffer{}
			h := startSkills(t, writeTree(t, skillsTree()), func(o *server.Options) { o.Logger = debugLogger(logs) }, nil, "")
			const updated = "skills extension resources updated"
			if tt.listed {
				if _, err := h.session.ListResources(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
			}
			for range tt.rebuilds {
				if _, err := h.srv.Rebuild(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if n := strings.Count(logs.String(), updated); n != 0 {
				t.Fatalf("%d resource updates before the edit, want none", n)
			}
			writeFile(t, filepath.Join(h.dir, "ui", "react", "auth", "AuthProvider.tsx"), "export const AuthProvider = 2; // edited\n")
			if _, err := h.srv.Rebuild(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(logs.String(), updated) == 1; got != tt.notify {
				t.Errorf("resources updated (list_changed sent): got %v, want %v", got, tt.notify)
			}
		})
	}
}

// TestRebuildReleasesListedSnapshot: once a rebuild's resource sync is done,
// nothing of the extension holds the previous snapshot, even after a client
// listed the resources of it (the view built for that).
func TestRebuildReleasesListedSnapshot(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	if _, err := h.session.ListResources(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	old := weak.Make(h.idx.Snapshot())
	writeFile(t, filepath.Join(h.dir, "api", "auth.md"), "---\ndescription: API authentication, edited\nkeywords: [api]\n---\nAPI auth rules\n")
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		runtime.GC()
	}
	if old.Value() != nil {
		t.Error("the snapshot before the rebuild is still referenced after its resource sync")
	}
}
