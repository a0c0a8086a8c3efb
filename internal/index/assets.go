package index

import (
	"fmt"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
)

// AssetRef is an asset as get_skill lists it: From is the skill path it is
// inherited from, "" for the skill's own.
type AssetRef struct {
	core.Asset
	// From is the source skill path of an inherited asset, "" for an own one.
	From string
}

// ScriptRef is a script as get_skill lists it: From is the skill path it is
// inherited from, "" for the skill's own.
type ScriptRef struct {
	core.Script
	// From is the source skill path of an inherited script, "" for an own one.
	From string
}

// AssetsFor lists s's assets and scripts (spec 000 §7.3): own ones in
// declaration order, and, when s inherits, the chain's merged by file name root
// to leaf — a more specific skill's entry replaces an ancestor's but keeps the
// place where that file first appeared — leaving out those that come from s.
// All four slices are non-nil.
//
// An Agent Skill lists its declared entries first, then the other files of its
// folder (sorted, SKILL.md and dot-files left out, at most 512 files): files
// under scripts/ as own scripts with execution "claude", every other file as an
// own asset typed by its folder (see FindAsset).
func (sn *Snapshot) AssetsFor(s *core.Skill) (own, inherited []AssetRef, ownScripts, inheritedScripts []ScriptRef) {
	ownAssets, ownScriptList := sn.ownResources(s)
	own = make([]AssetRef, 0, len(ownAssets))
	for _, a := range ownAssets {
		own = append(own, AssetRef{Asset: a})
	}
	ownScripts = make([]ScriptRef, 0, len(ownScriptList))
	for _, sc := range ownScriptList {
		ownScripts = append(ownScripts, ScriptRef{Script: sc})
	}
	inherited, inheritedScripts = []AssetRef{}, []ScriptRef{}
	if !s.Inherit {
		return own, inherited, ownScripts, inheritedScripts
	}
	var assets orderedMap[AssetRef]
	var scripts orderedMap[ScriptRef]
	for _, c := range sn.Chain(s) {
		for _, a := range c.Assets {
			assets.set(a.File, AssetRef{Asset: a, From: c.Path})
		}
		for _, sc := range c.Scripts {
			scripts.set(sc.File, ScriptRef{Script: sc, From: c.Path})
		}
	}
	for _, a := range assets.values() {
		if a.From != s.Path {
			inherited = append(inherited, a)
		}
	}
	for _, sc := range scripts.values() {
		if sc.From != s.Path {
			inheritedScripts = append(inheritedScripts, sc)
		}
	}
	return own, inherited, ownScripts, inheritedScripts
}

// ownResources returns s's own assets and scripts: a tree skill's declared
// ones; an Agent Skill's declared ones followed by the other files of its folder.
func (sn *Snapshot) ownResources(s *core.Skill) ([]core.Asset, []core.Script) {
	if s.Format == core.FormatAgentSkill {
		if l, ok := sn.listings[s]; ok {
			return l.assets, l.scripts
		}
	}
	return s.Assets, s.Scripts
}

// orderedMap has JavaScript Map semantics: setting an existing key replaces its
// value and keeps its original position.
type orderedMap[V any] struct {
	keys []string
	vals map[string]V
}

func (m *orderedMap[V]) set(k string, v V) {
	if m.vals == nil {
		m.vals = map[string]V{}
	}
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m *orderedMap[V]) values() []V {
	out := make([]V, len(m.keys))
	for i, k := range m.keys {
		out[i] = m.vals[k]
	}
	return out
}

// Found is the result of FindAsset: exactly one of Asset and Script is set.
type Found struct {
	// Asset is the asset found, nil when a script was found.
	Asset *core.Asset
	// Script is the script found, nil when an asset was found.
	Script *core.Script
	// IsScript tells which of the two is set.
	IsScript bool
	// From is the ancestor's path when the file was inherited, "" when it is the
	// queried skill's own.
	From string
	// Skill is the skill that declares the file; its ResourceDir holds it.
	Skill *core.Skill
}

// FindAsset looks file up as spec 000 §7.5's findAssetInChain: the path is
// checked first (an error wrapping core.ErrPathTraversal, no file-system access;
// a name holding a control character, which no listing shows, is not found),
// then s's own assets and scripts, then, when s inherits, each ancestor's, nearest
// first. A file declared nowhere is an error wrapping core.ErrAssetNotFound.
//
// An Agent Skill's files are assets without being declared: after its declared
// entries (a declared script keeps its execution and args), any regular file
// inside its folder is found, SKILL.md included, as an Asset typed "script"
// under scripts/, "reference" under references/, "asset" under assets/, "other"
// elsewhere. Such a file is checked through symlinks too: one resolving outside
// the folder is an error wrapping core.ErrPathTraversal. Paths with a dot
// segment (hidden files) are not found unless declared.
func (sn *Snapshot) FindAsset(s *core.Skill, file string) (Found, error) {
	if err := confine.CheckRelPath(file); err != nil {
		return Found{}, fmt.Errorf("finding asset of skill %s: %w", s.Path, err)
	}
	if textsafe.HasControl(file) { // left out of every listing: not served by name either
		return Found{}, fmt.Errorf("finding %q for skill %s: %w: %w", file, s.Path, errControlName, core.ErrAssetNotFound)
	}
	if f, ok := findDeclared(s, file); ok {
		return f, nil
	}
	if s.Format == core.FormatAgentSkill {
		return findInFolder(s, file)
	}
	for _, a := range sn.ancestors(s) {
		if f, ok := findDeclared(a, file); ok {
			f.From = a.Path
			return f, nil
		}
	}
	return Found{}, fmt.Errorf("finding %q for skill %s: %w", file, s.Path, core.ErrAssetNotFound)
}

// findDeclared looks for file among owner's own assets, then its scripts.
func findDeclared(owner *core.Skill, file string) (Found, bool) {
	for i := range owner.Assets {
		if owner.Assets[i].File == file {
			a := owner.Assets[i]
			return Found{Asset: &a, Skill: owner}, true
		}
	}
	for i := range owner.Scripts {
		if owner.Scripts[i].File == file {
			sc := owner.Scripts[i]
			return Found{Script: &sc, IsScript: true, Skill: owner}, true
		}
	}
	return Found{}, false
}
