package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/gctune"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/search"
	rankedmatcher "github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// TestSearchIndexBuildReturnsItsGarbage: building skills_search's index reads
// every body, and an idle server would keep that garbage resident; once the
// index is built the free heap is handed back to the system and the
// collector's goal is the one from before.
func TestSearchIndexBuildReturnsItsGarbage(t *testing.T) {
	if gcTuning.operatorGC {
		t.Skip("GOGC is set: the collector is the operator's")
	}
	root := t.TempDir()
	var body strings.Builder
	for i := range 200 {
		for j := range 400 {
			fmt.Fprintf(&body, "word%d_%d token%d ", i, j, j%97)
		}
		name := filepath.Join(root, fmt.Sprintf("area%d", i%10), fmt.Sprintf("skill%d.md", i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("---\ndescription: Skill %d\nkeywords: [skill]\n---\n# Skill %d\n%s\n", i, i, body.String())
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		body.Reset()
	}
	snap, err := index.New(index.Options{Root: root, Matcher: rankedmatcher.New()}).Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if snap.Len() != 200 {
		t.Fatalf("indexed %d skills, want 200", snap.Len())
	}
	before := gcPercent()
	runtime.GC()
	held0 := heapHeld()
	engine := search.New(search.Options{Build: buildReleasing(&gctune.Policy{})})
	if hits, _, err := engine.Search(context.Background(), snap, "token7", search.Tokens("token7"), 1); err != nil || len(hits) == 0 {
		t.Fatalf("search: %d hits, error %v", len(hits), err)
	}
	held := heapHeld() - held0
	t.Logf("heap held after the build: %.1f MiB more than before", float64(held)/(1<<20))
	if held > 12<<20 {
		t.Errorf("after the build the heap holds %.1f MiB more than before it; the index is about 5 MiB: the build's garbage was kept", float64(held)/(1<<20))
	}
	if got := gcPercent(); got != before {
		t.Errorf("after the build GOGC is %d, want %d as before it", got, before)
	}
}

// heapHeld is the heap memory the process holds from the system: live and
// dead objects, free spans not yet returned, and the unused parts of spans.
func heapHeld() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
	}
	metrics.Read(s)
	var n int64
	for _, v := range s {
		n += int64(v.Value.Uint64())
	}
	return n
}
