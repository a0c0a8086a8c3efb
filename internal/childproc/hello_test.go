package childproc

import (
	"errors"
	"strings"
	"testing"
)

// Both sides accept only their own build and protocol, and name both when
// they refuse; a side that says nothing is older than the handshake.
func TestHandshakeChecks(t *testing.T) {
	t.Parallel()
	own := Hello{Protocol: 1, Version: "v1.2.0 (commit aaa)"}
	for _, tc := range []struct {
		name string
		got  *Hello
		want []string // in the error; none: accepted
	}{
		{"same build", &Hello{Protocol: 1, Version: "v1.2.0 (commit aaa)"}, nil},
		{"other version", &Hello{Protocol: 1, Version: "v1.1.0 (commit bbb)"}, []string{`"v1.1.0 (commit bbb)", protocol 1`, `"v1.2.0 (commit aaa)", protocol 1`}},
		{"other protocol", &Hello{Protocol: 2, Version: "v1.2.0 (commit aaa)"}, []string{"protocol 2", "protocol 1"}},
		{"older than the handshake", nil, []string{"did not say its version", `"v1.2.0 (commit aaa)", protocol 1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for side, err := range map[string]error{
				"CheckHelper": CheckHelper("skills-mcp-git", "/opt/bin/skills-mcp-git", own, tc.got),
				"CheckServer": CheckServer("skills-mcp-git", own, tc.got),
			} {
				if tc.want == nil {
					if err != nil {
						t.Errorf("%s = %v, want nil", side, err)
					}
					continue
				}
				if !errors.Is(err, ErrMismatch) {
					t.Errorf("%s = %v, want ErrMismatch", side, err)
					continue
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s = %v, want it to name %s", side, err, w)
					}
				}
				if side == "CheckHelper" && !strings.Contains(err.Error(), "/opt/bin/skills-mcp-git") {
					t.Errorf("%s = %v, want it to name where the helper was found", side, err)
				}
			}
		})
	}
}
