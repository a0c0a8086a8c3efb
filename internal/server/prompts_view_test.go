package server

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// TestPromptsViewOnlyOnceAsked holds the prompts view to what it costs: none
// until prompts are asked for, and never one of a snapshot no longer served.
func TestPromptsViewOnlyOnceAsked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "deploy.md"), []byte("---\ndescription: Deploy\nkeywords: [deploy]\n---\nBody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	idx := index.New(index.Options{Root: dir, Matcher: keyword.New()})
	if sn, err := idx.Rebuild(context.Background()); err != nil || sn.Len() != 1 {
		t.Fatalf("index of one skill: %v", err)
	}
	s := New(Options{Index: idx, Config: config.Default()})
	if v := s.prompts.current.Load(); v != nil {
		t.Fatal("a prompts view was kept before any client asked for prompts")
	}
	if _, err := s.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v := s.prompts.current.Load(); v != nil {
		t.Fatal("a reload kept a prompts view no client asked for")
	}
	if got := len(s.promptsView().listed); got != 2 {
		t.Fatalf("prompts listed = %d, want get_skill and deploy", got)
	}
	snap, err := s.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v := s.prompts.current.Load(); v == nil || v.snap != snap {
		t.Fatal("after a reload the view is not that of the snapshot served")
	}
}
