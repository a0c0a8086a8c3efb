package index

import (
	"errors"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestControlCharacterNamesNotServed: a file whose name holds a control
// character is not served by name either (get_asset and run_script go
// through FindAsset): neither an Agent Skill's undeclared file nor a declared
// asset or script, which are dropped from the skill with a problem. Before,
// the listings left them out but FindAsset found them, so get_asset served
// and run_script ran what validate reports as "not served".
func TestControlCharacterNamesNotServed(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"kit/SKILL.md":               agentMD("kit", "kit", "scripts:\n  - file: \"scripts/r\\nun.sh\"\n    execution: server\n", ""),
		"kit/scripts/r\nun.sh":       "echo run\n",
		"kit/assets/e\x1bvil.txt":    "evil\n",
		"kit/assets/fine.txt":        "fine\n",
		"tree.md":                    "---\ndescription: tree\nkeywords: [tree]\nassets:\n  - file: \"assets/e\\u2028vil.txt\"\n  - file: assets/fine.txt\nscripts:\n  - file: \"scripts/r\\tun.sh\"\n    execution: server\n---\n# tree\n",
		"tree/assets/e\u2028vil.txt": "evil\n",
		"tree/assets/fine.txt":       "fine\n",
		"tree/scripts/r\tun.sh":      "echo run\n",
	})
	sn, log := mustBuild(t, root)
	tests := []struct {
		name, skill, file string
		served            bool
	}{
		{name: "agent skill: declared script with a newline", skill: "kit", file: "scripts/r\nun.sh"},
		{name: "agent skill: undeclared file with an escape", skill: "kit", file: "assets/e\x1bvil.txt"},
		{name: "agent skill: a plain file", skill: "kit", file: "assets/fine.txt", served: true},
		{name: "tree skill: declared asset with U+2028", skill: "tree", file: "assets/e\u2028vil.txt"},
		{name: "tree skill: declared script with a tab", skill: "tree", file: "scripts/r\tun.sh"},
		{name: "tree skill: a plain declared asset", skill: "tree", file: "assets/fine.txt", served: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustGet(t, sn, tt.skill)
			_, err := sn.FindAsset(s, tt.file)
			switch {
			case tt.served && err != nil:
				t.Fatalf("FindAsset(%q): %v, want it found", tt.file, err)
			case !tt.served && !errors.Is(err, core.ErrAssetNotFound):
				t.Fatalf("FindAsset(%q): err %v, want core.ErrAssetNotFound", tt.file, err)
			case !tt.served && strings.ContainsAny(err.Error(), "\n\t\x1b\u2028"):
				t.Errorf("the error holds a raw control character: %q", err.Error())
			}
		})
	}
	for _, path := range []string{"kit", "tree"} {
		s := mustGet(t, sn, path)
		for _, a := range s.Assets {
			if strings.ContainsAny(a.File, "\n\t\x1b\u2028") {
				t.Errorf("%s still declares asset %q", path, a.File)
			}
		}
		for _, sc := range s.Scripts {
			if strings.ContainsAny(sc.File, "\n\t\x1b\u2028") {
				t.Errorf("%s still declares script %q", path, sc.File)
			}
		}
	}
	if strings.ContainsAny(log, "\t\x1b\u2028") { // a newline ends each log line
		t.Errorf("the log holds a raw control character:\n%q", log)
	}
}
