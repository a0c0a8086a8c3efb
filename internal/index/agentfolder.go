package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
)

// maxListedFiles caps the files listed for one Agent Skills folder.
const maxListedFiles = 512

// Asset types of the undeclared files of an Agent Skills folder, by the folder
// they lie in.
const (
	assetTypeScript    = "script"
	assetTypeReference = "reference"
	assetTypeAsset     = "asset"
	assetTypeOther     = "other"
)

// folderListing is what an Agent Skills folder holds besides its SKILL.md:
// files under scripts/ as scripts to run client-side, every other file as an asset.
type folderListing struct {
	assets  []core.Asset
	scripts []core.Script
}

// folderListingOf is the listing of the Agent Skills folder dir (absolute)
// from its walk l: its files in walk order, leaving out SKILL.md itself, at
// most maxListedFiles of them (the first ones walked), in path order. A
// SKILL.md below the folder's own (a nested skill's) is listed too.
func folderListingOf(dir string, l dirListing) folderListing {
	fl := folderListing{assets: []core.Asset{}, scripts: []core.Script{}}
	var files []string
	for _, f := range l.files {
		if f.Path == agentSkillFile {
			continue
		}
		files = append(files, f.Path)
		if len(files) >= maxListedFiles {
			break
		}
	}
	sort.Strings(files)
	for _, rel := range files {
		abs := filepath.Join(dir, filepath.FromSlash(rel))
		if folderAssetType(rel) == assetTypeScript {
			fl.scripts = append(fl.scripts, core.Script{File: rel, Execution: core.ExecutionClaude, Args: []core.Arg{}, AbsPath: abs})
			continue
		}
		fl.assets = append(fl.assets, core.Asset{File: rel, Type: folderAssetType(rel), AbsPath: abs, IsBinary: IsBinary(rel)})
	}
	return fl
}

// withDeclared puts s's declared assets and scripts first, in declaration
// order, and keeps the folder's other files after them: declaring a server
// script must not hide the references and assets the body names (issue 29).
// A file the skill declares is listed once, as declared.
func (fl folderListing) withDeclared(s *core.Skill) folderListing {
	if len(s.Assets)+len(s.Scripts) == 0 {
		return fl
	}
	declared := make(map[string]bool, len(s.Assets)+len(s.Scripts))
	out := folderListing{assets: append([]core.Asset{}, s.Assets...), scripts: append([]core.Script{}, s.Scripts...)}
	for _, a := range s.Assets {
		declared[a.File] = true
	}
	for _, sc := range s.Scripts {
		declared[sc.File] = true
	}
	for _, a := range fl.assets {
		if !declared[a.File] {
			out.assets = append(out.assets, a)
		}
	}
	for _, sc := range fl.scripts {
		if !declared[sc.File] {
			out.scripts = append(out.scripts, sc)
		}
	}
	return out
}

// folderAssetType is the type of an undeclared file of an Agent Skills folder:
// "script" under scripts/, "reference" under references/, "asset" under
// assets/, "other" anywhere else.
func folderAssetType(rel string) string {
	first, _, nested := strings.Cut(rel, "/")
	if !nested {
		return assetTypeOther
	}
	switch first {
	case "scripts":
		return assetTypeScript
	case "references":
		return assetTypeReference
	case "assets":
		return assetTypeAsset
	default:
		return assetTypeOther
	}
}

// findInFolder finds an undeclared file of the Agent Skill s: any regular file
// inside its folder, SKILL.md included, whose path has no dot segment. file has
// passed confine.CheckRelPath; here it is also resolved through symlinks and
// must stay inside the folder (an error wrapping core.ErrPathTraversal). A file
// that is not there is an error wrapping core.ErrAssetNotFound.
func findInFolder(s *core.Skill, file string) (Found, error) {
	notFound := fmt.Errorf("finding %q for skill %s: %w", file, s.Path, core.ErrAssetNotFound)
	if s.ResourceDir == "" || hasDotSegment(file) {
		return Found{}, notFound
	}
	abs, err := confine.Resolve(s.ResourceDir, file)
	if err != nil {
		if errors.Is(err, core.ErrPathTraversal) {
			return Found{}, fmt.Errorf("finding asset of skill %s: %w", s.Path, err)
		}
		return Found{}, notFound
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return Found{}, notFound
	}
	asset := core.Asset{File: file, Type: folderAssetType(file), AbsPath: abs, IsBinary: IsBinary(file)}
	return Found{Asset: &asset, Skill: s}, nil
}

// hasDotSegment reports a path segment starting with a dot (`.env`, `.git/x`,
// `./x`): hidden files are not part of a skill's content.
func hasDotSegment(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
