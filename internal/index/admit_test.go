package index

import (
	"context"
	"strings"
	"testing"
)

// Options.Admit keeps skills out of the snapshot, and is asked again until it
// refuses no more: a child whose parent was left out (so whose inherited
// content changed) is checked with its new parent.
func TestAdmit(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"_root.md":     "---\ndescription: Root\nkeywords: [root]\n---\nRoot.\n",
		"ui/_index.md": "---\ndescription: UI\nkeywords: [ui]\n---\nUI.\n",
		"ui/button.md": "---\ndescription: Button\nkeywords: [button]\n---\nButton.\n",
		"go.md":        "---\ndescription: Go\nkeywords: [golang]\n---\nGo.\n",
	})
	calls := 0
	ix := New(Options{Root: dir, Admit: func(sn *Snapshot) map[string]string {
		calls++
		out := map[string]string{}
		if _, ok := sn.Get("ui/_index"); ok {
			out["ui/_index"] = "changed"
		}
		if b, ok := sn.Get("ui/button"); ok && b.Parent == "_root" {
			out["ui/button"] = "its inherited content changed"
		}
		return out
	}})
	sn, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(sn.Paths(), ",")
	if got != "_root,go" {
		t.Errorf("served %s, want _root,go", got)
	}
	if r := sn.Refused(); len(r) != 2 || r["ui/_index"] != "changed" || r["ui/button"] == "" {
		t.Errorf("Refused() = %v, want ui/_index and ui/button with their reasons", r)
	}
	if calls != 3 {
		t.Errorf("Admit asked %d times, want 3 (until it refuses no more)", calls)
	}
	if _, ok := sn.Get("button"); ok {
		t.Error("a left-out skill is found by its name")
	}
}
