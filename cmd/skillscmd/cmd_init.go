package skillscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// starterFiles is the content repo `init` writes (config.yaml is added from the
// defaults). `validate` must pass on it; a test checks that.
var starterFiles = map[string]string{
	"skills/_root.md": `---
description: Rules that apply to every task in this repository
keywords: [conventions, global]
---
# Global rules

- Explain *why* in commit messages.
- Run the tests before you push.
`,
	"skills/guides/_index.md": `---
description: How we work on code in this team
keywords: [guide, workflow]
---
# Guides

Follow these when you change code here.
`,
	"skills/guides/code-review.md": `---
description: Preparing a change for code review
keywords: [review, pull-request, checklist]
assets:
  - file: assets/pr-template.md
    description: Pull request description template
    type: template
scripts:
  - file: scripts/check-size.sh
    description: Fails when a change is larger than the limit
    execution: server
    args:
      - name: changed_lines
        description: Number of changed lines
      - name: limit
        description: Maximum changed lines (default 400)
        required: false
---
# Code review

1. Keep the change under 400 lines; run ` + "`check-size.sh`" + ` to check.
2. Fill in the pull request template from the assets.
`,
	"skills/guides/code-review/assets/pr-template.md": `## What and why

## How it was tested
`,
	"skills/guides/code-review/scripts/check-size.sh": `#!/usr/bin/env bash
set -eu
limit="${SKILL_ARG_LIMIT:-400}"
if (( SKILL_ARG_CHANGED_LINES > limit )); then
  echo "Change has ${SKILL_ARG_CHANGED_LINES} lines; split it (limit ${limit})." >&2
  exit 1
fi
echo "Size OK: ${SKILL_ARG_CHANGED_LINES} lines (limit ${limit})."
`,
}

// Formats of the starter `init` writes.
const (
	formatTree        = "tree"
	formatAgentSkills = "agent-skills"
)

// starters are the starter skills of each format.
var starters = map[string]map[string]string{formatTree: starterFiles, formatAgentSkills: agentStarterFiles}

// initCmd writes a starter content repo into DIR without overwriting anything.
func initCmd(_ context.Context, _ *app, args []string, stdout, stderr io.Writer) error {
	fset := newFlagSet("init", "init [--format tree|agent-skills] [DIR]",
		"Write a starter content repository (skills/ and config.yaml) into DIR (default .): a skill tree of spec 000\n"+
			"(_root.md, categories, keywords, inheritance), or Agent Skills folders (SKILL.md, scripts/, references/).", stderr)
	format := fset.String("format", formatTree, "the starter's format: tree (spec 000's Markdown tree) or agent-skills (SKILL.md folders)")
	pos, err := parseInterspersed(fset, args)
	if err != nil {
		return flagError(err)
	}
	starter, ok := starters[*format]
	if !ok {
		return usagef("init: --format %q: want tree or agent-skills", *format)
	}
	if len(pos) > 1 {
		return usagef("init: takes at most one DIR")
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	ref, err := configReference()
	if err != nil {
		return err
	}
	files := map[string]string{"config.yaml": ref}
	for k, v := range starter {
		files[k] = v
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return usagef("init: %s already exists; choose an empty directory", filepath.Join(dir, name))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		mode := os.FileMode(0o644)
		if filepath.Ext(name) == ".sh" {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(files[name]), mode); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fmt.Fprintln(stdout, "wrote "+p)
	}
	fmt.Fprintf(stdout, "\nNext: skills-mcp validate %s && SKILLS_DIR=%s skills-mcp search code review\n",
		dir, filepath.Join(dir, "skills"))
	return nil
}

// agentStarterFiles is the Agent Skills starter (`init --format
// agent-skills`): one folder per skill, a server script declared in its
// SKILL.md, a reference file its body names. `validate` must pass on it.
var agentStarterFiles = map[string]string{
	"skills/code-review/SKILL.md": `---
name: code-review
description: Prepare a change for code review - size check, pull request description. Use when opening or updating a pull request.
license: MIT
scripts:
  - file: scripts/check-size.sh
    description: Fails when a change is larger than the limit
    execution: server
    args:
      - name: changed_lines
        description: Number of changed lines
      - name: limit
        description: Maximum changed lines (default 400)
        required: false
---
# Code review

1. Keep the change under 400 lines: run ` + "`scripts/check-size.sh`" + ` (run_script, with ` + "`changed_lines`" + `).
2. Write the pull request description from [the template](references/pr-template.md).
`,
	"skills/code-review/references/pr-template.md": `## What and why

## How it was tested
`,
	"skills/code-review/scripts/check-size.sh": starterFiles["skills/guides/code-review/scripts/check-size.sh"],
	"skills/commit-messages/SKILL.md": `---
name: commit-messages
description: Write clear commit messages. Use when committing or titling a pull request.
---
# Commit messages

- The subject says what changes, in the imperative, under 72 characters.
- The body says why.
`,
}
