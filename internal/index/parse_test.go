package index

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestFrontmatterValidation indexes a tree holding one valid skill and the file
// ui/x.md of each case: an invalid file is skipped with exactly one warning that
// names it and the reason, the other skill is unaffected.
func TestFrontmatterValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		content    string
		wantReason string // "" when the file is valid
	}{
		{name: "missing keywords", content: "---\ndescription: d\n---\nbody", wantReason: "keywords must be a non-empty list"},
		{name: "empty keyword list", content: "---\ndescription: d\nkeywords: []\n---\n", wantReason: "keywords must be a non-empty list"},
		{name: "keywords a string", content: "---\ndescription: d\nkeywords: react\n---\n", wantReason: "keywords must be a non-empty list"},
		{name: "keywords only nulls", content: "---\ndescription: d\nkeywords: [~, ~]\n---\n", wantReason: "keywords must be a non-empty list"},
		{name: "missing description", content: "---\nkeywords: [a]\n---\n", wantReason: "description must be a non-empty string"},
		{name: "empty description", content: "---\ndescription: \"\"\nkeywords: [a]\n---\n", wantReason: "description must be a non-empty string"},
		{name: "blank description", content: "---\ndescription: \"   \"\nkeywords: [a]\n---\n", wantReason: "description must be a non-empty string"},
		{name: "description a number is its text", content: "---\ndescription: 42\nkeywords: [a]\n---\n"},
		{name: "broken YAML", content: "---\ndescription: d\nkeywords: [a\n---\n", wantReason: "parsing frontmatter"},
		{name: "frontmatter a list", content: "---\n- a\n---\n", wantReason: "not a mapping"},
		{name: "unterminated block", content: "---\ndescription: d\nkeywords: [a]\n", wantReason: "frontmatter block is not closed"},
		{name: "no block", content: "# Just markdown\n", wantReason: notASkill},
		{name: "BOM", content: "\xEF\xBB\xBF---\ndescription: d\nkeywords: [a]\n---\nbody"},
		{name: "CRLF", content: "---\r\ndescription: d\r\nkeywords:\r\n  - a\r\n---\r\nbody\r\n"},
		{name: "numeric keywords", content: "---\ndescription: d\nkeywords: [1, true, ~, x]\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				"ok.md":   skillMD("fine", "", "ok body"),
				"ui/x.md": tt.content,
			})
			sn, log := mustBuild(t, root)
			if _, ok := sn.Get("ok"); !ok {
				t.Errorf("valid skill ok missing; have %v", sn.Paths())
			}
			_, got := sn.Get("ui/x")
			warns := warnLines(log)
			if tt.wantReason == "" {
				if !got {
					t.Fatalf("ui/x: skipped, want indexed; log:\n%s", log)
				}
				if len(warns) != 0 {
					t.Errorf("got warnings %q, want none", warns)
				}
				return
			}
			if got {
				t.Errorf("ui/x: indexed, want skipped")
			}
			if tt.wantReason == notASkill { // a README: counted on one info line, never warned about
				if len(warns) != 0 || !strings.Contains(log, "1 Markdown file outside skill folders is not a skill") {
					t.Errorf("got warnings %q, log:\n%s\nwant only the count of Markdown that is not a skill", warns, log)
				}
				return
			}
			if len(warns) != 1 {
				t.Fatalf("got %d warnings %q, want 1", len(warns), warns)
			}
			if !strings.Contains(warns[0], "skipping ui/x.md: ") || !strings.Contains(warns[0], tt.wantReason) {
				t.Errorf("warning %q: want it to name ui/x.md and %q", warns[0], tt.wantReason)
			}
		})
	}
}

// notASkill is the wantReason of Markdown that is not a skill at all.
const notASkill = "not a skill"

