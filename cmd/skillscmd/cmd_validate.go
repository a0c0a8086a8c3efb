package skillscmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/layout"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
	"github.com/skills-mcp/skills-mcp/internal/validate"
)

// errProblems makes validate exit 1 when it found errors.
var errProblems = fmt.Errorf("validation found errors")

// validateCmd checks a content repo as its CI would.
func validateCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv := a.getenv
	fs := newFlagSet("validate", "validate [DIR...]",
		"Check a content repository (DIR holding skills/ and config.yaml) or a skills directory (default . or $SKILLS_DIR)\n"+
			"the way its CI should: one `path:line: severity: message` line per problem. Several DIRs (or a\n"+
			"'"+string(filepath.ListSeparator)+"'-separated $SKILLS_DIR) are checked together, as serve serves them: collisions\n"+
			"between them are reported too.\n"+
			"Exit 0 without errors (warnings allowed), 1 on errors, 2 when a DIR is not a skills root.", stderr)
	asJSON := fs.Bool("json", false, `print {"findings": [{"file", "line", "severity", "message"}...], "errors", "warnings"}`)
	lockPath := fs.String("lock", "", "also check the tree against this lock file (skills-mcp lock): an error per skill that does not match it")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	list, fromEnv, discovered := strings.Join(pos, string(filepath.ListSeparator)), false, false
	if len(pos) == 0 {
		list = "."
		if env := getenv("SKILLS_DIR"); env != "" {
			list, fromEnv = env, true
		} else if found := projectSkillsDirs(); len(found) > 0 {
			list, discovered = strings.Join(found, string(filepath.ListSeparator)), true
			fmt.Fprintf(stderr, "validate: checking %s, where serve looks without SKILLS_DIR (name a DIR to check another)\n", strings.Join(found, ", "))
		}
	}
	specs, err := parseSkillsDirs(list, getenv("HOME"))
	if err != nil {
		return usagef("validate: %w", err)
	}
	if len(specs) == 0 {
		return usagef("validate: SKILLS_DIR is set but names no directory")
	}
	findings := []validate.Finding{} // never null in --json
	var roots []validateTarget
	for _, spec := range specs {
		dir := spec.given
		target, err := findValidateTarget(dir)
		if err != nil {
			return err
		}
		if target.repoRoot != "" && !fromEnv {
			fmt.Fprintf(stderr, "validate: checking %s, the skills folder of the repository %s, which serve serves (as git mode does)\n",
				filepath.Join(dir, "skills"), dir)
		}
		if target.skillsDir, err = filepath.Abs(target.skillsDir); err != nil {
			return usagef("validate: %w", err)
		}
		if target.configDir, err = filepath.Abs(target.configDir); err != nil {
			return usagef("validate: %w", err)
		}
		target.prefix = spec.name
		if discovered {
			target.displayDir, _ = os.Getwd() // named as the user sees them: skills/pdf/SKILL.md
		}
		roots = append(roots, target)
	}
	var lock *frozen
	if *lockPath != "" {
		if lock, err = readLock(*lockPath, "validate --lock"); err != nil {
			return err
		}
	}
	found, snap := validateTrees(ctx, roots, a.cmd.hasRunner)
	findings = append(findings, found...)
	if lock != nil && snap != nil { // without a snapshot, validateTrees reported why
		findings = append(findings, lockFindings(snap, lock)...)
	}
	errs, warnings := 0, 0
	for _, f := range findings {
		switch f.Severity {
		case "error":
			errs++
		case "warning":
			warnings++
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, struct {
			Findings []validate.Finding `json:"findings"`
			Errors   int                `json:"errors"`
			Warnings int                `json:"warnings"`
		}{findings, errs, warnings}); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			fmt.Fprintln(stdout, f)
		}
		fmt.Fprintf(stdout, "%s, %s\n", plural(errs, "error"), plural(warnings, "warning"))
	}
	if errs > 0 {
		return errProblems
	}
	return nil
}

