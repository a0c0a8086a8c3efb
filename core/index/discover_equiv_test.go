package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// TestDiscoverMatchesWalkDir compares discover with the filepath.WalkDir
// walk it replaced (discoverByWalkDir, below): same files, same problems, on
// the fixture trees, the examples, a generated corpus, and a tree of the
// corners (symlinks in and out, resource directories holding SKILL.md, a
// SKILL.md at the root, dot-files, a directory named like a Markdown file).
func TestDiscoverMatchesWalkDir(t *testing.T) {
	generated := t.TempDir()
	if _, _, err := corpus.Generate(generated, corpus.Options{Skills: 250}); err != nil {
		t.Fatal(err)
	}
	corners := writeTree(t, map[string]string{
		"SKILL.md":                 "x",
		"a.md":                     "x",
		"a/SKILL.md":               "x",
		"a/b.md":                   "x",
		"kit/SKILL.md":             "x",
		"kit/nested/SKILL.md":      "x",
		"kit/references/r.md":      "x",
		".hidden/x.md":             "x",
		".dot.md":                  "x",
		"dir.md/":                  "",
		"dir/x.md":                 "x",
		"deep/er/still/leaf.md":    "x",
		"deep/er/still/leaf/as.md": "x",
		"notes.txt":                "x",
	})
	outside := writeTree(t, map[string]string{"o.md": "x", "SKILL.md": "x"})
	for link, target := range map[string]string{
		"in-link.md":       filepath.Join(corners, "a.md"),
		"out-link.md":      filepath.Join(outside, "o.md"),
		"dirlink":          filepath.Join(corners, "dir"),
		"linked-kit":       outside,
		"lk/SKILL.md":      filepath.Join(corners, "a.md"),
		"lk2/SKILL.md":     filepath.Join(outside, "SKILL.md"),
		"deep/er/x.md":     filepath.Join(corners, "deep/er/still/leaf.md"),
		"broken.md":        filepath.Join(corners, "missing.md"),
		"deep/er/still.md": filepath.Join(corners, "a.md"),
	} {
		p := filepath.Join(corners, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"../../testdata", "../../examples", generated, corners} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			roots := []string{dir}
			if entries, err := os.ReadDir(dir); err == nil && filepath.Base(dir) == "testdata" {
				roots = nil
				for _, e := range entries {
					if e.IsDir() {
						roots = append(roots, filepath.Join(dir, e.Name()))
					}
				}
			}
			for _, root := range roots {
				newB := &builder{logger: hclog.NewNullLogger(), listings: map[*core.Skill]folderListing{}}
				oldB := &builder{logger: hclog.NewNullLogger(), listings: map[*core.Skill]folderListing{}}
				got, gotErr := discoverSorted(newB, root)
				want, wantErr := oldB.discoverByWalkDir(root)
				for i, f := range got { // the listing handed on is the folder's
					if f.AgentDir != "" {
						if g, w := entryNames(f.entries), entryNames(listedEntries(f.RealDir)); !reflect.DeepEqual(g, w) {
							t.Errorf("%s: got entries %v, want %v", f.Rel, g, w)
						}
					}
					got[i].entries = nil
				}
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Errorf("%s: got error %v, want %v", root, gotErr, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: got files\n%+v\nwant\n%+v", root, got, want)
				}
				if !reflect.DeepEqual(sortProblems(newB.problems), sortProblems(oldB.problems)) {
					t.Errorf("%s: got problems\n%+v\nwant\n%+v", root, newB.problems, oldB.problems)
				}
				if len(want) == 0 {
					t.Errorf("%s: no skill file found, the comparison proves nothing", root)
				}
			}
		})
	}
}

// discoverByWalkDir is the discovery walk discover replaced, kept as its
// reference.
func (b *builder) discoverByWalkDir(root string) ([]discovered, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	fi, err := os.Stat(realRoot)
	if err != nil {
		return nil, fmt.Errorf("reading skills directory %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("reading skills directory %s: not a directory", root)
	}
	var found []discovered
	walkErr := filepath.WalkDir(realRoot, func(p string, d fs.DirEntry, err error) error {
		if p == realRoot {
			if err != nil {
				return fmt.Errorf("reading skills directory %s: %w", root, err)
			}
			return nil
		}
		rel, relErr := filepath.Rel(realRoot, p)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			b.skip(rel, 1, err)
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if d.IsDir() {
			hasSkillMD := isSkillFile(realRoot, filepath.Join(p, agentSkillFile))
			if isSkillFile(realRoot, p+".md") {
				if hasSkillMD {
					b.warn(rel+"/"+agentSkillFile, 1, SeverityWarning,
						fmt.Sprintf("not indexed: %s/ is the resource directory of %s.md, so its files are assets of that skill", rel, rel))
				}
				return filepath.SkipDir // a resource directory: its .md files are assets
			}
			if hasSkillMD {
				found = append(found, discovered{Rel: rel + "/" + agentSkillFile, Abs: filepath.Join(abs, agentSkillFile), AgentDir: rel, RealDir: evalSymlinks(abs)})
				return filepath.SkipDir // an Agent Skills folder: everything inside is its content
			}
			return nil
		}
		if rel == agentSkillFile {
			if isSkillFile(realRoot, p) {
				b.skip(rel, 1, fmt.Errorf("a SKILL.md at the root of a skills directory is not a skill: put it in a folder named after the skill"))
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".md") && isSkillFile(realRoot, p) {
			f := discovered{Rel: rel, Abs: abs, ResourceDir: resourceDirOf(abs)}
			if f.ResourceDir != "" {
				f.RealDir = evalSymlinks(f.ResourceDir)
			}
			found = append(found, f)
		}
		return nil
	})
	if walkErr != nil {
		return nil, walkErr
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Rel < found[j].Rel })
	return found, nil
}

// resourceDirOf is how the resource directory of a tree file was found before
// discovery took it from the listing, kept as its reference: the file's path
// without `.md` when that is a real directory (lstat), else "".
func resourceDirOf(absFile string) string {
	dir := strings.TrimSuffix(absFile, ".md")
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
		return dir
	}
	return ""
}

// evalSymlinks is filepath.EvalSymlinks, "" on an error.
func evalSymlinks(p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return real
}

// listedEntries is os.ReadDir, ignoring its error.
func listedEntries(p string) []fs.DirEntry {
	entries, _ := os.ReadDir(p)
	return entries
}

// entryNames lists the names of entries.
func entryNames(entries []fs.DirEntry) []string {
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// discoverSorted is discoverEach's files sorted by Rel, as discoverByWalkDir
// returns them.
func discoverSorted(b *builder, root string) ([]discovered, error) {
	var found []discovered
	if err := b.discoverEach(root, func(f discovered) { found = append(found, f) }); err != nil {
		return nil, err
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Rel < found[j].Rel })
	return found, nil
}
