package index

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// FuzzParseAgentSkill checks that parsing a SKILL.md never panics, that a
// parsed skill always has a trimmed non-empty name and a description, never
// inherits and has non-nil keywords, and that every reported rule break points
// at a line of the file.
func FuzzParseAgentSkill(f *testing.F) {
	f.Add([]byte("---\nname: git\ndescription: Git workflow\nlicense: MIT\n---\n# Git\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, breaks, err := parseAgentSkill("tools/git", "tools/git/SKILL.md", data, hclog.NewNullLogger())
		if err != nil {
			if s != nil || breaks != nil {
				t.Fatalf("error %v with a skill or breaks", err)
			}
			return
		}
		if s.Name == "" || s.Name != strings.TrimSpace(s.Name) || strings.TrimSpace(s.Description) == "" {
			t.Fatalf("got name %q description %q, want both non-empty, the name trimmed", s.Name, s.Description)
		}
		if s.Format != core.FormatAgentSkill || s.Inherit || s.Keywords == nil || s.Path != "tools/git" {
			t.Fatalf("got %+v", s)
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, br := range breaks {
			if n := keyLine(data, br.key); n < 1 || n > lines {
				t.Fatalf("break %+v: line %d outside 1..%d", br, n, lines)
			}
			if br.message == "" {
				t.Fatalf("break on %s without a message", br.key)
			}
		}
	})
}
