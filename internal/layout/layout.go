// Package layout says what a directory holds, as serve and validate read a
// local path: a content repository root (skills/ beside config.yaml, the
// layout init writes and git mode serves), a skills directory (config.yaml,
// _root.md, or a skill within a bounded breadth-first search), and where the
// config.yaml of a skills directory lives.
package layout

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// IsContentRepo reports a content repository laid out as git mode
// serves it: a skills/ folder beside config.yaml (the layout `skills-mcp
// init` writes). serve and validate then take its skills/ folder, as git mode
// does, so a skill has one path in every mode (pdf, never skills/pdf). A
// folder holding skills/ without config.yaml is a collection, served whole.
func IsContentRepo(dir string) bool {
	if !isDir(filepath.Join(dir, "skills")) {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, config.FileName))
	return err == nil && fi.Mode().IsRegular()
}

// RepoNote is the one-line note for a repository root named where its
// skills/ folder is served.
func RepoNote(what, dir string) string {
	return fmt.Sprintf("%s %s is a repository root: serving its skills folder %s, as git mode does (skill paths are pdf, not skills/pdf)",
		what, dir, filepath.Join(dir, "skills"))
}

// isDir reports a directory, through symlinks.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Bounds of LooksLikeSkillsDir's search: skills sit near the top of a skills
// directory, and a large tree without any is not one.
const (
	skillSearchDepth   = 6
	skillSearchEntries = 20000
)

// LooksLikeSkillsDir reports whether dir holds config.yaml or _root.md, or,
// breadth first within the bounds above, a SKILL.md or a tree skill (a
// Markdown file whose frontmatter has description and keywords). VCS and
// dependency folders are not searched.
func LooksLikeSkillsDir(dir string) bool {
	for _, name := range []string{config.FileName, "_root.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return holdsSkills(dir)
}

// holdsSkills reports whether dir holds, breadth first within the bounds
// above and through folder symlinks, a SKILL.md or a tree skill.
func holdsSkills(dir string) bool {
	level, seen := []string{dir}, 0
	for depth := 0; depth < skillSearchDepth && len(level) > 0; depth++ {
		var next []string
		for _, d := range level {
			entries, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if seen++; seen > skillSearchEntries {
					return false
				}
				p := filepath.Join(d, e.Name())
				switch {
				case e.IsDir():
					if !notSearched[e.Name()] {
						next = append(next, p)
					}
				case e.Name() == "SKILL.md":
					return true
				case strings.HasSuffix(e.Name(), ".md") && isTreeSkill(p):
					return true
				case e.Type()&fs.ModeSymlink != 0 && isDir(p) && !notSearched[e.Name()]:
					next = append(next, p) // a linked folder, which serve follows (the bounds above stop loops)
				}
			}
		}
		level = next
	}
	return false
}

// notSearched are folders that never hold skills.
var notSearched = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// isTreeSkill reports a Markdown file whose frontmatter (within its first
// 64 KiB) has the two fields of a spec-000 skill, description and keywords:
// a page of a static site has frontmatter too, and is not one.
func isTreeSkill(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	fm, err := frontmatter.Read(head)
	if err != nil {
		return false
	}
	_, hasDescription := fm["description"]
	_, hasKeywords := fm["keywords"]
	return hasDescription && hasKeywords
}

// ConfigDir is where config.yaml lives for a local skills directory: the
// directory itself, or — for a checkout of a content repo, laid out like git
// mode with config.yaml beside skills/ — its parent.
func ConfigDir(skillsDir string) string {
	if _, err := os.Stat(filepath.Join(skillsDir, config.FileName)); err == nil {
		return skillsDir
	}
	parent := filepath.Dir(skillsDir)
	if filepath.Base(skillsDir) == "skills" {
		if _, err := os.Stat(filepath.Join(parent, config.FileName)); err == nil {
			return parent
		}
	}
	return skillsDir
}
