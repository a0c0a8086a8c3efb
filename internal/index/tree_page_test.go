package index

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// treePages walks every page of Tree(filter) of at most max bytes and returns
// them as written.
func treePages(t *testing.T, sn *Snapshot, filter string, max int) []string {
	t.Helper()
	var pages []string
	var from TreePos
	for {
		var b strings.Builder
		next, done, err := sn.WriteTreePageJSON(&b, filter, from, max)
		if err != nil {
			t.Fatalf("page %d from %+v: %v", len(pages), from, err)
		}
		pages = append(pages, b.String())
		if done {
			return pages
		}
		if next.Index <= from.Index && len(pages) > 1 {
			t.Fatalf("page %d: next %+v does not move on from %+v", len(pages), next, from)
		}
		from = next
	}
}

// graft puts the top-level nodes of a page into tree: each under the node
// of its parent's path already placed (by its children's order), or at the
// top when its parent is not in tree.
func graft(t *testing.T, sn *Snapshot, tree *[]*TreeNode, byPath map[string]*TreeNode, page string) {
	t.Helper()
	var nodes []*TreeNode
	if err := json.Unmarshal([]byte(page), &nodes); err != nil {
		t.Fatalf("page %q: %v", page, err)
	}
	var index func(n *TreeNode)
	index = func(n *TreeNode) {
		byPath[n.Path] = n
		for _, c := range n.Children {
			index(c)
		}
	}
	for _, n := range nodes {
		index(n)
		s, _ := sn.Get(n.Path)
		if parent, ok := byPath[s.Parent]; ok && s.Parent != "" {
			parent.Children = append(parent.Children, n)
			continue
		}
		*tree = append(*tree, n)
	}
}

// TestWriteTreePageJSON: over a generated corpus and every page size from
// one node to the whole tree, every page but one-node ones fits its size, the
// pages grafted by their paths are Tree(filter), and a page of the whole
// tree is WriteTreeJSON's bytes.
func TestWriteTreePageJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := corpus.Generate(dir, corpus.Options{Skills: 300}); err != nil {
		t.Fatal(err)
	}
	sn, _ := mustBuild(t, dir)
	var whole strings.Builder
	sn.WriteTreeJSON(&whole, "")
	for _, filter := range []string{"", sn.Paths()[1], "nope"} {
		var full strings.Builder
		sn.WriteTreeJSON(&full, filter)
		for _, max := range []int{1, 200, 1000, 4000, 20000, full.Len() - 1, full.Len(), 1 << 30} {
			pages := treePages(t, sn, filter, max)
			if max >= full.Len() && (len(pages) != 1 || pages[0] != full.String()) {
				t.Fatalf("filter %q max %d: got %d pages, want the tree in one, as WriteTreeJSON writes it", filter, max, len(pages))
			}
			var tree []*TreeNode
			byPath := map[string]*TreeNode{}
			for _, p := range pages {
				var one []json.RawMessage
				if err := json.Unmarshal([]byte(p), &one); err != nil {
					t.Fatal(err)
				}
				if len(p) > max && len(one) > 1 {
					t.Fatalf("filter %q max %d: a page of %d nodes is %d bytes", filter, max, len(one), len(p))
				}
				graft(t, sn, &tree, byPath, p)
			}
			if want := sn.Tree(filter); !reflect.DeepEqual(tree, want) && !(len(tree) == 0 && len(want) == 0) {
				t.Fatalf("filter %q max %d: the %d pages grafted are not the tree", filter, max, len(pages))
			}
			if filter == "" && max == 4000 && len(pages) < 10 {
				t.Errorf("max %d: only %d pages of a %d-byte tree", max, len(pages), whole.Len())
			}
		}
	}
}

// TestWriteTreePageJSONRefusesAStalePosition: a position that is not a node's
// (out of range, or another node's path there) is ErrTreeChanged.
func TestWriteTreePageJSONRefusesAStalePosition(t *testing.T) {
	t.Parallel()
	sn, _ := mustBuild(t, writeTree(t, map[string]string{
		"_root.md":     "---\ndescription: root\nkeywords: [root]\n---\n",
		"ui/_index.md": "---\ndescription: ui\nkeywords: [ui]\n---\n",
		"ui/a.md":      "---\ndescription: a\nkeywords: [a]\n---\n",
	}))
	if got := sn.Paths(); len(got) != 3 {
		t.Fatalf("got skills %q, want 3", got)
	}
	var b strings.Builder
	next, done, err := sn.WriteTreePageJSON(&b, "", TreePos{}, 1)
	if err != nil || done || next.Index != 1 {
		t.Fatalf("first page: got %+v %v %v", next, done, err)
	}
	for _, pos := range []TreePos{{Index: 1, Path: "ui/a"}, {Index: 3, Path: "ui/a"}, {Index: -1, Path: "_root"}, {Index: 0, Path: "x"}} {
		b.Reset()
		if _, _, err := sn.WriteTreePageJSON(&b, "", pos, 1<<20); !errors.Is(err, ErrTreeChanged) || b.Len() != 0 {
			t.Errorf("position %+v: got %v and %q, want ErrTreeChanged and nothing written", pos, err, b.String())
		}
	}
}
