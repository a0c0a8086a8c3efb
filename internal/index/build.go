package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// builder runs one rebuild: it scans the roots in order, logs what it skips and
// records every problem for the snapshot. While a root is scanned, each file
// is parsed by a builder of its own whose problems and log lines are then
// taken over in file order.
type builder struct {
	logger   hclog.Logger
	workers  int // files scanned at once; below 1 means 1
	problems []rankedProblem
	listings map[*core.Skill]folderListing
	files    map[*core.Skill]*skillFiles // the directory of each skill: walked (Agent Skills folders) or to walk later
	// rank and root are the position and absolute directory of the root being scanned.
	rank int
	root string
	// maxFile bounds a skill file; a larger one is skipped (errTooLarge).
	maxFile int64
	// ctx, when set, is the rebuild's: once it ends, the walk and the scan stop.
	ctx context.Context
	// onDir, when not nil, is called with each directory before it is read
	// (Index.WatchDirs).
	onDir func(string)
	// declared are the tree skills whose declared files are checked on disk
	// with the snapshot's problems (lateListing.declared).
	declared []*core.Skill
	// prev is the snapshot served while this one is built (nil for none): an
	// unchanged skill takes its strings (sharePrevious).
	prev *Snapshot
	// exclude are skill paths left out of the snapshot (Options.Admit).
	exclude map[string]string
	// sources labels each root directory (Root.Source), for the start-up log;
	// prefixes gives each its Root.Prefix.
	sources, prefixes map[string]string
}

// cancelled reports whether the rebuild's context has ended.
func (b *builder) cancelled() bool { return b.ctx != nil && b.ctx.Err() != nil }

// problem records a problem of file (relative to the current root) without
// logging it: noteLine without a kind or a log line.
func (b *builder) problem(file string, line int, severity, message string) {
	b.noteLine("", file, line, severity, message, "")
}

// warn records a problem that the start-up log reports (logReport) as one
// warning line naming the file.
func (b *builder) warn(file string, line int, severity, message string) {
	b.note(kindOther, file, line, severity, message)
}

// skip records an error problem, `skipping FILE: REASON` in the start-up log.
func (b *builder) skip(file string, line int, reason error) {
	b.noteLine(kindSkipped, file, line, SeverityError, "skipped: "+reason.Error(), fmt.Sprintf("skipping %s: %v", file, reason))
}

// scanned is what scanning one discovered file gave: the skill (nil when the
// file was skipped), the files of its directory (an Agent Skills folder's
// walk, or a tree skill's resource directory to walk later) and an Agent
// Skills folder's listing, and the problems and log lines, to be taken over in
// file order.
type scanned struct {
	skill    *core.Skill
	files    *skillFiles
	listing  *folderListing // an Agent Skills folder's listing
	declared bool           // a tree skill whose declared files are checked with the problems (lateListing.declared)
	problems []rankedProblem
	logs     []logLine
}

// scanRoot discovers and parses every skill under root (spec 000 §4.1–§4.5,
// §7.1, and the Agent Skills folders). Invalid or unreadable files are skipped
// with one warning each; an Agent Skill that breaks a rule of its format is
// kept and reported. The walk hands each file to b.workers workers as it finds
// it, which read and parse it and walk an Agent Skills folder (a tree skill's
// resource directory is walked once the snapshot is current); the results are
// then taken in the order of discover (by path), so the skills, problems and
// log lines are those of a scan one file after the other.
func (b *builder) scanRoot(root Root) ([]*core.Skill, error) {
	type job struct {
		f   discovered
		out scanned
	}
	jobs := make(chan discovered, 256)
	done := make([][]*job, max(b.workers, 1)) // pointers: a job is large, and these slices grow by doubling
	var wg sync.WaitGroup
	for w := range done {
		wg.Go(func() {
			var buf []byte // this worker's read buffer: nothing parsed keeps a reference to it
			for f := range jobs {
				if b.cancelled() {
					continue // drain: the walk stops at its next directory
				}
				var out scanned
				out, buf = b.scanFile(root, f, buf)
				done[w] = append(done[w], &job{f: f, out: out})
			}
		})
	}
	err := b.discoverEach(root.Dir, func(f discovered) { jobs <- f })
	close(jobs)
	wg.Wait()
	if b.cancelled() {
		return nil, context.Cause(b.ctx)
	}
	if err != nil {
		return nil, err
	}
	n := 0
	for _, d := range done {
		n += len(d)
	}
	results := make([]*job, 0, n)
	for _, d := range done {
		results = append(results, d...)
	}
	sort.Slice(results, func(i, j int) bool { return results[i].f.Rel < results[j].f.Rel })
	notSkills(results, func(j *job) *scanned { return &j.out })
	skills := make([]*core.Skill, 0, len(results))
	for i := range results {
		r := &results[i].out
		for _, l := range r.logs {
			b.logger.Log(l.level, l.msg, l.args...)
		}
		b.problems = append(b.problems, r.problems...)
		if r.skill == nil {
			continue
		}
		if r.files != nil {
			b.files[r.skill] = r.files
		}
		if r.listing != nil {
			b.listings[r.skill] = *r.listing
		}
		if r.declared {
			b.declared = append(b.declared, r.skill)
		}
		skills = append(skills, r.skill)
		results[i] = nil
	}
	return skills, nil
}

