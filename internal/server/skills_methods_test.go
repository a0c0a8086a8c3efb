package server_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// wantSkillURIs are the skills of skillsTree, sorted by URI.
var wantSkillURIs = []string{
	"skill://acme/billing/refunds/SKILL.md",
	"skill://api/auth/SKILL.md",
	"skill://pdf-processing/SKILL.md",
	"skill://root/SKILL.md",
	"skill://ui/SKILL.md",
	"skill://ui/react/SKILL.md",
	"skill://ui/react/auth/SKILL.md",
}

func TestSkillsListMethod(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", legacyProtocol} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			h := startSkills(t, writeTree(t, skillsTree()), nil, nil, protocol)
			res, err := h.listSkills(t, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.ResultType != "complete" || res.TTLMs == nil || *res.TTLMs <= 0 || res.CacheScope != "public" || res.NextCursor != "" {
				t.Errorf("got resultType %q ttlMs %v cacheScope %q nextCursor %q, want complete, a positive ttl, public, none",
					res.ResultType, res.TTLMs, res.CacheScope, res.NextCursor)
			}
			var uris []string
			for _, s := range res.Skills {
				uris = append(uris, s.URI)
			}
			if !reflect.DeepEqual(uris, wantSkillURIs) {
				t.Errorf("got %v,\nwant %v", uris, wantSkillURIs)
			}
		})
	}
}

// TestSkillsEntries checks each entry: the verbatim frontmatter, and a complete
// manifest whose every digest and size match the bytes resources/read returns
// (and, for files on disk, the bytes of the file).
func TestSkillsEntries(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	tests := []struct {
		name, uri, frontmatter string
		files                  map[string]string // URI → file on disk, relative to the root ("" for a rendered SKILL.md)
	}{
		{name: "agent skill: frontmatter verbatim, keys in file order", uri: "skill://pdf-processing/SKILL.md",
			frontmatter: `{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents","license":"Apache-2.0","metadata":{"version":"2.1.0","author":"acme"}}`,
			files: map[string]string{
				"skill://pdf-processing/SKILL.md":                         "pdf-processing/SKILL.md",
				"skill://pdf-processing/assets/empty.txt":                 "pdf-processing/assets/empty.txt",
				"skill://pdf-processing/assets/latin1.txt":                "pdf-processing/assets/latin1.txt",
				"skill://pdf-processing/assets/logo.png":                  "pdf-processing/assets/logo.png",
				"skill://pdf-processing/references/FORMS.md":              "pdf-processing/references/FORMS.md",
				"skill://pdf-processing/scripts/extract.py":               "pdf-processing/scripts/extract.py",
				"skill://pdf-processing/scripts/fill.wasm":                "pdf-processing/scripts/fill.wasm",
				"skill://pdf-processing/templates/invoice.md":             "pdf-processing/templates/invoice.md",
				"skill://pdf-processing/templates/purchase-order.md":      "pdf-processing/templates/purchase-order.md",
				"skill://pdf-processing/templates/regional/eu-invoice.md": "pdf-processing/templates/regional/eu-invoice.md",
			}},
		{name: "agent skill under a prefix", uri: "skill://acme/billing/refunds/SKILL.md",
			frontmatter: `{"name":"refunds","description":"Process customer refund requests per company policy"}`,
			files: map[string]string{
				"skill://acme/billing/refunds/SKILL.md":          "acme/billing/refunds/SKILL.md",
				"skill://acme/billing/refunds/examples/email.md": "acme/billing/refunds/examples/email.md",
			}},
		{name: "tree skill with a resource directory", uri: "skill://ui/react/auth/SKILL.md",
			frontmatter: `{"name":"auth","description":"React authentication: components and patterns"}`,
			files: map[string]string{
				"skill://ui/react/auth/SKILL.md":         "",
				"skill://ui/react/auth/AuthProvider.tsx": "ui/react/auth/AuthProvider.tsx",
				"skill://ui/react/auth/flow.png":         "ui/react/auth/flow.png",
			}},
		{name: "_root", uri: "skill://root/SKILL.md", frontmatter: `{"name":"root","description":"Global rules"}`,
			files: map[string]string{"skill://root/SKILL.md": "", "skill://root/global.css": "_root/global.css"}},
		{name: "a category lists the skills nested under it", uri: "skill://ui/SKILL.md", frontmatter: `{"name":"ui","description":"UI rules"}`,
			files: map[string]string{
				"skill://ui/SKILL.md":                    "",
				"skill://ui/design-tokens.json":          "ui/_index/design-tokens.json",
				"skill://ui/react/SKILL.md":              "",
				"skill://ui/react/auth/SKILL.md":         "",
				"skill://ui/react/auth/AuthProvider.tsx": "ui/react/auth/AuthProvider.tsx",
				"skill://ui/react/auth/flow.png":         "ui/react/auth/flow.png",
			}},
		{name: "tree skill without a resource directory", uri: "skill://api/auth/SKILL.md",
			frontmatter: `{"name":"auth","description":"API authentication"}`, files: map[string]string{"skill://api/auth/SKILL.md": ""}},
	}
	listed := map[string]wireSkill{}
	all, _ := h.allSkills(t)
	for _, s := range all {
		listed[s.URI] = s
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.mustGetSkill(t, tt.uri)
			if !reflect.DeepEqual(got, listed[tt.uri]) {
				t.Errorf("skills/get and skills/list disagree:\n%+v\n%+v", got, listed[tt.uri])
			}
			if got.URI != tt.uri || string(got.Frontmatter) != tt.frontmatter {
				t.Errorf("got uri %s frontmatter %s, want %s %s", got.URI, got.Frontmatter, tt.uri, tt.frontmatter)
			}
			var uris []string
			for _, r := range got.Resources {
				uris = append(uris, r.URI)
				data, _ := h.readBytes(t, r.URI)
				if d := sha256Digest(data); d != r.Digest || int64(len(data)) != r.Size {
					t.Errorf("%s: listed %s (%d bytes), read %s (%d bytes)", r.URI, r.Digest, r.Size, d, len(data))
				}
				if rel := tt.files[r.URI]; rel != "" {
					disk, err := os.ReadFile(filepath.Join(h.dir, filepath.FromSlash(rel)))
					if err != nil {
						t.Fatal(err)
					}
					if d := sha256Digest(disk); d != r.Digest || int64(len(disk)) != r.Size {
						t.Errorf("%s: listed %s (%d bytes), file %s (%d bytes)", r.URI, r.Digest, r.Size, d, len(disk))
					}
				}
			}
			want := make([]string, 0, len(tt.files))
			for uri := range tt.files {
				want = append(want, uri)
			}
			sort.Strings(want)
			if !reflect.DeepEqual(uris, want) {
				t.Errorf("got resources %v,\nwant %v", uris, want)
			}
		})
	}
}

