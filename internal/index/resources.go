package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
)

// resolveResources resolves s's declared assets and scripts against
// s.ResourceDir (spec 000 §7.1): without a resource directory there are none;
// an entry whose file fails confine.CheckRelPath or holds a control character
// is dropped with a warning; the
// rest get their absolute path and, for assets, the binary flag. data is the
// skill file, to locate the entries of the problems recorded: each dropped
// entry, and each kept one whose file is missing on disk. dir is the walk of
// the resource directory: a file it lists needs no stat. When dir is nil (a
// tree skill, whose resource directory is walked only when asked for) the
// kept entries are not checked here but with the snapshot's problems
// (Snapshot.checkDeclared).
func (b *builder) resolveResources(s *core.Skill, data []byte, dir *dirListing) {
	if s.ResourceDir == "" {
		if n := len(s.Assets) + len(s.Scripts); n > 0 {
			b.logger.Debug("no resource directory: ignoring the declared assets and scripts", "file", s.FilePath, "declared", n)
		}
		noDir := fmt.Sprintf("the resource directory %s/ does not exist", strings.TrimSuffix(s.FilePath, ".md"))
		for _, a := range s.Assets {
			b.problem(s.FilePath, entryLine(data, "assets", a.File), SeverityWarning, fmt.Sprintf("declared asset %q is ignored: %s", a.File, noDir))
		}
		for _, sc := range s.Scripts {
			b.problem(s.FilePath, entryLine(data, "scripts", sc.File), SeverityWarning, fmt.Sprintf("declared script %q is ignored: %s", sc.File, noDir))
		}
		s.Assets, s.Scripts = []core.Asset{}, []core.Script{}
		return
	}
	assets := make([]core.Asset, 0, len(s.Assets))
	for _, a := range s.Assets {
		if err := checkDeclaredFile(a.File); err != nil {
			b.logger.Warn("skipping an asset", "file", s.FilePath, "error", err)
			b.problem(s.FilePath, entryLine(data, "assets", a.File), SeverityError, "skipped asset: "+err.Error())
			continue
		}
		a.AbsPath = filepath.Join(s.ResourceDir, filepath.FromSlash(a.File))
		a.IsBinary = IsBinary(a.File)
		if dir != nil {
			b.checkOnDisk(s, dir, "assets", "asset", a.File, a.AbsPath, func() []byte { return data })
		}
		assets = append(assets, a)
	}
	scripts := make([]core.Script, 0, len(s.Scripts))
	for _, sc := range s.Scripts {
		if err := checkDeclaredFile(sc.File); err != nil {
			b.logger.Warn("skipping a script", "file", s.FilePath, "error", err)
			b.problem(s.FilePath, entryLine(data, "scripts", sc.File), SeverityError, "skipped script: "+err.Error())
			continue
		}
		sc.AbsPath = filepath.Join(s.ResourceDir, filepath.FromSlash(sc.File))
		if dir != nil {
			b.checkOnDisk(s, dir, "scripts", "script", sc.File, sc.AbsPath, func() []byte { return data })
		}
		scripts = append(scripts, sc)
	}
	s.Assets, s.Scripts = assets, scripts
}

// checkDeclaredFile is confine.CheckRelPath, and refuses a name holding a
// control character too: such a file is left out of every listing and not
// served, so a skill does not declare it either.
func checkDeclaredFile(file string) error {
	if err := confine.CheckRelPath(file); err != nil {
		return err
	}
	if textsafe.HasControl(file) {
		return fmt.Errorf("file path %q: %w", file, errControlName)
	}
	return nil
}

// checkOnDisk records a warning when the declared file at abs is not a regular
// file (it stays declared: reading it reports core.ErrAssetMissing). A file the
// walk dir listed is one (a regular file, or a symlink to one inside the
// directory); any other is stat'ed. data gives the skill file, to find the
// entry's line; it is called only for a problem.
func (b *builder) checkOnDisk(s *core.Skill, dir listedFiles, key, kind, file, abs string, data func() []byte) {
	if dir != nil && dir.has(file) {
		return
	}
	if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
		return
	}
	b.logger.Debug("a declared file is missing on disk", "file", s.FilePath, "kind", kind, "declared", file)
	b.problem(s.FilePath, entryLine(data(), key, file), SeverityWarning, fmt.Sprintf("declared %s %q is missing on disk", kind, file))
}

// listedFiles is a walk of a skill's directory, asked whether it found a file.
type listedFiles interface{ has(rel string) bool }

// checkDeclared records on b, for each tree skill the rebuild left to check
// (lateListing.declared), the declared assets and scripts missing on disk, as
// resolveResources does for an Agent Skill at build time: against the walk
// of its resource directory when the skill is served (walked by now), by a
// stat otherwise (a shadowed skill). The skill file is read again only to
// locate a missing entry's line.
func (sn *Snapshot) checkDeclared(b *builder) {
	for _, s := range sn.late.declared {
		b.rank, b.root = sn.late.rank[s.Root], s.Root
		var dir listedFiles
		if sf := sn.manifests[s]; sf != nil {
			dir = sn.listed(s)
		}
		var data []byte
		read := func() []byte {
			if data == nil {
				data, _ = readFileInto(s.AbsPath, nil, sn.maxFile)
			}
			return data
		}
		for _, a := range s.Assets {
			b.checkOnDisk(s, dir, "assets", "asset", a.File, a.AbsPath, read)
		}
		for _, sc := range s.Scripts {
			b.checkOnDisk(s, dir, "scripts", "script", sc.File, sc.AbsPath, read)
		}
	}
}

// entryLine is the line of the entry naming file under the frontmatter list key,
// else the key's line, else 1.
func entryLine(data []byte, key, file string) int {
	line, _ := keyLineFrom(data, key, file)
	return line
}
