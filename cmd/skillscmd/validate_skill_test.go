package skillscmd

import (
	"strings"
	"testing"
)

// validateCase is a skills tree written in the test, and what validate must
// print about it (every validate.Finding line, in order) and exit with.
type validateCase struct {
	name  string
	files map[string]string
	want  []string
	code  int
}

func runValidateCases(t *testing.T, tests []validateCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.files)
			r := runValidateBin(t, root, nil)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", r.code, tt.code, r.stdout, r.stderr)
			}
			wantLines(t, r, tt.want...)
		})
	}
}

func TestValidateEnumeratedFields(t *testing.T) {
	t.Parallel()
	runValidateCases(t, []validateCase{
		{
			name: "tree skill",
			files: map[string]string{
				"skills/deploy.md": `---
description: Deploying the service
keywords: [deploy, release]
priority: high
inherit: maybe
scripts:
  - file: scripts/ship.sh
    execution: sever
    args:
      - name: env
        required: perhaps
      - [nested]
  - file: scripts/ship.sh
    execution: server
    needs: [network, gpu]
  - file: scripts/ship.sh
    needs: network
  - file: scripts/ship.sh
    execution: server
    needs: [network]
---
# Deploy
`,
				"skills/deploy/scripts/ship.sh": "#!/bin/sh\n",
			},
			want: []string{
				`skills/deploy.md:4: error: priority: want a number, got the string "high"`,
				`skills/deploy.md:5: error: inherit: want true or false, got the string "maybe"`,
				`skills/deploy.md:8: error: scripts[0].execution: want "claude" or "server", got the string "sever"`,
				`skills/deploy.md:11: error: scripts[0].args[0].required: want true or false, got the string "perhaps"`,
				`skills/deploy.md:12: error: scripts[0].args[1]: want a name (a word, or a mapping with name:), got a list`,
				`skills/deploy.md:15: error: scripts[1].needs[1]: want "network" (the only need a script declares), got the string "gpu"`,
				`skills/deploy.md:17: error: scripts[2].needs: want a list such as [network], got the string "network"`,
			},
			code: exitFailed,
		},
		{
			name: "YAML 1.1 boolean words",
			files: map[string]string{
				"skills/a.md": "---\ndescription: A\nkeywords: [a]\ninherit: no\n---\n",
				"skills/b.md": "---\ndescription: B\nkeywords: [b]\ninherit: false\npriority: 2.5\n---\n",
			},
			want: []string{`skills/a.md:4: error: inherit: want true or false, got the string "no" (only YAML 1.1 reads no as a boolean; write false)`},
			code: exitFailed,
		},
		{
			name: "Agent Skill keywords and lists",
			files: map[string]string{
				"skills/notes/SKILL.md": `---
name: notes
description: Taking notes.
keywords: notes, journal
assets: assets/template.md
scripts:
  - 42
---
`,
			},
			want: []string{
				`skills/notes/SKILL.md:4: error: keywords: want a list of words (keywords: [deploy, release]), got the string "notes, journal"`,
				`skills/notes/SKILL.md:5: error: assets: want a list, got the string "assets/template.md"`,
				`skills/notes/SKILL.md:7: error: scripts[0]: want a file (a path, or a mapping with file:), got the number 42`,
			},
			code: exitFailed,
		},
	})
}

func TestValidateMissingFilesAreErrors(t *testing.T) {
	t.Parallel()
	runValidateCases(t, []validateCase{
		{
			name: "tree skill with its resource directory",
			files: map[string]string{
				"skills/ui.md": `---
description: UI
keywords: [ui]
assets:
  - file: assets/here.txt
  - file: assets/gone.txt
    description: gone
scripts:
  - scripts/missing.sh
---
`,
				"skills/ui/assets/here.txt": "here\n",
			},
			want: []string{
				`skills/ui.md:6: error: declared asset "assets/gone.txt" does not exist: no file skills/ui/assets/gone.txt`,
				`skills/ui.md:9: error: declared script "scripts/missing.sh" does not exist: no file skills/ui/scripts/missing.sh`,
			},
			code: exitFailed,
		},
		{
			name: "tree skill without one",
			files: map[string]string{
				"skills/api.md": "---\ndescription: API\nkeywords: [api]\nassets: [assets/spec.yaml]\n---\n",
			},
			want: []string{`skills/api.md:4: error: declared asset "assets/spec.yaml" does not exist: no file skills/api/assets/spec.yaml`},
			code: exitFailed,
		},
		{
			name: "Agent Skill",
			files: map[string]string{
				"skills/pdf/SKILL.md":        "---\nname: pdf\ndescription: PDF forms.\nscripts:\n  - file: scripts/fill.py\n  - file: scripts/here.py\n---\n",
				"skills/pdf/scripts/here.py": "print()\n",
			},
			want: []string{`skills/pdf/SKILL.md:5: error: declared script "scripts/fill.py" does not exist: no file skills/pdf/scripts/fill.py`},
			code: exitFailed,
		},
	})
}

