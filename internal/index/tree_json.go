package index

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// WriteTreeJSON writes Tree(filter) to b as compact JSON without HTML
// escaping: the bytes encoding/json gives for it with SetEscapeHTML(false),
// without building the nodes first. At 10,000 skills the tree of nodes and
// the encoder's buffers were most of what a whole-tree list_skills allocates.
func (sn *Snapshot) WriteTreeJSON(b *strings.Builder, filter string) {
	top := sn.treeTop(filter)
	b.Grow(sn.treeJSONSizeHint(top))
	sn.writeNodesJSON(b, top)
}

// treeJSONSizeHint is about the size of the JSON of skills and their
// subtrees (their strings unescaped, plus a sixteenth for escapes), so that
// the builder is allocated once rather than doubled a dozen times.
func (sn *Snapshot) treeJSONSizeHint(skills []*core.Skill) int {
	const perNode = len(`{"name":"","path":"","description":"","keywords":[],"assetCount":00,"scriptCount":00,"children":[]},`)
	n := 2
	for _, s := range skills {
		n += perNode + len(s.Name) + len(s.Path) + len(s.Description)
		for _, k := range s.Keywords {
			n += len(k) + 3
		}
		n += sn.treeJSONSizeHint(sn.children[s.Path])
	}
	return n + n/16
}

func (sn *Snapshot) writeNodesJSON(b *strings.Builder, skills []*core.Skill) {
	b.WriteByte('[')
	for i, s := range skills {
		if i > 0 {
			b.WriteByte(',')
		}
		sn.writeNodeJSON(b, s)
	}
	b.WriteByte(']')
}

func (sn *Snapshot) writeNodeJSON(b *strings.Builder, s *core.Skill) {
	sn.writeNodeFields(b, s)
	sn.writeNodesJSON(b, sn.children[s.Path])
	b.WriteByte('}')
}
