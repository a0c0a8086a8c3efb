package index

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
)

// TestWatchDirsCallsEveryDirectoryRead: a rebuild hands WatchDirs's function
// every directory whose content the snapshot depends on, once per read and
// before reading it: the root, the folders discovery walks (hidden ones
// included), the Agent Skills folders and their subfolders, and the resource
// directories of the tree skills (walked in the background); never .git nor
// node_modules, which are not skills.
func TestWatchDirsCallsEveryDirectoryRead(t *testing.T) {
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
	sn.Problems() // waits for the walks of the resource directories
	mu.Lock()
	sort.Strings(got)
	calls := len(got)
	mu.Unlock()
	want := []string{".", ".curated", "empty", "tools", "tools/git", "tools/git/references", "ui", "ui/auth", "ui/auth/assets", "ui/auth/scripts"}
	// tools/git/references is read twice: by discovery (a SKILL.md there would be a skill of its own) and by the folder's listing.
	if !slices.Equal(slices.Compact(slices.Clone(got)), want) {
		t.Errorf("directories read:\ngot  %v\nwant %v (each at least once)", got, want)
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
