package launch

import (
	"errors"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

func TestAppendLine(t *testing.T) {
	for _, tc := range []struct{ name, s, want string }{
		{"empty output gets the line alone", "", "NOTE"},
		{"output ending in a newline is not doubled", "abc\n", "abc\nNOTE"},
		{"output without a final newline gets one", "abc", "abc\nNOTE"},
		{"a previous note is followed on its own line", "abc\nFIRST", "abc\nFIRST\nNOTE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AppendLine(tc.s, "NOTE"); got != tc.want {
				t.Errorf("AppendLine(%q) = %q, want %q", tc.s, got, tc.want)
			}
		})
	}
}

func TestCheckRequest(t *testing.T) {
	for name, req := range map[string]core.RunRequest{
		"relative script": {ScriptPath: "x.sh", SkillDir: "/s", File: "x.sh"},
		"empty skill dir": {ScriptPath: "/s/x.sh", File: "x.sh"},
	} {
		if err := CheckRequest(req); !errors.Is(err, core.ErrInvalidArgument) {
			t.Errorf("%s: got %v, want ErrInvalidArgument", name, err)
		}
	}
	if err := CheckRequest(core.RunRequest{ScriptPath: "/s/x.sh", SkillDir: "/s"}); err != nil {
		t.Errorf("valid request: %v", err)
	}
}
