package lockfile

import (
	"strings"
	"testing"
)

var d1, d2 = "sha256:" + strings.Repeat("a", 64), "sha256:" + strings.Repeat("b", 64)

func sample() []Skill {
	return []Skill{
		{Path: "ui/react/auth", URI: "skill://ui/react/auth/SKILL.md", Files: []File{{URI: "skill://ui/react/auth/SKILL.md", Digest: d1, Size: 10}}},
		{Path: "pdf", URI: "skill://pdf/SKILL.md", Files: []File{{URI: "skill://pdf/SKILL.md", Digest: d2, Size: 3}, {URI: "skill://pdf/a.txt", Digest: d1, Size: 1}}},
	}
}

// A written lock parses back to itself, sorted.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	l := New(sample())
	got, err := Parse(l.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if got.Skills[0].URI != "skill://pdf/SKILL.md" || got.Skills[0].Files[0].URI != "skill://pdf/SKILL.md" || len(got.Skills) != 2 {
		t.Errorf("round trip: got %+v, want the skills and files sorted by URI", got)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"not JSON", "skills:", "not a lock file"},
		{"unknown field", `{"version":1,"skills":[],"extra":1}`, "unknown field"},
		{"version", `{"version":2,"skills":[]}`, "version 2"},
		{"no path", `{"version":1,"skills":[{"uri":"skill://a/SKILL.md","files":[]}]}`, "skills[0]"},
		{"bad digest", `{"version":1,"skills":[{"path":"a","uri":"skill://a/SKILL.md","files":[{"uri":"skill://a/SKILL.md","digest":"md5:x","size":1}]}]}`, "files[0]"},
		{"twice", `{"version":1,"skills":[{"path":"a","uri":"skill://a/SKILL.md","files":[]},{"path":"b","uri":"skill://a/SKILL.md","files":[]}]}`, "locked twice"},
		{"trailing", `{"version":1,"skills":[]} {}`, "text after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse([]byte(tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse: got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	l := New(sample())
	changed := sample()
	changed[1].Files[1].Digest = d2                                                               // pdf/a.txt changed
	changed[0].Files = append(changed[0].Files, File{URI: "skill://ui/react/auth/x", Digest: d1}) // a file more
	changed = append(changed, Skill{Path: "new", URI: "skill://new/SKILL.md"})
	refused, missing := l.Check(changed[1:])
	want := map[string]string{"pdf": "skill://pdf/a.txt changed", "new": "is not in the lock file"}
	if len(refused) != len(want) {
		t.Errorf("refused %v, want %v", refused, want)
	}
	for p, w := range want {
		if !strings.Contains(refused[p], w) {
			t.Errorf("refused[%s] = %q, want it to contain %q", p, refused[p], w)
		}
	}
	if len(missing) != 1 || missing[0] != "skill://ui/react/auth/SKILL.md" {
		t.Errorf("missing = %v, want the auth skill", missing)
	}
	refused, _ = l.Check(changed[:1])
	if !strings.Contains(refused["ui/react/auth"], "skill://ui/react/auth/x is not in the lock file") {
		t.Errorf("a file more: refused %v", refused)
	}
	if refused, missing := l.Check(sample()); len(refused) != 0 || len(missing) != 0 {
		t.Errorf("the locked tree itself: refused %v, missing %v, want none", refused, missing)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(string(New(sample()).Encode()))
	f.Add(`{"version":1,"skills":null}`)
	f.Fuzz(func(t *testing.T, text string) {
		l, err := Parse([]byte(text))
		if err != nil {
			return
		}
		again, err := Parse(l.Encode())
		if err != nil || len(again.Skills) != len(l.Skills) {
			t.Fatalf("a parsed lock does not parse back: %v", err)
		}
	})
}