// errNotRegular is why a skill file replaced since discovery by anything but a
// regular file is skipped.
var errNotRegular = errors.New("not a regular file")

// tooLargeError is why a skill file over the size limit is skipped: it is
// never read, so an oversized file costs the server nothing but a stat.
type tooLargeError struct{ size, limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, over the limit of %d for a skill file (index.max_skill_file_bytes)", e.size, e.limit)
}

// scanFile reads and parses one discovered file of root and walks the folder
// of an Agent Skill, recording problems and log lines on a builder of its own.
// The file is read into buf, which it returns (grown) for the next file: the
// skill keeps copies of what it needs, never the bytes read.
func (b *builder) scanFile(root Root, f discovered, buf []byte) (out scanned, _ []byte) {
	rec := &recordingLogger{Logger: hclog.NewNullLogger()}
	fb := &builder{logger: rec, rank: b.rank, root: b.root, maxFile: b.maxFile, onDir: b.onDir}
	defer func() { out.problems, out.logs = fb.problems, rec.lines }()
	data, err := readFileInto(f.Abs, buf, b.maxFile)
	if data != nil {
		buf = data
	}
	if err != nil {
		fb.skip(f.Rel, 1, err)
		return out, buf
	}
	var s *core.Skill
	if f.AgentDir != "" {
		s = fb.parseAgentFile(f, data)
	} else {
		s = fb.parseTreeFile(f, data)
	}
	if s == nil {
		return out, buf
	}
	s.AbsPath, s.Root, s.Source = f.Abs, root.Dir, root.Source
	s.Path = prefixed(root.Prefix, s.Path)
	var walked *dirListing
	switch {
	case s.Format == core.FormatAgentSkill:
		dir := listRealDir(f.RealDir, f.entries, f.sub, b.onDir)
		listing := folderListingOf(s.ResourceDir, dir)
		for _, u := range dir.unportable {
			fb.note(kindOther, f.AgentDir+"/"+u.path, 1, SeverityWarning, u.message())
		}
		dir.sortFiles()
		walked, out.listing = &dir, &listing
		out.files = &skillFiles{dir: dir.realDir, files: dir.files}
	case s.ResourceDir != "":
		out.files = &skillFiles{pending: f.RealDir} // walked when asked for (Snapshot.listed)
		out.declared = len(s.Assets)+len(s.Scripts) > 0
	}
	fb.resolveResources(s, data, walked)
	if out.listing != nil {
		*out.listing = out.listing.withDeclared(s)
	}
	sharePaths(s)
	sharePrevious(b.prev, s)
	out.skill = s
	return out, buf
}

// sharePaths points a skill's path strings into one allocation: its file path,
// resource directory, skill path and name are parts of its absolute path, so
// they need not hold bytes of their own (0.5 MiB of the 13.7 MiB of a
// 10,000-skill index). Each is replaced only by bytes equal to it.
func sharePaths(s *core.Skill) {
	abs := s.AbsPath
	if strings.HasSuffix(abs, s.FilePath) {
		s.FilePath = abs[len(abs)-len(s.FilePath):]
	}
	if strings.HasPrefix(abs, s.ResourceDir) {
		s.ResourceDir = abs[:len(s.ResourceDir)]
	}
	if strings.HasPrefix(s.FilePath, s.Path) {
		s.Path = s.FilePath[:len(s.Path)]
	}
	if strings.HasSuffix(s.Path, s.Name) {
		s.Name = s.Path[len(s.Path)-len(s.Name):]
	}
}