// validateTrees checks the skills directories of targets together, in order,
// as serve serves them (the earlier wins a path; a name owned in two of them
// is a collision), against the config.yaml of the first, as serve loads it.
// With one target, files are named relative to its config directory; with
// several, relative to the working directory when under it, else absolute.
// It returns the snapshot it checked too (nil when the index failed), for
// the checks that follow (validate --lock).
func validateTrees(ctx context.Context, targets []validateTarget, hasRunner func(ext string) bool) ([]validate.Finding, *index.Snapshot) {
	var out []validate.Finding
	base := cmp.Or(targets[0].displayDir, targets[0].configDir)
	if len(targets) > 1 {
		base, _ = os.Getwd()
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(base, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(r)
		}
		return p
	}
	cfg, configFindings := validateConfig(targets[0].configDir)
	out = append(out, configFindings...)
	roots := make([]index.Root, len(targets))
	for i, t := range targets {
		roots[i] = index.Root{Dir: t.skillsDir, Source: "SKILLS_DIR", Prefix: t.prefix}
	}
	idx := index.New(index.Options{Roots: roots, Matcher: nil, Logger: hclog.NewNullLogger()})
	snap, err := idx.Rebuild(ctx)
	if err != nil {
		return append(out, validate.Finding{File: rel(targets[0].skillsDir), Line: 1, Severity: "error", Message: err.Error()}), nil
	}
	out = append(out, validate.Tree(snap, rel, func(ext string) bool {
		_, ok := cfg.Scripts.Runners[ext]
		return ok || hasRunner(ext)
	})...)
	out = append(out, uriCollisions(snap, rel)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, snap
}

// projectSkillsDirs are the skills directories serve finds in the working
// directory when neither SKILLS_DIR nor SKILLS_REPO is set (./.agents/skills,
// ./.claude/skills, ./skills, …: the standard locations of the project, not
// the user's), relative to it; none when the working directory is itself a
// content repository's root, which validate checks as one (its skills/ and
// config.yaml).
func projectSkillsDirs() []string {
	cwd, err := os.Getwd()
	if err != nil || layout.IsContentRepo(cwd) {
		return nil
	}
	var out []string
	for _, r := range index.DefaultRoots(cwd, "") {
		if rel, err := filepath.Rel(cwd, r.Dir); err == nil {
			out = append(out, rel)
		}
	}
	return out
}

// uriCollisions names each skill the skills extension leaves out because
// another skill holds its skill:// URI, with that skill: serve sums them up
// in one warning.
func uriCollisions(snap *index.Snapshot, rel func(string) string) []validate.Finding {
	var out []validate.Finding
	for _, c := range skillsext.Collisions(snap) {
		out = append(out, validate.Finding{File: rel(c.Skill.AbsPath), Line: 1, Severity: "warning",
			Message: fmt.Sprintf("not served as a skill:// resource: %s holds its URI %s (%s); rename one of the folders (or the name in its frontmatter)",
				c.Holder.Path, c.URI, rel(c.Holder.AbsPath))})
	}
	return out
}

// validateConfig loads dir/config.yaml as serve would (without the
// environment) and returns the configuration to check the skills against (the
// defaults when it is invalid) and one validate.Finding per problem, at its line.
func validateConfig(dir string) (config.Config, []validate.Finding) {
	var out []validate.Finding
	add := func(severity string, p config.Problem) {
		msg := p.Message
		if p.Key != "" {
			msg = p.Key + ": " + msg
		}
		out = append(out, validate.Finding{File: config.FileName, Line: max(p.Line, 1), Severity: severity, Message: msg})
	}
	loaded, err := config.Load(dir, func(string) string { return "" })
	var invalid *config.Error
	switch {
	case errors.As(err, &invalid):
		for _, p := range invalid.Problems {
			add("error", p)
		}
		for _, p := range invalid.Warnings { // every problem at once, not the warnings after the errors are fixed
			add("warning", p)
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
		return config.Default(), out
	case err != nil:
		out = append(out, validate.Finding{File: config.FileName, Line: 1, Severity: "error", Message: err.Error()})
		return config.Default(), out
	}
	for _, p := range loaded.Problems {
		add("warning", p)
	}
	return loaded.Config, out
}