func TestValidateYAML11Readings(t *testing.T) {
	t.Parallel()
	runValidateCases(t, []validateCase{
		{
			name: "values YAML 1.1 readers take for something else",
			files: map[string]string{
				"skills/release/SKILL.md": `---
name: release
description: yes
license: null
version: 1.10
keywords: [release, on]
user-invocable: yes
metadata:
  updated: 2024-01-01
  build: 1:20
  owner: ops
---
`,
			},
			want: []string{
				`skills/release/SKILL.md:3: warning: description: YAML 1.1 readers (PyYAML, the official SDKs) read yes as the boolean true, not as text; quote it: "yes"`,
				`skills/release/SKILL.md:4: warning: license: YAML 1.1 readers (PyYAML, the official SDKs) read null as null (no value), not as text; quote it: "null"`,
				`skills/release/SKILL.md:5: warning: version: YAML 1.1 readers (PyYAML, the official SDKs) read 1.10 as the number 1.1, not as text; quote it: "1.10"`,
				`skills/release/SKILL.md:6: warning: keywords entry: YAML 1.1 readers (PyYAML, the official SDKs) read on as the boolean true, not as text; quote it: "on"`,
				`skills/release/SKILL.md:7: warning: user-invocable: YAML 1.1 readers (PyYAML, the official SDKs) read yes as the boolean true, this server as the string "yes"; write true for a boolean, or quote it ("yes") for the text`,
				`skills/release/SKILL.md:9: warning: metadata.updated: YAML 1.1 readers (PyYAML, the official SDKs) read 2024-01-01 as a date, not as text; quote it: "2024-01-01"`,
				`skills/release/SKILL.md:10: warning: metadata.build: YAML 1.1 readers (PyYAML, the official SDKs) read 1:20 as a number in base 60, not as text; quote it: "1:20"`,
			},
			code: exitOK,
		},
		{
			name: "BOM and CRLF",
			files: map[string]string{
				"skills/win/SKILL.md": "\ufeff---\r\nname: win\r\ndescription: on\r\n---\r\nSee [notes](notes.md).\r\n",
			},
			want: []string{
				`skills/win/SKILL.md:3: warning: description: YAML 1.1 readers (PyYAML, the official SDKs) read on as the boolean true, not as text; quote it: "on"`,
				`skills/win/SKILL.md:5: error: link "notes.md" points to a file that does not exist: no skills/win/notes.md`,
			},
			code: exitFailed,
		},
		{
			name: "keys and merges",
			files: map[string]string{
				"skills/keys/SKILL.md": `---
name: keys
description: Keys YAML readers take for something else.
metadata:
  on: deploy
  00: first
  base: &base
    owner: ops
  team:
    <<: *base
    size: "3"
---
`,
			},
			want: []string{
				`skills/keys/SKILL.md:5: warning: key on: YAML 1.1 readers (PyYAML, the official SDKs) read it as the boolean true, not as text; quote it: "on":`,
				`skills/keys/SKILL.md:6: warning: key 00: YAML readers read it as the number 00, not as text; quote it: "00":`,
				`skills/keys/SKILL.md:10: warning: metadata.team: merge keys (<<) are YAML 1.1 only: this server and YAML 1.1 readers merge the keys in, YAML 1.2 readers need not; write the keys out`,
			},
			code: exitOK,
		},
		{
			name: "quoted and unambiguous values",
			files: map[string]string{
				"skills/release/SKILL.md": `---
name: release
description: "yes"
version: "1.10"
keywords: [release, "on"]
user-invocable: true
metadata:
  updated: "2024-01-01"
  notes: |
    yes
---
`,
				"skills/tree.md": "---\ndescription: A tree skill\nkeywords: [tree]\npriority: 1.10\ninherit: false\n---\n",
			},
			code: exitOK,
		},
	})
}

