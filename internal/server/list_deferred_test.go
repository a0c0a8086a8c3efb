package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// TestLargeListSkillsOverStdio: a whole-tree list_skills large enough to be
// written by the stdio connection from where it lies (stdio.Deferred) is
// the line the go-sdk writes for the handler's result (HTML characters as
// they are), and the line of the pre-encoded path it replaced.
func TestLargeListSkillsOverStdio(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	desc := strings.Repeat("Deploy <b>services</b> & \"quote\" \\ é 🙂 \u2028 ", 8)
	for i := range 400 {
		p := filepath.Join(dir, fmt.Sprintf("area%d", i%7), fmt.Sprintf("skill-%03d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("---\ndescription: %q\nkeywords: [k%d, \"<x>&\"]\n---\nBody %d\n", desc, i, i)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx := index.New(index.Options{Root: dir, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Index: idx, Config: config.Default()})
	res, _, err := srv.handleListSkills(context.Background(), nil, listSkillsArgs{})
	if err != nil {
		t.Fatal(err)
	}
	text, sj, _, ok := largeParts(res)
	if !ok || sj == nil || encodedSize(text, *sj) < largeDeferred {
		t.Fatalf("the list is not large enough to be deferred: %d bytes of text", len(text))
	}
	sameResult(t, res)
	unescaped := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(responseJSON(t, res)))
	pre := string(preEncode(text, *sj, false, nil).encoded)
	if pre != unescaped {
		t.Fatal("the pre-encoded result differs from the go-sdk's")
	}

	c := startStdio(t, srv)
	c.send(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n"))
	c.answer(t)
	c.send(t, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"))
	for _, id := range []string{`2`, `"list-é"`} {
		c.send(t, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"list_skills","arguments":{}}}`+"\n"))
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":` + unescaped + "}\n"
		if got := string(c.answer(t)); got != want {
			t.Errorf("id %s: got %d bytes, want %d bytes", id, len(got), len(want))
		}
	}
}