func TestSkillsGetMethod(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	res, err := h.getSkill(t, "skill://pdf-processing/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if res.ResultType != "complete" || res.TTLMs == nil || *res.TTLMs <= 0 || res.CacheScope != "public" || res.NextCursor != nil {
		t.Errorf("got resultType %q ttlMs %v cacheScope %q nextCursor %v, want complete, a positive ttl, public, no cursor",
			res.ResultType, res.TTLMs, res.CacheScope, res.NextCursor)
	}
	errorCases := []struct{ name, uri string }{
		{name: "unknown skill", uri: "skill://acme/billing/chargebacks/SKILL.md"},
		{name: "a file that is not a SKILL.md", uri: "skill://pdf-processing/references/FORMS.md"},
		{name: "a skill directory", uri: "skill://pdf-processing"},
		{name: "a nested SKILL.md that is not a skill", uri: "skill://ui/_index/SKILL.md"},
		{name: "the tree path of a category", uri: "skill://ui/_index"},
		{name: "another scheme", uri: "file:///etc/passwd"},
		{name: "empty", uri: ""},
	}
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.getSkill(t, tt.uri)
			if code := rpcCode(err); code != -32602 {
				t.Errorf("got %v (code %d), want -32602", err, code)
			}
		})
	}
}

func TestSkillsListPagination(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	var want []string
	for i := range 120 {
		name := fmt.Sprintf("skill-%03d", i)
		files[name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: Skill " + name + "\n---\nBody.\n"
		files[name+"/ref.md"] = "ref " + name
		want = append(want, "skill://"+name+"/SKILL.md")
	}
	h := startSkills(t, writeTree(t, files), nil, nil, "")
	all, pages := h.allSkills(t)
	var got []string
	for _, s := range all {
		got = append(got, s.URI)
		if len(s.Resources) != 2 {
			t.Errorf("%s: got %d resources, want 2 (an entry is never split)", s.URI, len(s.Resources))
		}
	}
	if pages < 2 {
		t.Errorf("got %d pages for 120 skills, want several", pages)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %d skills (%v … ), want %d in order without duplicates", len(got), got[:min(3, len(got))], len(want))
	}

	t.Run("a rebuild between pages neither repeats nor skips", func(t *testing.T) {
		first, err := h.listSkills(t, "")
		if err != nil || first.NextCursor == "" {
			t.Fatalf("got %v, %v, want a first page with a cursor", first, err)
		}
		addSkill(t, h.dir, "aaa-early") // sorts before the cursor: not on a later page
		if _, err := h.srv.Rebuild(context.Background()); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, s := range first.Skills {
			seen[s.URI] = true
		}
		for cursor := first.NextCursor; cursor != ""; {
			page, err := h.listSkills(t, cursor)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range page.Skills {
				if seen[s.URI] {
					t.Errorf("%s listed twice", s.URI)
				}
				seen[s.URI] = true
			}
			cursor = page.NextCursor
		}
		if len(seen) != len(want) {
			t.Errorf("got %d skills across the rebuild, want %d", len(seen), len(want))
		}
	})

	t.Run("invalid cursor", func(t *testing.T) {
		// not base64; made up (the base64url of a URI, what a cursor held
		// before it was checked)
		for _, cursor := range []string{"not base64 !", "c2tpbGw6Ly9h"} {
			_, err := h.listSkills(t, cursor)
			if code := rpcCode(err); code != -32602 || !strings.Contains(err.Error(), "invalid cursor") {
				t.Errorf("cursor %q: got %v (code %d), want -32602 invalid cursor", cursor, err, code)
			}
		}
	})
}

// TestSkillsDigestsFollowEdits: a rebuild after an edit changes the digest of
// the edited file, and of every rendered SKILL.md that inherits the edited text.
func TestSkillsDigestsFollowEdits(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	digests := func(uri string) map[string]wireSkillResource {
		out := map[string]wireSkillResource{}
		for _, r := range h.mustGetSkill(t, uri).Resources {
			out[r.URI] = r
		}
		return out
	}
	pdfBefore, authBefore := digests("skill://pdf-processing/SKILL.md"), digests("skill://ui/react/auth/SKILL.md")
	edits := map[string]string{
		"pdf-processing/templates/invoice.md": "# Invoice, version 2\n",
		"ui/_index.md":                        "---\ndescription: UI rules\nkeywords: [ui]\n---\nUI rules, revised\n",
	}
	for rel, content := range edits {
		if err := os.WriteFile(filepath.Join(h.dir, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	pdfAfter, authAfter := digests("skill://pdf-processing/SKILL.md"), digests("skill://ui/react/auth/SKILL.md")
	tests := []struct {
		name, uri     string
		before, after map[string]wireSkillResource
		changed       bool
	}{
		{name: "edited file", uri: "skill://pdf-processing/templates/invoice.md", before: pdfBefore, after: pdfAfter, changed: true},
		{name: "sibling file", uri: "skill://pdf-processing/templates/purchase-order.md", before: pdfBefore, after: pdfAfter, changed: false},
		{name: "SKILL.md of the edited skill", uri: "skill://pdf-processing/SKILL.md", before: pdfBefore, after: pdfAfter, changed: false},
		{name: "rendered SKILL.md inheriting the edited parent", uri: "skill://ui/react/auth/SKILL.md", before: authBefore, after: authAfter, changed: true},
		{name: "file of the inheriting skill", uri: "skill://ui/react/auth/AuthProvider.tsx", before: authBefore, after: authAfter, changed: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, a := tt.before[tt.uri], tt.after[tt.uri]
			if a.Digest == "" || b.Digest == "" {
				t.Fatalf("%s missing: before %+v after %+v", tt.uri, b, a)
			}
			if got := a.Digest != b.Digest; got != tt.changed {
				t.Errorf("digest changed = %v (%s → %s), want %v", got, b.Digest, a.Digest, tt.changed)
			}
			data, _ := h.readBytes(t, tt.uri)
			if d := sha256Digest(data); d != a.Digest || int64(len(data)) != a.Size {
				t.Errorf("read %s (%d bytes), listed %s (%d bytes)", d, len(data), a.Digest, a.Size)
			}
		})
	}
	if text, _ := h.readBytes(t, "skill://ui/react/auth/SKILL.md"); !strings.Contains(string(text), "UI rules, revised") {
		t.Errorf("rendered SKILL.md does not carry the edited parent:\n%s", text)
	}
}
