package index

import (
	"context"
	"reflect"
	"testing"
	"unsafe"
)

// TestRebuildSharesUnchangedStrings: a rebuild gives the skills a build from
// scratch gives, edits of the same size included, and an unchanged skill holds
// the strings of the snapshot before it instead of copies of its own.
func TestRebuildSharesUnchangedStrings(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":           skillMD("Global rules", "", "Global\n"),
		"api/auth.md":        skillMD("API authentication", "assets:\n  - file: tokens.md\n    description: Token rules\n", "Auth\n"),
		"api/auth/tokens.md": "tokens\n",
		"api/rest.md":        skillMD("REST conventions alpha", "", "REST\n"),
		"ops/deploy.md":      skillMD("Deploy", "scripts:\n  - file: run.sh\n    description: Deploys\n    args:\n      - name: env\n        description: Where\n", "Deploy\n"),
		"ops/deploy/run.sh":  "#!/bin/sh\n",
		"pdf/SKILL.md":       "---\nname: pdf\ndescription: Fill PDF forms\n---\nPDF\n",
		"pdf/forms.md":       "forms\n",
	})
	ix := New(Options{Root: root, Matcher: &fakeMatcher{}})
	before, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Same size, so only the bytes tell: a description and a keyword.
	writeFiles(t, root, map[string]string{
		"api/rest.md":   skillMD("REST conventions bravo", "", "REST\n"),
		"ops/deploy.md": skillMD("Deploy", "scripts:\n  - file: run.sh\n    description: Deploys\n    args:\n      - name: env\n        description: When\n", "Deploy\n"),
	})
	after, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(Options{Root: root, Matcher: &fakeMatcher{}}).Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := after.Skills(), fresh.Skills(); len(got) != len(want) {
		t.Fatalf("got %d skills, want %d", len(got), len(want))
	} else {
		for i := range got {
			if !reflect.DeepEqual(*got[i], *want[i]) {
				t.Errorf("%s after a rebuild:\n got %+v\nwant %+v", want[i].Path, *got[i], *want[i])
			}
		}
	}
	if d := mustGet(t, after, "api/rest").Description; d != "REST conventions bravo" {
		t.Errorf("edited description: got %q", d)
	}
	if d := mustGet(t, after, "ops/deploy").Scripts[0].Args[0].Description; d != "When" {
		t.Errorf("edited argument description: got %q", d)
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	for _, path := range []string{"_root", "api/auth", "pdf"} {
		was, now := mustGet(t, before, path), mustGet(t, after, path)
		if !same(was.AbsPath, now.AbsPath) || !same(was.Description, now.Description) || !same(was.Path, now.Path) {
			t.Errorf("%s: unchanged, but its strings are copies", path)
		}
	}
	if a, b := mustGet(t, before, "api/auth").Assets[0], mustGet(t, after, "api/auth").Assets[0]; !same(a.AbsPath, b.AbsPath) || !same(a.Description, b.Description) {
		t.Error("api/auth: unchanged, but its asset's strings are copies")
	}
	for _, path := range []string{"api/rest", "ops/deploy"} {
		if was, now := mustGet(t, before, path), mustGet(t, after, path); same(was.AbsPath, now.AbsPath) {
			t.Errorf("%s: edited, but it holds strings of the snapshot before", path)
		}
	}
}
