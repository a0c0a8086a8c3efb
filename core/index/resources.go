package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/sandbox"
)

// resourceDirOf returns the resource directory of the skill file at absFile
// (spec 000 §4.5): the file's path without `.md` when that is a real directory,
// else "". A symlink is not followed: a resource directory must lie in the tree.
func resourceDirOf(absFile string) string {
	dir := strings.TrimSuffix(absFile, ".md")
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
		return dir
	}
	return ""
}

// resolveResources resolves s's declared assets and scripts against
// s.ResourceDir (spec 000 §7.1): without a resource directory there are none;
// an entry whose file fails sandbox.CheckRelPath is dropped with a warning; the
// rest get their absolute path and, for assets, the binary flag.
func resolveResources(s *core.Skill, logger hclog.Logger) {
	if s.ResourceDir == "" {
		if n := len(s.Assets) + len(s.Scripts); n > 0 {
			logger.Debug(fmt.Sprintf("%s: no resource directory, ignoring %d declared assets and scripts", s.FilePath, n))
		}
		s.Assets, s.Scripts = []core.Asset{}, []core.Script{}
		return
	}
	assets := make([]core.Asset, 0, len(s.Assets))
	for _, a := range s.Assets {
		if err := sandbox.CheckRelPath(a.File); err != nil {
			logger.Warn(fmt.Sprintf("%s: skipping asset: %v", s.FilePath, err))
			continue
		}
		a.AbsPath = filepath.Join(s.ResourceDir, filepath.FromSlash(a.File))
		a.IsBinary = IsBinary(a.File)
		assets = append(assets, a)
	}
	scripts := make([]core.Script, 0, len(s.Scripts))
	for _, sc := range s.Scripts {
		if err := sandbox.CheckRelPath(sc.File); err != nil {
			logger.Warn(fmt.Sprintf("%s: skipping script: %v", s.FilePath, err))
			continue
		}
		sc.AbsPath = filepath.Join(s.ResourceDir, filepath.FromSlash(sc.File))
		scripts = append(scripts, sc)
	}
	s.Assets, s.Scripts = assets, scripts
}