func TestParseSkillFields(t *testing.T) {
	t.Parallel()
	logger, buf := newTestLogger()
	content := "\xEF\xBB\xBF---\r\n" +
		"description: React auth\r\n" +
		"keywords: [React, 2, false, ~, \"\"]\r\n" +
		"extra: {nested: [1, 2.5]}\r\n" +
		"---\r\n" +
		"\r\n# Auth\r\n  trailing  \r\n"
	s, unknown, err := parseSkill("ui/react/auth.md", []byte(content), logger)
	if err != nil {
		t.Fatalf("parseSkill: %v", err)
	}
	want := &core.Skill{
		Path:        "ui/react/auth",
		FilePath:    "ui/react/auth.md",
		Format:      core.FormatTree,
		Name:        "auth",
		Description: "React auth",
		Keywords:    []string{"React", "2", "false"},
		Priority:    0,
		Inherit:     true,
		Assets:      []core.Asset{},
		Scripts:     []core.Script{},
		Body:        bodyInfoOf([]byte("\r\n# Auth\r\n  trailing  \r\n")),
		Headings:    []string{"Auth"},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v,\nwant %+v", s, want)
	}
	if s.Body.Size != 24 || s.Body.TrimmedSize != 18 {
		t.Errorf("body sizes: got %d and %d trimmed, want 24 and 18", s.Body.Size, s.Body.TrimmedSize)
	}
	if !reflect.DeepEqual(unknown, []string{"extra"}) {
		t.Errorf("unknown keys: got %q, want [extra]", unknown)
	}
	if w := warnLines(buf.String()); len(w) != 0 {
		t.Errorf("got warnings %q, want none", w)
	}
}

func TestParseDefaultsAndEntries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		extra        string
		wantInherit  bool
		wantPriority float64
		wantAssets   []core.Asset
		wantScripts  []core.Script
		wantWarns    []string
	}{
		{name: "defaults", wantInherit: true, wantAssets: []core.Asset{}, wantScripts: []core.Script{}},
		{name: "inherit false", extra: "inherit: false\n", wantInherit: false, wantAssets: []core.Asset{}, wantScripts: []core.Script{}},
		{name: "inherit only false disables", extra: "inherit: \"false\"\n", wantInherit: true, wantAssets: []core.Asset{}, wantScripts: []core.Script{}},
		{name: "int priority", extra: "priority: 5\n", wantInherit: true, wantPriority: 5, wantAssets: []core.Asset{}, wantScripts: []core.Script{}},
		{name: "float priority", extra: "priority: -1.5\n", wantInherit: true, wantPriority: -1.5, wantAssets: []core.Asset{}, wantScripts: []core.Script{}},
		{name: "string priority ignored", extra: "priority: high\n", wantInherit: true, wantAssets: []core.Asset{}, wantScripts: []core.Script{}},
		{
			name:        "asset entries",
			extra:       "assets:\n  - file: a/x.png\n    description: pic\n    type: image\n  - b.txt\n  - description: no file\n  - 3\n",
			wantInherit: true,
			wantAssets: []core.Asset{
				{File: "a/x.png", Description: "pic", Type: "image"},
				{File: "b.txt", Type: "other"},
				{File: "3", Type: "other"}, // a file path is text: `- 3` names the file 3
			},
			wantScripts: []core.Script{},
			wantWarns:   []string{"an asset entry has no file; skipping it: file=x.md entry=assets[2]"},
		},
		{
			name: "script entries",
			extra: "scripts:\n" +
				"  - file: s/run.sh\n    description: runs\n    execution: server\n    args:\n      - name: target\n        description: where\n      - name: dry\n        required: false\n      - required: true\n      - plain\n" +
				"  - s/other.py\n  - {execution: server}\n",
			wantInherit: true,
			wantAssets:  []core.Asset{},
			wantScripts: []core.Script{
				{File: "s/run.sh", Description: "runs", Execution: "server", Args: []core.Arg{
					{Name: "target", Description: "where", Required: true},
					{Name: "dry", Required: false},
					{Name: "plain", Required: true},
				}},
				{File: "s/other.py", Execution: "claude", Args: []core.Arg{}},
			},
			wantWarns: []string{"script=s/run.sh entry=args[2]", "a script entry has no file; skipping it: file=x.md entry=scripts[2]"},
		},
		{name: "assets not a list", extra: "assets: x.png\n", wantInherit: true, wantAssets: []core.Asset{}, wantScripts: []core.Script{},
			wantWarns: []string{"must be a list is not; ignoring it: file=x.md field=assets"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, buf := newTestLogger()
			s, _, err := parseSkill("x.md", []byte(skillMD("d", tt.extra, "")), logger)
			if err != nil {
				t.Fatalf("parseSkill: %v", err)
			}
			if s.Inherit != tt.wantInherit {
				t.Errorf("inherit: got %v, want %v", s.Inherit, tt.wantInherit)
			}
			if s.Priority != tt.wantPriority {
				t.Errorf("priority: got %v, want %v", s.Priority, tt.wantPriority)
			}
			if !reflect.DeepEqual(s.Assets, tt.wantAssets) {
				t.Errorf("assets: got %+v, want %+v", s.Assets, tt.wantAssets)
			}
			if !reflect.DeepEqual(s.Scripts, tt.wantScripts) {
				t.Errorf("scripts: got %+v, want %+v", s.Scripts, tt.wantScripts)
			}
			warns := warnLines(buf.String())
			if len(warns) != len(tt.wantWarns) {
				t.Fatalf("got warnings %q, want %q", warns, tt.wantWarns)
			}
			for i, w := range tt.wantWarns {
				if !strings.Contains(warns[i], "file=x.md") || !strings.Contains(warns[i], w) {
					t.Errorf("warning %d: got %q, want it to name x.md and %q", i, warns[i], w)
				}
			}
		})
	}
}

