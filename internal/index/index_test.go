package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

func TestSnapshotBeforeFirstBuild(t *testing.T) {
	t.Parallel()
	ix := New(Options{Root: t.TempDir()})
	sn := ix.Snapshot()
	if sn == nil {
		t.Fatal("Snapshot: got nil, want an empty snapshot")
	}
	if sn.Len() != 0 || len(sn.Paths()) != 0 || len(sn.Skills()) != 0 {
		t.Errorf("got %d skills, want 0", sn.Len())
	}
	if sn.Searcher() == nil || sn.Searcher().Search("anything") != nil {
		t.Errorf("Searcher: want a non-nil searcher that matches nothing")
	}
	if got := sn.Tree(""); got == nil || len(got) != 0 {
		t.Errorf("Tree: got %v, want empty non-nil", got)
	}
}

func TestRebuildBuildsSearcher(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":     "---\ndescription: root\nkeywords: [global]\n---\n",
		"ui/_index.md": "---\ndescription: ui\nkeywords: [ui, react]\npriority: 2\n---\n",
		"api/auth.md":  "---\ndescription: api\nkeywords: [auth, react]\n---\n",
	})
	m := &fakeMatcher{}
	ix := New(Options{Root: root, Matcher: m})
	sn, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	if ix.Snapshot() != sn {
		t.Errorf("Snapshot: want the snapshot Rebuild returned")
	}
	if m.builds != 1 {
		t.Errorf("matcher builds: got %d, want 1", m.builds)
	}
	got := sn.Searcher().Search("react please")
	want := []core.Match{
		{Path: "ui/_index", Score: 1.002, MatchedKeywords: []string{"react"}},
		{Path: "api/auth", Score: 1, MatchedKeywords: []string{"react"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	skills := sn.Skills()
	if len(skills) != 3 || skills[0].Path != "_root" || skills[1].Path != "api/auth" || skills[2].Path != "ui/_index" {
		t.Errorf("Skills: got %v, want sorted _root, api/auth, ui/_index", sn.Paths())
	}
}

func TestRelativeRootMadeAbsolute(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.md": skillMD("d", "", "")})
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil {
		t.Skip("temp dir not reachable relatively:", err)
	}
	sn, err := New(Options{Root: rel}).Rebuild(context.Background())
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	s := mustGet(t, sn, "a")
	if s.Root != root || s.AbsPath != filepath.Join(root, "a.md") {
		t.Errorf("got Root %q AbsPath %q, want under %q", s.Root, s.AbsPath, root)
	}
}

func TestRebuildErrorKeepsPreviousSnapshot(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	root := filepath.Join(parent, "skills")
	writeFiles(t, root, map[string]string{"a.md": skillMD("d", "", "")})
	ix := New(Options{Root: root})
	first, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatalf("first Rebuild: %v", err)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	sn, err := ix.Rebuild(context.Background())
	if !errors.Is(err, fs.ErrNotExist) || sn != nil {
		t.Fatalf("Rebuild of a missing root: got %v, %v, want a not-exist error", sn, err)
	}
	if ix.Snapshot() != first || first.Len() != 1 {
		t.Errorf("Snapshot after a failed rebuild: want the previous one with 1 skill")
	}
	if err := os.WriteFile(root, []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Rebuild(context.Background()); err == nil {
		t.Errorf("Rebuild of a file: got nil error, want one")
	}
}

func TestRebuildPicksUpChanges(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.md": skillMD("d", "", "")})
	ix := New(Options{Root: root})
	first, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"b.md": skillMD("d", "", "")})
	if err := os.Remove(filepath.Join(root, "a.md")); err != nil {
		t.Fatal(err)
	}
	second, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := first.Paths(), []string{"a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("old snapshot: got %q, want %q", got, want)
	}
	if got, want := second.Paths(), []string{"b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("new snapshot: got %q, want %q", got, want)
	}
}

// TestConcurrentReadersDuringRebuilds runs readers against repeated rebuilds of
// a changing tree (run it with -race). Each rebuild n holds skills gen/s0..s{n};
// a reader checks that whatever snapshot it holds is consistent with itself
// (Len, Paths, Get, Chain, the searcher's view, the tree) and stays so.
func TestConcurrentReadersDuringRebuilds(t *testing.T) {
	t.Parallel()
	const rebuilds = 30
	const readers = 4
	root := writeTree(t, map[string]string{
		"_root.md":      skillMD("root", "", "root"),
		"gen/_index.md": skillMD("gen", "", "gen"),
	})
	ix := New(Options{Root: root, Matcher: &fakeMatcher{}})
	done := make(chan struct{})
	errs := make(chan error, readers)
	var wg sync.WaitGroup
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var held *Snapshot
			var heldPaths []string
			for {
				sn := ix.Snapshot()
				if err := checkConsistent(sn); err != nil {
					errs <- err
					return
				}
				if held == nil && sn.Len() > 2 {
					held, heldPaths = sn, sn.Paths()
				}
				if held != nil && !reflect.DeepEqual(held.Paths(), heldPaths) {
					errs <- fmt.Errorf("held snapshot changed: got %q, want %q", held.Paths(), heldPaths)
					return
				}
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	for n := 0; n < rebuilds; n++ {
		writeFiles(t, root, map[string]string{fmt.Sprintf("gen/s%02d.md", n): skillMD("d", "", fmt.Sprint(n))})
		if n%3 == 2 {
			if err := os.Remove(filepath.Join(root, fmt.Sprintf("gen/s%02d.md", n-1))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ix.Rebuild(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	want := 2 + rebuilds - rebuilds/3
	if got := ix.Snapshot().Len(); got != want {
		t.Errorf("final Len: got %d, want %d", got, want)
	}
}

// checkConsistent verifies that every view of sn agrees with every other.
func checkConsistent(sn *Snapshot) error {
	paths := sn.Paths()
	if len(paths) != sn.Len() || len(sn.Skills()) != sn.Len() {
		return fmt.Errorf("Len %d, Paths %d, Skills %d disagree", sn.Len(), len(paths), len(sn.Skills()))
	}
	matched := map[string]bool{}
	for _, m := range sn.Searcher().Search("") {
		matched[m.Path] = true
	}
	if sn.Len() > 0 && len(matched) != sn.Len() {
		return fmt.Errorf("searcher sees %d skills, snapshot holds %d", len(matched), sn.Len())
	}
	for _, p := range paths {
		s, ok := sn.Get(p)
		if !ok {
			return fmt.Errorf("Get(%q) failed on a listed path", p)
		}
		if sn.Len() > 0 && !matched[p] {
			return fmt.Errorf("searcher misses %q", p)
		}
		if chain := sn.Chain(s); chain[len(chain)-1] != s {
			return fmt.Errorf("chain of %q does not end with it", p)
		}
	}
	if sn.Len() > 0 {
		if tree := sn.Tree(""); len(tree) != 1 || len(tree[0].Children) != 1 || len(tree[0].Children[0].Children) != sn.Len()-2 {
			return fmt.Errorf("tree does not hold the %d skills", sn.Len())
		}
	}
	return nil
}

// TestRebuildStopsWhenItsContextEnds: a rebuild whose context has ended
// (shutdown during a refresh) stops, says why, and leaves the previous
// snapshot current.
func TestRebuildStopsWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("c%d/s%d.md", i%10, i)] = skillMD(fmt.Sprintf("skill %d", i), "", "")
	}
	root := writeTree(t, files)
	ix := New(Options{Root: root})
	first, err := ix.Rebuild(context.Background())
	if err != nil || first.Len() != 200 {
		t.Fatalf("first Rebuild: %v skills, %v; want 200", first.Len(), err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	shutdown := errors.New("shutting down")
	cancel(shutdown)
	sn, err := ix.Rebuild(ctx)
	if !errors.Is(err, shutdown) || sn != nil {
		t.Fatalf("Rebuild with an ended context: got %v, %v; want an error wrapping its cause", sn, err)
	}
	if ix.Snapshot() != first {
		t.Error("Snapshot after a cancelled rebuild: want the previous one")
	}
}