func TestValidateBodyLinks(t *testing.T) {
	t.Parallel()
	runValidateCases(t, []validateCase{
		{
			name: "Agent Skill",
			files: map[string]string{
				"skills/pdf/references/FORMS.md":   "# Forms\n",
				"skills/pdf/references/My File.md": "# Mine\n",
				"skills/pdf/assets/logo.png":       "png",
				"skills/other/SKILL.md":            "---\nname: other\ndescription: Another skill.\n---\n",
				"skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDF forms.\n---\n" + `# PDF

Read [forms](references/FORMS.md) first, then [the reference](references/REFERENCE.md#top).
![logo](assets/logo.png) ![diagram](assets/diagram.svg)
See [the other skill](../other/SKILL.md), [mine](references/My%20File.md), [docs](https://example.com/x.md),
[a section](#usage), [base]({baseDir}/references/FORMS.md) and [a reference][gone].

` + "```markdown\n[not a link](references/IN-CODE.md)\n```\n" + `
Inline ` + "`[code](references/INLINE.md)`" + ` is not a link either.

[gone]: references/GONE.md
`,
			},
			want: []string{
				`skills/pdf/SKILL.md:7: error: link "references/REFERENCE.md#top" points to a file that does not exist: no skills/pdf/references/REFERENCE.md`,
				`skills/pdf/SKILL.md:8: error: image "assets/diagram.svg" points to a file that does not exist: no skills/pdf/assets/diagram.svg`,
				`skills/pdf/SKILL.md:9: error: link "../other/SKILL.md" points outside the skill folder: a client fetches only the files of this skill (to point at another skill, name it)`,
				`skills/pdf/SKILL.md:10: error: link "references/GONE.md" points to a file that does not exist: no skills/pdf/references/GONE.md`,
			},
			code: exitFailed,
		},
		{
			name: "tree skill",
			files: map[string]string{
				"skills/ui/react/auth.md":                  "---\ndescription: Auth\nkeywords: [auth]\n---\nUse [the provider](auth/assets/Provider.tsx), [the category](_index.md)\nand [nothing](../../../../outside.md).\n",
				"skills/ui/react/_index.md":                "---\ndescription: React\nkeywords: [react]\n---\n",
				"skills/ui/react/auth/assets/Provider.tsx": "x\n",
			},
			want: []string{
				`skills/ui/react/auth.md:6: error: link "../../../../outside.md" points outside the skills directory: a client fetches only the files of this skill (to point at another skill, name it)`,
			},
			code: exitFailed,
		},
	})
}

// --json carries file, line, severity and message for every problem, the
// same problems as the text output.
func TestValidateJSONCarriesEveryProblem(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"config.yaml":           "matching:\n  max_results: 0\n",
		"skills/a.md":           "---\ndescription: A\nkeywords: [a]\npriority: high\nassets: [assets/none.txt]\n---\n[x](nowhere.md)\n",
		"skills/b/SKILL.md":     "---\nname: b\ndescription: on\n---\n",
		"skills/broken.md":      "---\ndescription: [\n---\n",
		"skills/Wrong/SKILL.md": "---\nname: right\ndescription: Misnamed.\n---\n",
	})
	text := runValidateBin(t, root, nil)
	js := runValidateBin(t, root, nil, "--json")
	if text.code != exitFailed || js.code != exitFailed {
		t.Errorf("exit %d (text), %d (json), want %d", text.code, js.code, exitFailed)
	}
	rep := decodeReport(t, js)
	var fromJSON []string
	for _, f := range rep.Findings {
		if f.File == "" || f.Line < 1 || f.Severity != "error" && f.Severity != "warning" || f.Message == "" {
			t.Errorf("incomplete validate.Finding %+v", f)
		}
		fromJSON = append(fromJSON, f.String())
	}
	if got, want := strings.Join(fromJSON, "\n"), strings.Join(text.lines(), "\n"); got != want {
		t.Errorf("--json findings\n%s\nwant the text output's\n%s", got, want)
	}
	if len(fromJSON) < 6 {
		t.Errorf("got %d findings, want at least one per planted problem:\n%s", len(fromJSON), strings.Join(fromJSON, "\n"))
	}
}
