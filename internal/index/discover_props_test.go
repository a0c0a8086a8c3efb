package index

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoveryAccountsForEverySkillFile builds random trees of Agent Skills
// folders, hidden and VCS folders, nested skills, directory and SKILL.md
// symlinks (mirrors, links out of the root, dangling links, loops) and holds
// discovery to what issue 15 asks: no file is served twice, every SKILL.md
// under the root is served or reported, and every symlink is followed or
// reported.
func TestDiscoveryAccountsForEverySkillFile(t *testing.T) {
	t.Parallel()
	total, links := 0, 0
	for seed := range uint64(60) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 15))
			root, outside := t.TempDir(), t.TempDir()
			var dirs []string // folders made so far, relative to root
			var skillDirs []string
			mk := func(base, rel string, skill bool) {
				p := filepath.Join(base, filepath.FromSlash(rel))
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
				if skill {
					name := filepath.Base(p)
					if err := os.WriteFile(filepath.Join(p, "SKILL.md"), []byte(agentMD(name, "d "+name, "", "")), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			names := []string{"a", "b", ".hidden", ".git", "node_modules", "skills", "nested"}
			for range 12 {
				parent := ""
				if len(dirs) > 0 && rng.IntN(2) == 0 {
					parent = dirs[rng.IntN(len(dirs))] + "/"
				}
				rel := fmt.Sprintf("%s%s%d", parent, names[rng.IntN(len(names))], rng.IntN(3))
				skill := rng.IntN(2) == 0
				mk(root, rel, skill)
				dirs = append(dirs, rel)
				if skill {
					skillDirs = append(skillDirs, rel)
				}
			}
			mk(outside, "ext", true)
			link := func(rel, target string) {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
					_ = os.Symlink(target, p) // an existing name: no link, as in life
				}
			}
			for i := range 6 {
				switch rng.IntN(5) {
				case 0: // a mirror of a folder
					if len(dirs) > 0 {
						link(fmt.Sprintf(".codex/l%d", i), filepath.Join(root, filepath.FromSlash(dirs[rng.IntN(len(dirs))])))
					}
				case 1: // a SKILL.md mirror
					if len(skillDirs) > 0 {
						link(fmt.Sprintf(".gemini/s%d/SKILL.md", i), filepath.Join(root, filepath.FromSlash(skillDirs[rng.IntN(len(skillDirs))]), "SKILL.md"))
					}
				case 2:
					link(fmt.Sprintf("ext%d", i), filepath.Join(outside, "ext"))
				case 3:
					link(fmt.Sprintf("gone%d", i), filepath.Join(root, "nowhere"))
				default:
					link(fmt.Sprintf("loop%d", i), root)
				}
			}
			sn, _ := mustBuild(t, root)
			served := map[string]string{} // real SKILL.md → skill path
			for _, s := range sn.Skills() {
				real, err := filepath.EvalSymlinks(s.AbsPath)
				if err != nil {
					t.Fatalf("%s: %v", s.Path, err)
				}
				if prev, dup := served[real]; dup {
					t.Errorf("%s served twice: %s and %s", real, prev, s.Path)
				}
				served[real] = s.Path
			}
			reported := map[string]bool{}
			for _, p := range sn.Problems() {
				reported[p.File] = true
			}
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				rel, _ := filepath.Rel(root, p)
				rel = filepath.ToSlash(rel)
				if d.IsDir() && skippedDirs[d.Name()] {
					return filepath.SkipDir
				}
				switch {
				case d.Type()&fs.ModeSymlink != 0:
					real, err := filepath.EvalSymlinks(p)
					st, statErr := os.Stat(p)
					switch {
					case reported[rel]:
						links++
					case err != nil || statErr != nil:
						t.Errorf("dangling symlink %s not reported", rel)
					case st.IsDir():
						if !servesUnder(sn, rel) && holdsSkillFile(real) {
							t.Errorf("folder link %s -> %s neither followed nor reported", rel, real)
						}
					case d.Name() == "SKILL.md" && served[real] == "":
						t.Errorf("SKILL.md link %s -> %s neither followed nor reported", rel, real)
					}
				case d.Name() == "SKILL.md":
					if served[p] == "" && !reported[rel] {
						t.Errorf("%s neither served nor reported", rel)
					}
				}
				return nil
			})
			total += len(served)
		})
	}
	if total < 200 || links < 60 {
		t.Errorf("the random trees served %d skills and reported %d links: too few to mean much", total, links)
	}
}

// servesUnder reports a served skill at rel or below it.
func servesUnder(sn *Snapshot, rel string) bool {
	for _, p := range sn.Paths() {
		if p == rel || strings.HasPrefix(p, rel+"/") {
			return true
		}
	}
	return false
}

// holdsSkillFile reports a SKILL.md in dir or below, outside skipped folders.
func holdsSkillFile(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.IsDir() && skippedDirs[d.Name()]:
			return filepath.SkipDir
		case d.Name() == "SKILL.md":
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}
