package corpus

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Stats counts what Write put on disk.
type Stats struct {
	// Files is the number of regular files written (skill files and resource files).
	Files int
	// Bytes is their total size.
	Bytes int64
	// SkillBytes is the total size of the skill files alone.
	SkillBytes int64
}

// Write renders the corpus under dir (created when missing): every skill file
// and every resource file of its plan. Files already there are overwritten;
// nothing else is removed.
func (c *Corpus) Write(dir string) (Stats, error) {
	var st Stats
	made := map[string]bool{}
	write := func(rel, content string, mode os.FileMode) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if parent := filepath.Dir(p); !made[parent] {
			if err := os.MkdirAll(parent, 0o755); err != nil {
				return fmt.Errorf("writing corpus: %w", err)
			}
			made[parent] = true
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			return fmt.Errorf("writing corpus: %w", err)
		}
		st.Files++
		st.Bytes += int64(len(content))
		return nil
	}
	for i := range c.Skills {
		s := &c.Skills[i]
		content := renderSkillFile(s)
		if err := write(s.File, content, 0o644); err != nil {
			return st, err
		}
		st.SkillBytes += int64(len(content))
		resDir := ResourceDir(s)
		for _, rel := range s.Assets {
			if err := write(path.Join(resDir, rel), resourceFile(s, rel), 0o644); err != nil {
				return st, err
			}
		}
		for _, rel := range s.Scripts {
			if err := write(path.Join(resDir, rel), resourceFile(s, rel), 0o755); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}

// ResourceDir is the resource directory of s relative to the corpus root:
// the file's path without `.md` for a tree skill (spec 000 §4.5), the folder
// for an Agent Skill.
func ResourceDir(s *Skill) string {
	if s.Format == FormatAgentSkill {
		return path.Dir(s.File)
	}
	return strings.TrimSuffix(s.File, ".md")
}

// Generate plans a corpus of opts and writes it under dir.
func Generate(dir string, opts Options) (*Corpus, Stats, error) {
	c, err := Plan(opts)
	if err != nil {
		return nil, Stats{}, err
	}
	st, err := c.Write(dir)
	return c, st, err
}
