package index

import (
	"encoding/json"
	"strings"
	"testing"
)

// treeJSON renders a tree compactly, as list_skills returns it.
func treeJSON(t *testing.T, nodes []*TreeNode) string {
	t.Helper()
	b, err := json.Marshal(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTree(t *testing.T) {
	t.Parallel()
	withRoot := map[string]string{
		"_root.md":           skillMD("Global", "", ""),
		"_root/g.css":        "",
		"ui/_index.md":       skillMD("UI", "", ""),
		"ui/react/_index.md": skillMD("React", "", ""),
		"ui/react/auth.md": "---\ndescription: Auth\nkeywords: [React, auth]\n" +
			"assets: [a.txt, b.png]\nscripts: [s.sh]\n---\n",
		"ui/react/auth/": "",
		"api/_index.md":  skillMD("API", "", ""),
		"api/jwt.md":     skillMD("JWT", "", ""),
		"solo.md":        skillMD("Solo", "inherit: false\n", ""),
	}
	withoutRoot := map[string]string{
		"ui/_index.md":    skillMD("UI", "", ""),
		"ui/button.md":    skillMD("Button", "", ""),
		"api/jwt.md":      skillMD("JWT", "", ""),
		"data/sql/q.md":   skillMD("Q", "", ""),
		"data/_index.md":  skillMD("Data", "", ""),
		"zeta/lone.md":    skillMD("Lone", "", ""),
		"zeta/deep/x.md":  skillMD("X", "", ""),
		"ui/forms/a.md":   skillMD("A", "", ""),
		"ui/forms/b/c.md": skillMD("C", "", ""),
	}
	leaf := func(name, path, desc string) string {
		return `{"name":"` + name + `","path":"` + path + `","description":"` + desc + `","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[]}`
	}
	auth := `{"name":"auth","path":"ui/react/auth","description":"Auth","keywords":["React","auth"],"assetCount":2,"scriptCount":1,"children":[]}`
	react := `{"name":"react","path":"ui/react/_index","description":"React","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[` + auth + `]}`
	ui := `{"name":"ui","path":"ui/_index","description":"UI","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[` + react + `]}`
	api := `{"name":"api","path":"api/_index","description":"API","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[` + leaf("jwt", "api/jwt", "JWT") + `]}`
	rootNode := `{"name":"_root","path":"_root","description":"Global","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[` +
		api + `,` + leaf("solo", "solo", "Solo") + `,` + ui + `]}`

	uiNoRoot := `{"name":"ui","path":"ui/_index","description":"UI","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[` +
		leaf("button", "ui/button", "Button") + `,` + leaf("a", "ui/forms/a", "A") + `,` + leaf("c", "ui/forms/b/c", "C") + `]}`
	dataNoRoot := `{"name":"data","path":"data/_index","description":"Data","keywords":["k"],"assetCount":0,"scriptCount":0,"children":[` +
		leaf("q", "data/sql/q", "Q") + `]}`

	tests := []struct {
		name   string
		files  map[string]string
		filter string
		want   string
	}{
		{name: "whole tree under _root", files: withRoot, filter: "", want: `[` + rootNode + `]`},
		{name: "filter ui finds ui/_index", files: withRoot, filter: "ui", want: `[` + ui + `]`},
		{name: "filter with trailing slash", files: withRoot, filter: "ui/", want: `[` + ui + `]`},
		{name: "filter api/_index", files: withRoot, filter: "api/_index", want: `[` + api + `]`},
		{name: "filter a leaf", files: withRoot, filter: "ui/react/auth", want: `[` + auth + `]`},
		{name: "filter _root", files: withRoot, filter: "_root", want: `[` + rootNode + `]`},
		{name: "unknown filter", files: withRoot, filter: "nope", want: `[]`},
		{name: "directory without index", files: withRoot, filter: "ui/react/auth/x", want: `[]`},
		{name: "no _root: every orphan is top-level", files: withoutRoot, filter: "",
			want: `[` + leaf("jwt", "api/jwt", "JWT") + `,` + dataNoRoot + `,` + uiNoRoot + `,` +
				leaf("x", "zeta/deep/x", "X") + `,` + leaf("lone", "zeta/lone", "Lone") + `]`},
		{name: "no _root: filter ui", files: withoutRoot, filter: "ui", want: `[` + uiNoRoot + `]`},
		{name: "no _root: _root filter", files: withoutRoot, filter: "_root", want: `[]`},
		{name: "empty index", files: map[string]string{}, filter: "", want: `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sn, _ := mustBuild(t, writeTree(t, tt.files))
			if got := treeJSON(t, sn.Tree(tt.filter)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			var b strings.Builder
			sn.WriteTreeJSON(&b, tt.filter)
			if got := b.String(); got != tt.want {
				t.Errorf("WriteTreeJSON: got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
