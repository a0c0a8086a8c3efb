package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/sandbox"
)

// discovered is one skill file found under a root.
type discovered struct {
	// Rel is the path relative to the root, `/` separators (`ui/react/auth.md`,
	// `tools/git/SKILL.md`).
	Rel string
	// Abs is the absolute path, under the root as given (not symlink-resolved).
	Abs string
	// AgentDir is the folder of an Agent Skill relative to the root (`tools/git`),
	// "" for a spec-000 tree file.
	AgentDir string
}

// discover walks root for skill files (spec 000 §4.1): `.md` files, skipping
// dot-files and dot-directories, skill resource directories (a directory `X/`
// beside `X.md`), and directory symlinks. A folder holding a file named exactly
// SKILL.md is an Agent Skill: its SKILL.md is found and nothing below it is
// walked (its files are its content, never other skills). A SKILL.md at the
// root itself is skipped with a warning. A symlinked `.md` file counts only when
// it resolves to a regular file inside root. Unreadable subdirectories are
// skipped with a warning; an unreadable root is an error. The result is sorted by Rel.
func (b *builder) discover(root string) ([]discovered, error) {
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
				found = append(found, discovered{Rel: rel + "/" + agentSkillFile, Abs: filepath.Join(abs, agentSkillFile), AgentDir: rel})
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
			found = append(found, discovered{Rel: rel, Abs: abs})
		}
		return nil
	})
	if walkErr != nil {
		return nil, walkErr
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Rel < found[j].Rel })
	return found, nil
}

// isSkillFile reports whether p is a regular file, or a symlink to a regular file
// that stays inside realRoot.
func isSkillFile(realRoot, p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode().IsRegular() {
		return true
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil || !sandbox.Within(realRoot, target) {
		return false
	}
	tfi, err := os.Stat(target)
	return err == nil && tfi.Mode().IsRegular()
}
