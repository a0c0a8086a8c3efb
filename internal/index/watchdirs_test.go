package index

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestWatchDirsCallsEveryDirectoryRead: a rebuild hands WatchDirs's function
// every directory whose content the snapshot depends on, once per read and
// before reading it, each once: the root, the folders discovery walks (hidden ones
// included), the Agent Skills folders and their subfolders, and the resource
// directories of the tree skills (walked when their files or the problems are asked for); never .git nor
// node_modules, which are not skills.
func TestWatchDirsCallsEveryDirectoryRead(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"ui/auth.md":                    "---\ndescription: Auth flows.\nkeywords: [auth]\n---\n# auth\n",
		"ui/auth/scripts/run.sh":        "echo",
		"ui/auth/assets/logo.txt":       "logo",
		"tools/git/SKILL.md":            "---\nname: git\ndescription: Git.\n---\n# git\n",
		"tools/git/references/notes.md": "notes",
		".curated/deploy.md":            "---\ndescription: Deploy.\nkeywords: [deploy]\n---\n# deploy\n",
		".git/HEAD":                     "ref",
		"node_modules/x/readme.md":      "x",
		"empty/":                        "",
	})
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	ix := New(Options{Root: root})
	ix.WatchDirs(func(dir string) {
		rel, err := filepath.Rel(real, dir)
		if err != nil {
			t.Errorf("Rel(%s): %v", dir, err)
		}
		mu.Lock()
		got = append(got, filepath.ToSlash(rel))
		mu.Unlock()
	})
	sn, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	for _, d := range got {
		if strings.HasPrefix(d, "ui/auth") {
			t.Errorf("the rebuild read %s: a resource directory is read only when asked for", d)
		}
	}
	mu.Unlock()
	sn.Files(mustGet(t, sn, "ui/auth"))
	sn.Problems() // walks the rest, if any
	mu.Lock()
	sort.Strings(got)
	calls := len(got)
	mu.Unlock()
	want := []string{".", ".curated", "empty", "tools", "tools/git", "tools/git/references", "ui", "ui/auth", "ui/auth/assets", "ui/auth/scripts"}
	// tools/git/references is read once: discovery reads it (a SKILL.md there would be a skill of its own) and the folder's listing takes that.
	if !slices.Equal(got, want) {
		t.Errorf("directories read:\ngot  %v\nwant %v (each once)", got, want)
	}
	ix.WatchDirs(nil)
	sn, err = ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sn.Problems()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != calls {
		t.Errorf("after WatchDirs(nil): got %v, want no further call", got[calls:])
	}
}

// TestResourceDirectoryWalkedWhenAsked: a tree skill's resource directory is
// walked the first time its files are asked for, so what it holds then is
// listed, and the declared files are checked on disk with the problems: an
// asset written after the rebuild and before either is neither missing from
// the files nor reported missing.
func TestResourceDirectoryWalkedWhenAsked(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"ui/auth.md":       "---\ndescription: Auth flows.\nkeywords: [auth]\nassets:\n  - logo.txt\n  - later.txt\n  - never.txt\n---\n# auth\n",
		"ui/auth/logo.txt": "logo",
	})
	sn, err := New(Options{Root: root}).Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"ui/auth/later.txt": "later"})
	var paths []string
	for _, f := range sn.Files(mustGet(t, sn, "ui/auth")) {
		paths = append(paths, f.Path)
	}
	if want := []string{"later.txt", "logo.txt"}; !slices.Equal(paths, want) {
		t.Errorf("files: got %v, want %v", paths, want)
	}
	var missing []string
	for _, p := range sn.Problems() {
		if strings.Contains(p.Message, "missing on disk") {
			missing = append(missing, fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Message))
		}
	}
	if want := []string{`ui/auth.md:7 declared asset "never.txt" is missing on disk`}; !slices.Equal(missing, want) {
		t.Errorf("missing-on-disk problems: got %v, want %v", missing, want)
	}
}
