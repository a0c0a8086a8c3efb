package index

import (
	"errors"
	"strconv"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/jsonstr"
)

// TreePos is where a page of the list_skills tree starts: the position of its
// first node in the pre-order walk of Tree(filter) (each node, then its
// children's subtrees in order), and that node's path. The zero TreePos is
// the start of the tree.
type TreePos struct {
	// Index is the node's position in the walk.
	Index int
	// Path is the node's skill path.
	Path string
}

// ErrTreeChanged is returned for a TreePos that is not a node's position in
// the tree: the skills changed since it was given.
var ErrTreeChanged = errors.New("the skill tree changed since this position was given")

// WriteTreePageJSON writes to b a page of Tree(filter) as compact JSON, in
// WriteTreeJSON's form: the nodes of the pre-order walk from the one at from
// on, as many as fit in maxBytes of JSON (at least one). Each node holds
// those of its children that the page holds; a node whose parent is on an
// earlier page is at the top level of the page (its path says where it
// belongs), so the pages together hold every node once. It returns the
// position of the first node of the next page, and done when the page holds
// the last one. A page from the start that holds every node is byte for byte
// what WriteTreeJSON writes. A from that is not a node's position is
// ErrTreeChanged, and nothing is written.
func (sn *Snapshot) WriteTreePageJSON(b *strings.Builder, filter string, from TreePos, maxBytes int) (next TreePos, done bool, err error) {
	w := sn.treeWalk(filter)
	start := from.Index
	switch {
	case from == TreePos{}:
	case start < 0 || start >= len(w.nodes) || w.nodes[start].Path != from.Path:
		return TreePos{}, false, ErrTreeChanged
	}
	size, end := len("[]"), start
	for ; end < len(w.nodes); end++ {
		n := nodeJSONLen(sn, w.nodes[end])
		if end > start && w.parent[end] != end-1 {
			n += len(",") // not the first of its list: the page's top level, or its parent's children
		}
		if end > start && size+n > maxBytes {
			break
		}
		size += n
	}
	b.Grow(size)
	b.WriteByte('[')
	for i := start; i < end; i += w.sub[i] {
		if i > start {
			b.WriteByte(',')
		}
		sn.writePageNode(b, w, i, end)
	}
	b.WriteByte(']')
	if end == len(w.nodes) {
		return TreePos{}, true, nil
	}
	return TreePos{Index: end, Path: w.nodes[end].Path}, false, nil
}

// TreePathAt returns the path of the node at position i of the pre-order
// walk of Tree(filter), and false when there is none.
func (sn *Snapshot) TreePathAt(filter string, i int) (string, bool) {
	w := sn.treeWalk(filter)
	if i < 0 || i >= len(w.nodes) {
		return "", false
	}
	return w.nodes[i].Path, true
}

// treeWalk is the pre-order walk of a tree: its nodes, each node's parent
// (-1 at the top) and the size of each node's subtree (the node included),
// so that a node's children are found without links: the first is the next
// node, each next one after the subtree of the one before.
type treeWalk struct {
	nodes  []*core.Skill
	parent []int
	sub    []int
}

func (sn *Snapshot) treeWalk(filter string) treeWalk {
	var w treeWalk
	var visit func(skills []*core.Skill, parent int)
	visit = func(skills []*core.Skill, parent int) {
		for _, s := range skills {
			i := len(w.nodes)
			w.nodes, w.parent, w.sub = append(w.nodes, s), append(w.parent, parent), append(w.sub, 0)
			visit(sn.children[s.Path], i)
			w.sub[i] = len(w.nodes) - i
		}
	}
	visit(sn.treeTop(filter), -1)
	return w
}

// writePageNode writes node i with the nodes of its subtree before end.
func (sn *Snapshot) writePageNode(b *strings.Builder, w treeWalk, i, end int) {
	sn.writeNodeFields(b, w.nodes[i])
	b.WriteByte('[')
	for j := i + 1; j < min(i+w.sub[i], end); j += w.sub[j] {
		if j > i+1 {
			b.WriteByte(',')
		}
		sn.writePageNode(b, w, j, end)
	}
	b.WriteString("]}")
}

// writeNodeFields writes a node's JSON up to its children's array:
// writeNodeJSON without the children.
func (sn *Snapshot) writeNodeFields(b jsonstr.Writer, s *core.Skill) {
	assets, scripts := sn.ownResources(s)
	b.WriteString(`{"name":`)
	jsonstr.Write(b, s.Name, false)
	b.WriteString(`,"path":`)
	jsonstr.Write(b, s.Path, false)
	b.WriteString(`,"description":`)
	jsonstr.Write(b, s.Description, false)
	b.WriteString(`,"keywords":[`)
	for i, k := range s.Keywords {
		if i > 0 {
			b.WriteByte(',')
		}
		jsonstr.Write(b, k, false)
	}
	b.WriteString(`],"assetCount":`)
	b.WriteString(strconv.Itoa(len(assets)))
	b.WriteString(`,"scriptCount":`)
	b.WriteString(strconv.Itoa(len(scripts)))
	b.WriteString(`,"children":`)
}

// nodeJSONLen is the length of a node's JSON without its children: its
// fields and an empty children array.
func nodeJSONLen(sn *Snapshot, s *core.Skill) int {
	var n byteCounter
	sn.writeNodeFields(&n, s)
	return int(n) + len("[]}")
}

// byteCounter is a jsonstr.Writer that counts the bytes written to it.
type byteCounter int

func (c *byteCounter) WriteString(s string) (int, error) {
	*c += byteCounter(len(s))
	return len(s), nil
}

func (c *byteCounter) WriteByte(byte) error {
	*c++
	return nil
}