// TestParseKeepsNoByteOfTheFile: the frontmatter's strings are cut from the
// buffer the file was read into, which the next file is read into; what a
// skill keeps and the lines logged after the scan must not change when that
// buffer does.
func TestParseKeepsNoByteOfTheFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rel, agentDir, content string
	}{
		{name: "tree skill", rel: "ui/react/auth.md", content: skillMD("React auth", "extra: 1\n"+
			"assets:\n  - file: a/x.png\n    description: pic\n    type: image\n  - b.txt\n  - description: no file\n"+
			"scripts:\n  - file: s/run.sh\n    description: runs\n    execution: server\n    args:\n      - name: target\n        description: where\n      - required: true\n", "# Auth\n")},
		{name: "tree skill, quoted escapes", rel: "x.md", content: "---\ndescription: \"say \\\"hi\\\"\"\nkeywords: ['it''s', \"a\\\\b\"]\n---\nbody\n"},
		{name: "agent skill", rel: "tools/git/SKILL.md", agentDir: "tools/git", content: agentMD("Git", "Git workflow", "keywords: [git, vcs]\ncompatibility: 3\nscripts:\n  - file: run.sh\n    args:\n      - description: nameless\n", "# Git\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := func(data []byte, logger hclog.Logger) *core.Skill {
				var s *core.Skill
				var err error
				if tt.agentDir != "" {
					s, _, err = parseAgentSkill(tt.agentDir, tt.rel, data, logger)
				} else {
					s, _, err = parseSkill(tt.rel, data, logger)
				}
				if err != nil {
					t.Fatalf("parse: %v", err)
				}
				return s
			}
			want, wantLog := parse([]byte(tt.content), hclog.NewNullLogger()), &recordingLogger{Logger: hclog.NewNullLogger()}
			parse([]byte(tt.content), wantLog)
			data, rec := []byte(tt.content), &recordingLogger{Logger: hclog.NewNullLogger()}
			got := parse(data, rec)
			for i := range data {
				data[i] = 'Z'
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after the buffer changed: got %+v,\nwant %+v", got, want)
			}
			if fmt.Sprint(rec.lines) != fmt.Sprint(wantLog.lines) {
				t.Errorf("logged after the buffer changed: got %v, want %v", rec.lines, wantLog.lines)
			}
		})
	}
}

// TestInheritNoKeepsInheritance: spec 000 §4.2, inherit is true unless
// explicitly false; "no" is not false.
func TestInheritNoKeepsInheritance(t *testing.T) {
	t.Parallel()
	sk, _, err := parseSkill("x.md", []byte("---\ndescription: d\nkeywords: [k]\ninherit: no\n---\nbody\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sk.Inherit {
		t.Error("inherit: no turned inheritance off")
	}
}