// parseTreeFile parses a spec-000 file, or skips it; unknown frontmatter keys
// are recorded.
func (b *builder) parseTreeFile(f discovered, data []byte) *core.Skill {
	s, unknown, err := parseSkill(f.Rel, data, b.logger)
	if err != nil {
		b.skip(f.Rel, errorLine(data, err), err)
		p := &b.problems[len(b.problems)-1]
		if !declaresKeywords.Match(data) {
			p.kind = kindTreeInvalid // Markdown that is not a skill, or a skill with a mistake: notSkills decides
		}
		if errors.Is(err, frontmatter.ErrNoFrontmatter) { // a README, a changelog: Markdown, not a skill
			p.kind, p.logLine, p.Severity = kindNotSkill, "", SeverityWarning
			p.Message = "not a skill: no frontmatter block"
		}
		return nil
	}
	s.ResourceDir = f.ResourceDir
	for _, key := range unknown {
		b.problem(f.Rel, keyLine(data, key), SeverityWarning, fmt.Sprintf("unknown frontmatter key %q", key))
	}
	return s
}

// parseAgentFile parses the SKILL.md of an Agent Skills folder, or skips it;
// the rules it breaks are logged on one line and recorded one by one.
func (b *builder) parseAgentFile(f discovered, data []byte) *core.Skill {
	s, breaks, err := parseAgentSkill(f.AgentDir, f.Rel, data, b.logger)
	if err != nil {
		b.skip(f.Rel, errorLine(data, err), err)
		return nil
	}
	s.ResourceDir = filepath.Dir(f.Abs)
	if len(breaks) > 0 {
		msgs := make([]string, len(breaks))
		for i, br := range breaks {
			msgs[i] = br.message
		}
		line := fmt.Sprintf("%s: served although it breaks Agent Skills rules: %s", f.Rel, strings.Join(msgs, "; "))
		for _, br := range breaks {
			severity := SeverityWarning
			if br.severe {
				severity = SeverityError
			}
			b.noteLine(kindRuleBreak, f.Rel, keyLine(data, br.key), severity, br.message, line)
			line = ""
		}
	}
	return s
}

// knownKeys are the frontmatter keys of both formats; any other key of a tree
// file is reported.
var knownKeys = map[string]bool{
	"description": true, "keywords": true, "priority": true, "inherit": true,
	"assets": true, "scripts": true, "name": true, "license": true,
	"compatibility": true, "metadata": true, "allowed-tools": true,
}

// declaresKeywords finds a top-level `keywords:` line: a file holding one is
// meant as a tree skill (the key is the spec-000 format's own), so a mistake
// in it is an error wherever it lies.
var declaresKeywords = regexp.MustCompile(`(?m)^keywords[ \t]*:`)

// yamlLine finds the line number the YAML decoder (yaml.v3) puts in its errors.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// errorLine is the best-known line of the reason a file was skipped: the key a
// validation error is about, the YAML error's line (shifted past the opening
// delimiter), else 1.
func errorLine(data []byte, err error) int {
	switch {
	case errors.Is(err, errName):
		return keyLine(data, "name")
	case errors.Is(err, errDescription):
		return keyLine(data, "description")
	case errors.Is(err, errKeywords):
		return keyLine(data, "keywords")
	}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil && n > 0 {
			return n + 1
		}
	}
	return 1
}

// buildSnapshot indexes every root, in order (an earlier root takes precedence),
// resolves the parents of the tree skills (spec 000 §4.4), and builds the
// searcher. A root that does not exist is skipped, unless it is Required; one
// that cannot be read is a warning, unless it is Required. It fails when a
// required root fails, or when every root that exists fails. A skill file over
// maxFile bytes is skipped. onDir, when not nil, is called with each directory
// before it is read, the later walks of the snapshot's resource
// directories included.
func buildSnapshot(ctx context.Context, roots []Root, matcher core.Matcher, logger hclog.Logger, maxFile int64, onDir func(string), prev *Snapshot, exclude map[string]string) (*Snapshot, error) {
	return buildSnapshotWith(ctx, roots, matcher, logger, runtime.GOMAXPROCS(0), maxFile, onDir, prev, exclude)
}

