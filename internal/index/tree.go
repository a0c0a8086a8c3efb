package index

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// TreeNode is one skill in the list_skills tree (spec 000 §8.2).
type TreeNode struct {
	// Name is the skill's name (`ui/_index` → `ui`, `ui/react/auth` → `auth`).
	Name string `json:"name"`
	// Path is the skill path.
	Path string `json:"path"`
	// Description is the frontmatter description.
	Description string `json:"description"`
	// Keywords are the keywords as declared.
	Keywords []string `json:"keywords"`
	// AssetCount is the number of the skill's own resolved assets (for an Agent
	// Skill, its declared ones and the other files of its folder outside scripts/).
	AssetCount int `json:"assetCount"`
	// ScriptCount is the number of the skill's own resolved scripts (for an
	// Agent Skill, its declared ones and the other files of its scripts/ folder).
	ScriptCount int `json:"scriptCount"`
	// Children are the skills whose parent is this one, sorted by path; never nil.
	Children []*TreeNode `json:"children"`
}

// Tree returns the skill tree (spec 000 §8.2). With filter "" it is every
// top-level skill (those without a parent: `_root` when it exists, and every
// Agent Skill) with its subtree. Otherwise it is the subtree of the skill whose path is filter or
// filter + "/_index" (surrounding slashes ignored), or an empty slice when there
// is none. The result is never nil and belongs to the caller.
func (sn *Snapshot) Tree(filter string) []*TreeNode {
	return sn.treeNodes(sn.treeTop(filter))
}

// treeTop is the top level of Tree(filter): the skills without a parent for
// "", else the skill whose path is filter or filter + "/_index" (surrounding
// slashes ignored), else none.
func (sn *Snapshot) treeTop(filter string) []*core.Skill {
	filter = strings.Trim(filter, "/")
	if filter == "" {
		return sn.children[""]
	}
	for _, p := range []string{filter, filter + "/" + core.IndexSegment} {
		if s, ok := sn.byPath[p]; ok {
			return []*core.Skill{s}
		}
	}
	return nil
}

func (sn *Snapshot) treeNodes(skills []*core.Skill) []*TreeNode {
	out := make([]*TreeNode, len(skills))
	for i, s := range skills {
		out[i] = sn.treeNode(s)
	}
	return out
}

func (sn *Snapshot) treeNode(s *core.Skill) *TreeNode {
	assets, scripts := sn.ownResources(s)
	return &TreeNode{
		Name:        s.Name,
		Path:        s.Path,
		Description: s.Description,
		Keywords:    append([]string{}, s.Keywords...),
		AssetCount:  len(assets),
		ScriptCount: len(scripts),
		Children:    sn.treeNodes(sn.children[s.Path]),
	}
}
