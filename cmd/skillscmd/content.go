package skillscmd

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/layout"
)

// sourceFlags are the flags every command that reads skills accepts.
type sourceFlags struct {
	skillsDir string
	repo      string
	// gitWait, set by serve, is how long the first git sync may hold the
	// start before it goes on in the background; zero waits for it.
	gitWait time.Duration
	// verify holds SKILLS_VERIFY and SKILLS_ALLOWED_SIGNERS (or their flags).
	verify verifyFlags
	// frozen, set by serve --frozen, is the lock file skills must match.
	frozen *frozen
}

func (s *sourceFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	s.skillsDir = getenv("SKILLS_DIR")
	fs.Var(&dirList{value: &s.skillsDir}, "skills-dir",
		"skills directories, separated by '"+string(os.PathListSeparator)+"' or given by repeating the flag, earlier wins (default $SKILLS_DIR)")
	fs.StringVar(&s.repo, "repo", getenv("SKILLS_REPO"), "git URL of a content repository (default $SKILLS_REPO)")
	s.verify.register(fs, getenv)
}

// dirList is the value of --skills-dir: the first use replaces $SKILLS_DIR,
// every further use adds its directories after the earlier ones, so
// `--skills-dir A --skills-dir B` serves what `--skills-dir A:B` does.
type dirList struct {
	value *string
	set   bool
}

func (d *dirList) String() string {
	if d == nil || d.value == nil {
		return ""
	}
	return *d.value
}

func (d *dirList) Set(v string) error {
	if !d.set || *d.value == "" {
		*d.value, d.set = v, true
		return nil
	}
	*d.value += string(os.PathListSeparator) + v
	return nil
}

// content is a loaded skills source: its roots, its configuration and its index.
type content struct {
	roots  []index.Root
	git    *gitSource
	loaded config.Loaded
	idx    *index.Index
	snap   *index.Snapshot
}

// openContent resolves the sources (spec 000 §3.1 and the several-roots rules),
// loads config.yaml from the content root, and builds the index.
func openContent(ctx context.Context, a *app, src sourceFlags) (*content, error) {
	c, err := openSources(ctx, a, src)
	if err != nil {
		return nil, err
	}
	if c.snap, err = c.idx.Rebuild(ctx); err != nil {
		return nil, indexError(c.roots, err)
	}
	return c, nil
}

// indexError is the error of a failed first build of the index of roots.
func indexError(roots []index.Root, err error) error {
	return fmt.Errorf("indexing %s: %w", rootList(roots), err)
}

// openSources is openContent without building the index: c.idx is empty and
// c.snap nil.
func openSources(ctx context.Context, a *app, src sourceFlags) (*content, error) {
	getenv, log := a.getenv, a.log
	c := &content{}
	var configDir string
	var discovered bool // config.yaml of a standard location: not chosen by the operator
	if err := src.verify.check(src.repo != "" && src.skillsDir == ""); err != nil {
		return nil, err
	}
	switch {
	case src.skillsDir != "":
		specs, err := parseSkillsDirs(src.skillsDir, getenv("HOME"))
		if err != nil {
			return nil, err
		}
		for _, d := range specs {
			abs := d.dir
			if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
				return nil, usagef("skills directory %s does not exist or is not a directory (from --skills-dir or SKILLS_DIR)", abs)
			}
			if layout.IsContentRepo(abs) {
				log.Info(layout.RepoNote("SKILLS_DIR", abs))
				abs = filepath.Join(abs, "skills")
			}
			c.roots = append(c.roots, index.Root{Dir: abs, Source: index.SourceSkillsDir, Required: true, Prefix: d.name})
		}
		if len(c.roots) == 0 {
			return nil, usagef("SKILLS_DIR is set but names no directory")
		}
		configDir = layout.ConfigDir(c.roots[0].Dir)
	case src.repo != "":
		stateDir, err := stateDirectory(getenv)
		if err != nil {
			return nil, err
		}
		if c.git, err = openGit(ctx, src.repo, src.verify.env(getenv), stateDir, src.gitWait, log.Named("git"), a.procs); err != nil {
			return nil, err
		}
		c.roots = []index.Root{{Dir: c.git.skillsDir(), Source: "SKILLS_REPO"}}
		configDir = layout.ConfigDir(c.git.skillsDir()) // skills/config.yaml (spec 000 §3.1), else the clone root
	default:
		cwd, _ := os.Getwd()
		home := getenv("HOME")
		c.roots = index.DefaultRoots(cwd, home)
		if len(c.roots) == 0 {
			var looked []string
			for _, r := range index.CandidateRoots(cwd, home) {
				looked = append(looked, r.Dir)
			}
			return nil, usagef("no skills source: set SKILLS_DIR (or --skills-dir) to a skills directory, or SKILLS_REPO to a git content repository; "+
				"no standard location exists either (looked in %s)", strings.Join(looked, ", "))
		}
		configDir, discovered = layout.ConfigDir(c.roots[0].Dir), true
	}
	// A discovered config.yaml may come from the project being worked on: it
	// cannot turn on analytics or runners (issue 26, item 5). The operator's
	// settings file lies outside everything the content's authors write.
	contentDirs := append(rootDirs(c.roots), configDir)
	if c.git != nil {
		contentDirs = append(contentDirs, c.git.dir)
	}
	loaded, err := config.LoadWith(configDir, getenv, config.LoadOptions{Discovered: discovered,
		OperatorFile: getenv(config.EnvOperatorFile), Content: contentDirs, Sections: a.cmd.sections()})
	if err != nil {
		return nil, usagef("invalid configuration: %w", err)
	}
	for _, w := range loaded.Warnings {
		log.Warn(w)
	}
	if c.git != nil {
		c.git.syncer.SetTimeout(time.Duration(loaded.Config.Refresh.GitTimeoutSeconds) * time.Second)
	}
	c.loaded = loaded
	matcher, err := buildMatcher(a, &c.loaded)
	if err != nil {
		return nil, err
	}
	c.idx = index.New(index.Options{Roots: c.roots, Matcher: matcher, Logger: log.Named("index"),
		MaxFileBytes: loaded.Config.Index.MaxSkillFileBytes, Admit: src.frozen.admitFunc(log.Named("lock"))})
	return c, nil
}

// rootDirs returns the directories of roots, in order.
func rootDirs(roots []index.Root) []string {
	dirs := make([]string, len(roots))
	for i, r := range roots {
		dirs[i] = r.Dir
	}
	return dirs
}

func rootList(roots []index.Root) string { return strings.Join(rootDirs(roots), ", ") }

// parseInterspersed parses flags that may come after positional arguments
// (`run SKILL FILE --arg a=b`) and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, withFlagHint(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// undefinedFlag starts the flag package's error for a flag it does not know.
const undefinedFlag = "flag provided but not defined: -"

// withFlagHint adds to an unknown flag's error the flag of fs it is close to
// (`--skill-dir`: did you mean --skills-dir?).
func withFlagHint(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if near := closest(strings.TrimLeft(name, "-"), names); near != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, near)
	}
	return err
}