// buildSnapshotWith is buildSnapshot scanning each root with that many workers.
func buildSnapshotWith(ctx context.Context, roots []Root, matcher core.Matcher, logger hclog.Logger, workers int, maxFile int64, onDir func(string), prev *Snapshot, exclude map[string]string) (*Snapshot, error) {
	b := &builder{
		ctx: ctx, logger: logger, workers: workers, maxFile: maxFile, onDir: onDir, prev: prev, exclude: exclude,
		listings: map[*core.Skill]folderListing{}, files: map[*core.Skill]*skillFiles{},
	}
	b.sources, b.prefixes = make(map[string]string, len(roots)), make(map[string]string, len(roots))
	for _, r := range roots {
		b.sources[r.Dir], b.prefixes[r.Dir] = r.Source, r.Prefix
	}
	m := newMerger(b)
	existing, failed := 0, 0
	var errs []error
	for i, root := range roots {
		b.rank, b.root = i, root.Dir
		if _, err := os.Stat(root.Dir); errors.Is(err, fs.ErrNotExist) && !root.Required {
			logger.Debug("skills directory does not exist, skipping it", "dir", root.Dir, "source", root.Source)
			continue
		}
		existing++
		skills, err := b.scanRoot(root)
		if b.cancelled() {
			return nil, fmt.Errorf("indexing %s: %w", root.Dir, context.Cause(ctx))
		}
		if err != nil {
			if root.Required {
				return nil, err
			}
			failed++
			errs = append(errs, err)
			b.noteLine(kindSkipped, ".", 1, SeverityError, "skipped: "+err.Error(),
				fmt.Sprintf("skipping skills directory %s (%s): %v", root.Dir, root.Source, err))
			continue
		}
		if len(b.exclude) > 0 {
			skills = slices.DeleteFunc(skills, func(s *core.Skill) bool { _, out := b.exclude[s.Path]; return out })
		}
		m.addRoot(skills)
	}
	names := m.names()
	b.logReport(b.problems, rootList(roots))
	if existing > 0 && failed == existing {
		return nil, errors.Join(errs...)
	}
	for _, s := range m.byPath {
		if s.Format != core.FormatAgentSkill {
			s.Parent = resolveParent(s.Path, m.byPath)
		}
	}
	return newSnapshot(snapshotParts{
		byPath:   m.byPath,
		names:    names,
		listings: served(m.byPath, b.listings),
		files:    served(m.byPath, b.files),
		late:     &lateListing{problems: b.problems, rank: rootRanks(roots), onDir: onDir, declared: b.declared},
		logger:   logger,
		maxFile:  maxFile,
	}, matcher), nil
}

// snapshotParts is what a rebuild hands to newSnapshot.
type snapshotParts struct {
	byPath   map[string]*core.Skill // parents resolved
	names    nameTable
	listings map[*core.Skill]folderListing
	files    map[*core.Skill]*skillFiles // the files of each skill's directory, hashed on request
	problems []Problem                   // final, when late is nil
	late     *lateListing                // what is left to do once the snapshot is current
	logger   hclog.Logger
	maxFile  int64 // bound of a skill file read for its body; 0 means DefaultMaxFileBytes
}

// newSnapshot freezes a rebuild's skills into a Snapshot and builds its
// searcher, in a goroutine of its own while the rest is assembled.
func newSnapshot(p snapshotParts, matcher core.Matcher) *Snapshot {
	sorted := make([]*core.Skill, 0, len(p.byPath))
	for _, s := range p.byPath {
		sorted = append(sorted, s)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	entries := make([]core.MatchEntry, 0, len(sorted))
	for _, s := range sorted {
		entries = append(entries, core.MatchEntry{
			Path:        s.Path,
			Keywords:    append([]string(nil), s.Keywords...),
			Priority:    s.Priority,
			Name:        s.Name,
			Description: s.Description,
			Headings:    s.Headings,
		})
	}
	var searcher core.Searcher = emptySearcher{}
	var built sync.WaitGroup
	if matcher != nil {
		built.Go(func() { // meanwhile, the rest of the snapshot
			if b := matcher.Build(entries); b != nil {
				searcher = b
			}
		})
	}
	children := map[string][]*core.Skill{}
	for _, s := range sorted {
		children[s.Parent] = append(children[s.Parent], s)
	}
	if p.names.resolved == nil {
		p.names.resolved = map[string]*core.Skill{}
	}
	if p.logger == nil {
		p.logger = hclog.NewNullLogger()
	}
	if p.maxFile <= 0 {
		p.maxFile = DefaultMaxFileBytes
	}
	nameList := sortedNames(p.names.resolved)
	built.Wait()
	for _, s := range sorted {
		// the headings were for the searcher, which has what it needs of them:
		// at 10,000 skills they were 2 MB of a snapshot's 15.5 MB of live heap
		s.Headings = nil
	}
	return &Snapshot{
		byPath:    p.byPath,
		sorted:    sorted,
		children:  children,
		searcher:  searcher,
		names:     p.names.resolved,
		ambiguous: p.names.ambiguous,
		nameList:  nameList,
		listings:  p.listings,
		manifests: p.files,
		problems:  p.problems,
		late:      p.late,
		logger:    p.logger,
		maxFile:   p.maxFile,
		roots:     confinedRoots(sorted),
	}
}

// emptySearcher matches nothing: the searcher of an empty index or of an index
// built without a matcher.
type emptySearcher struct{}

// Search implements core.Searcher.
func (emptySearcher) Search(string) []core.Match { return nil }
