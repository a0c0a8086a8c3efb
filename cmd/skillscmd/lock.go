package skillscmd

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/lockfile"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
	"github.com/skills-mcp/skills-mcp/internal/validate"
)

// envLock is SKILLS_LOCK, serve --frozen's variable.
const envLock = "SKILLS_LOCK"

// lockCmd writes skills.lock for a content tree: every skill skills/list
// serves, with its path, URI and the digests of its files.
func lockCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv, log := a.getenv, a.log
	fs := newFlagSet("lock", "lock [--out FILE]",
		"Write the lock file of the skills a source serves: each skill's path, its skill:// URI and the\n"+
			"SEP-2640 digests of its files, as skills/list publishes them. serve --frozen FILE then serves only\n"+
			"the skills that match it, and validate --lock FILE checks a tree against it.", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	out := fs.String("out", "skills.lock", "where to write the lock file (- for stdout)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) > 0 {
		return usagef("lock: unexpected argument %q (the source is --skills-dir or --repo)", pos[0])
	}
	c, err := openContent(ctx, a, src)
	if err != nil {
		return err
	}
	l := lockfile.New(skillsext.Manifests(c.snap, log))
	data := l.Encode()
	if *out == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := writeFileAtomic(*out, data); err != nil {
		return fmt.Errorf("lock: writing %s: %w", *out, err)
	}
	fmt.Fprintf(stderr, "lock: wrote %s (%s) to %s\n", plural(len(l.Skills), "skill"), lockfile.Digest(data), *out)
	return nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, so a reader sees the old lock or the new one.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// frozen is a lock file read at start: the lock and the digest of its bytes.
type frozen struct {
	path   string
	lock   *lockfile.Lock
	digest string
}

// readLock reads and parses the lock file at path; any problem is a usage
// error naming the file.
func readLock(path, from string) (*frozen, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%s: reading the lock file: %w", from, err)
	}
	l, err := lockfile.Parse(data)
	if err != nil {
		return nil, usagef("%s: lock file %s: %w", from, path, err)
	}
	return &frozen{path: path, lock: l, digest: lockfile.Digest(data)}, nil
}

// check compares the skills of sn with the lock: refused maps each skill
// that may not be served to why, missing lists the locked URIs sn lacks. A
// skill is served only when its skills/list entry matches the lock (every
// file's digest and size, no file more or less); a skill the extension does
// not serve (its URI taken by another) has nothing to match and is refused
// too. The digests are computed once per call.
func (f *frozen) check(sn *index.Snapshot, log hclog.Logger) (refused map[string]string, missing []string) {
	entries := skillsext.Manifests(sn, log)
	refused, missing = f.lock.Check(entries)
	inView := make(map[string]bool, len(entries))
	for _, e := range entries {
		inView[e.Path] = true
	}
	for _, s := range sn.Skills() {
		if !inView[s.Path] {
			refused[s.Path] = "not served over the skills extension (its skill:// URI is taken), so the lock file cannot vouch for it"
		}
	}
	return refused, missing
}

// admit is the index's Options.Admit for serve --frozen: the skills check
// refuses are left out; locked skills the tree lacks are logged.
func (f *frozen) admit(log hclog.Logger) func(*index.Snapshot) map[string]string {
	return func(sn *index.Snapshot) map[string]string {
		refused, missing := f.check(sn, log)
		if len(missing) > 0 {
			log.Warn("locked skills missing from the tree", "lock", f.path, "skills", strings.Join(missing, ", "))
		}
		return refused
	}
}

// admitFunc is admit, nil without a lock file.
func (f *frozen) admitFunc(log hclog.Logger) func(*index.Snapshot) map[string]string {
	if f == nil {
		return nil
	}
	return f.admit(log)
}

// lockFindings are validate --lock's findings over the snapshot validate
// built (validateTrees): one error per skill that does not match the lock,
// and per locked skill the tree lacks.
func lockFindings(snap *index.Snapshot, f *frozen) []validate.Finding {
	refused, missing := f.check(snap, nil)
	var out []validate.Finding
	for _, p := range slices.Sorted(maps.Keys(refused)) {
		out = append(out, validate.Finding{File: f.path, Line: 1, Severity: "error", Message: fmt.Sprintf("skill %s does not match the lock: %s", p, refused[p])})
	}
	for _, uri := range missing {
		out = append(out, validate.Finding{File: f.path, Line: 1, Severity: "error", Message: "locked skill " + uri + " is not in the tree"})
	}
	return out
}
