package index

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestMaxFileBytes holds issue 16, item 13 in the index: a skill file over
// Options.MaxFileBytes is skipped with a problem naming it, the rest is
// indexed, and a body that grew past the limit since indexing is refused
// rather than read whole.
func TestMaxFileBytes(t *testing.T) {
	t.Parallel()
	const limit = 200
	small := "---\nname: small\ndescription: Small enough.\n---\n# Small\n"
	root := writeTree(t, map[string]string{
		"small/SKILL.md": small,
		"large/SKILL.md": "---\nname: large\ndescription: Too large.\n---\n" + strings.Repeat("x", limit),
	})
	ix := New(Options{Root: root, MaxFileBytes: limit})
	sn, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sn.Get("large"); ok {
		t.Errorf("got skill large indexed, want it skipped (over %d bytes)", limit)
	}
	s, ok := sn.Get("small")
	if !ok {
		t.Fatal("got skill small missing, want it indexed")
	}
	var named bool
	for _, p := range sn.Problems() {
		named = named || (p.File == "large/SKILL.md" && strings.Contains(p.Message, "over the limit"))
	}
	if !named {
		t.Errorf("got problems %+v, want one naming large/SKILL.md over the limit", sn.Problems())
	}
	if err := os.WriteFile(s.AbsPath, []byte(small+strings.Repeat("y", limit)), 0o644); err != nil {
		t.Fatal(err)
	}
	if body, err := sn.Body(s); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("Body of a file grown past the limit: got %d bytes, error %v; want an error over the limit", len(body), err)
	}
}
