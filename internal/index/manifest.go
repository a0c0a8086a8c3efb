package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
)

// Per-skill limits of the MCP skills extension (io.modelcontextprotocol/skills):
// a skill over either is still served, with a warning problem.
const (
	// ExtensionMaxFiles is the most files a skill should hold, SKILL.md included.
	ExtensionMaxFiles = 512
	// ExtensionMaxBytes is the most bytes a skill's files should add up to (16 MiB).
	ExtensionMaxBytes = 16 << 20
)

// digestPrefix starts every digest: the SHA-256 of the raw bytes in lowercase hex.
const digestPrefix = "sha256:"

// ManifestFile is one file of a skill's directory with the size and digest of
// its raw bytes, as they were read when the manifest was computed.
type ManifestFile struct {
	// Path is relative to the skill's directory, with `/` separators (`SKILL.md`,
	// `references/FORMS.md`).
	Path string
	// Size is the number of bytes hashed.
	Size int64
	// Digest is `sha256:` followed by 64 lowercase hex digits.
	Digest string
}

// skillFiles is what a rebuild recorded of one skill's directory (the files a
// walk found, with what a stat said) and the manifest computed from them the
// first time it is asked for: at most once per snapshot.
type skillFiles struct {
	pending string       // a tree skill's resource directory, walked the first time its files are asked for (Snapshot.listed)
	asked   atomic.Bool  // set when the walk of pending is first asked for, before it runs
	listed  sync.Once    // the walk of pending
	dir     string       // the directory, symlinks resolved; "" for none
	files   []ListedFile // sorted by Path
	// unportable are the files of a tree skill's resource directory left out
	// of files (reported with the problems once every directory is walked).
	unportable []unportableName

	once     sync.Once
	manifest []ManifestFile // sorted by Path
	// frontmatter is an Agent Skill's frontmatter as a JSON object with its keys
	// in file order, rendered from the bytes hashed; nil for a tree skill.
	frontmatter json.RawMessage
}

// hashBuffers holds the read buffers of hashFile, so hashing a file allocates none.
var hashBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// Digest returns the manifest digest of data: `sha256:` and the lowercase hex
// SHA-256 of the bytes.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return digestPrefix + hex.EncodeToString(sum[:])
}

// Files returns the files of s's directory, sorted by path, with the size and
// modification time a stat gave, without reading them: for an Agent Skill every
// file of its folder, SKILL.md included (listed by the rebuild); for a tree
// skill every file of its resource directory, none without one (walked the
// first time the skill's files are asked for, once per snapshot). Dot-files and
// dot-directories are left out, a symlinked file counts only when it resolves
// to a regular file inside the directory, and directory symlinks are not
// followed. The slice is the caller's.
func (sn *Snapshot) Files(s *core.Skill) []ListedFile {
	sf := sn.listed(s)
	if sf == nil {
		return nil
	}
	return append([]ListedFile(nil), sf.files...)
}

// WalkedFiles returns the files of s's directory as Files does, but only when
// they are known without a walk: always for an Agent Skill and a tree skill
// without a resource directory, and for a tree skill once its files have been
// asked for in this snapshot (a walk under way is waited for); ok is false for
// a tree skill whose resource directory nobody has asked for, which is not
// walked. The slice is the snapshot's: read it, never modify it.
func (sn *Snapshot) WalkedFiles(s *core.Skill) (files []ListedFile, ok bool) {
	sf := sn.manifests[s]
	if sf == nil {
		return nil, true
	}
	if sf.pending != "" && !sf.asked.Load() {
		return nil, false
	}
	return sn.listed(s).files, true
}

// Manifest returns the files of s's directory (those of Files) with the size
// and SHA-256 digest of their bytes, sorted by path. It is computed the first
// time it is asked for, once per snapshot: every later call, from any
// goroutine, returns the same digests, and a rebuild after an edit gives a
// snapshot that computes them again. A file that cannot be read then, or is no
// longer a regular file inside the directory, is left out. The slice is the
// caller's.
func (sn *Snapshot) Manifest(s *core.Skill) []ManifestFile {
	sf := sn.listed(s)
	if sf == nil {
		return nil
	}
	sf.compute(sn, s)
	return append([]ManifestFile(nil), sf.manifest...)
}

// FrontmatterJSON returns the frontmatter of the Agent Skill s as a JSON object
// whose keys keep the order of the file (nested mappings included), rendered
// from the same bytes as its SKILL.md digest (computing the manifest if it was
// not yet); nil for a tree skill, or when the SKILL.md could not be read again
// or holds a value JSON cannot carry.
func (sn *Snapshot) FrontmatterJSON(s *core.Skill) json.RawMessage {
	sf := sn.manifests[s]
	if sf == nil || s.Format != core.FormatAgentSkill {
		return nil
	}
	sf.compute(sn, s)
	return sf.frontmatter
}

// compute hashes the listed files of s once, and renders an Agent Skill's
// frontmatter from the bytes of its SKILL.md.
func (sf *skillFiles) compute(sn *Snapshot, s *core.Skill) {
	sf.once.Do(func() {
		logger, maxFile, root := sn.logger, sn.maxFile, sn.root(s.Root)
		agent := s.Format == core.FormatAgentSkill
		bufp := hashBuffers.Get().(*[]byte)
		defer hashBuffers.Put(bufp)
		manifest := make([]ManifestFile, 0, len(sf.files))
		renderedFrontmatter := false
		for _, f := range sf.files {
			p := filepath.Join(sf.dir, filepath.FromSlash(f.Path))
			if agent && f.Path == agentSkillFile {
				data, err := readListedFile(root, sf.dir, p, maxFile)
				if err != nil {
					logger.Debug("leaving an unreadable file out of a manifest", "file", p, "error", err)
					continue
				}
				manifest = append(manifest, ManifestFile{Path: f.Path, Size: int64(len(data)), Digest: Digest(data)})
				sf.frontmatter, renderedFrontmatter = frontmatterOrNil(data), true
				continue
			}
			size, digest, err := hashFile(root, sf.dir, p, *bufp)
			if err != nil {
				logger.Debug("leaving an unreadable file out of a manifest", "file", p, "error", err)
				continue
			}
			manifest = append(manifest, ManifestFile{Path: f.Path, Size: size, Digest: digest})
		}
		if agent && !renderedFrontmatter { // its SKILL.md lies outside the folder: read it where it was found
			if data, err := sn.root(fileRootDir(s)).ReadFile(s.AbsPath, maxFile); err == nil {
				sf.frontmatter = frontmatterOrNil(data)
			}
		}
		sf.manifest = manifest
	})
}

// frontmatterOrNil is frontmatter.ToJSON, nil when it fails.
func frontmatterOrNil(data []byte) json.RawMessage {
	out, err := frontmatter.ToJSON(data)
	if err != nil {
		return nil
	}
	return out
}

// served keeps the entries of m whose skill byPath serves: a skill shadowed
// by one of an earlier root (or by a duplicate path) is dropped with what the
// rebuild recorded for it.
func served[V any](byPath map[string]*core.Skill, m map[*core.Skill]V) map[*core.Skill]V {
	out := make(map[*core.Skill]V, len(m))
	for s, v := range m {
		if byPath[s.Path] == s {
			out[s] = v
		}
	}
	return out
}

// lateListing is what a rebuild leaves to do until it is asked for: walking
// the resource directory of each tree skill (the first time that skill's
// files are asked for: nobody may ever ask, and at 10,000 skills the walks
// of all of them cost about as much CPU as the rest of the build), and the
// problems that need those walks, computed the first time the problems are
// asked for.
type lateListing struct {
	problems []rankedProblem // the rebuild's problems, before those of the limits and the declared files
	rank     map[string]int  // root directory → its position among the roots
	onDir    func(string)    // called with each directory before it is read; nil for none
	// declared are the tree skills with a resource directory whose declared
	// files are checked on disk with the problems (checkDeclared), shadowed
	// ones included, in the order of the build.
	declared []*core.Skill

	queueOnce sync.Once
	queue     []*core.Skill // the tree skills to walk, in path order
	next      atomic.Int64  // the next index of queue to take
	walked    sync.WaitGroup
	doneOnce  sync.Once
}

// rootRanks maps each root directory to its first position among roots.
func rootRanks(roots []Root) map[string]int {
	rank := make(map[string]int, len(roots))
	for i, r := range roots {
		if _, seen := rank[r.Dir]; !seen {
			rank[r.Dir] = i
		}
	}
	return rank
}

// listed returns the files recorded of s's directory, walking a tree skill's
// resource directory the first time (once per snapshot, whichever goroutine
// asks first; the others wait for that walk); nil when s has none.
func (sn *Snapshot) listed(s *core.Skill) *skillFiles {
	sf := sn.manifests[s]
	if sf == nil || sf.pending == "" {
		return sf
	}
	sf.asked.Store(true)
	sf.listed.Do(func() {
		var onDir func(string)
		if sn.late != nil {
			onDir = sn.late.onDir
		}
		l := listRealDir(sf.pending, nil, nil, onDir)
		l.sortFiles()
		sf.dir, sf.files, sf.unportable = l.realDir, l.files, l.unportable
	})
	return sf
}

// listFiles finishes the rebuild of sn, for the problems: it walks the
// resource directories of the tree skills not yet walked (callers that ask at
// once share the walks), then, once, checks the declared files of the tree
// skills on disk and records a warning problem, logged, for each skill over
// the extension's limits, counted from the sizes of the walks (for a tree
// skill the SKILL.md the extension serves in its stead counts as one more
// file, of the size of the skill's own body), and sorts the problems.
func (sn *Snapshot) listFiles() {
	late := sn.late
	if late == nil {
		return
	}
	late.queueOnce.Do(func() {
		for _, s := range sn.sorted {
			if sf := sn.manifests[s]; sf != nil && sf.pending != "" {
				late.queue = append(late.queue, s)
			}
		}
		late.walked.Add(len(late.queue))
	})
	for i := int(late.next.Add(1) - 1); i < len(late.queue); i = int(late.next.Add(1) - 1) {
		sn.listed(late.queue[i])
		late.walked.Done()
	}
	late.walked.Wait()
	late.doneOnce.Do(func() {
		b := &builder{logger: sn.logger, problems: late.problems}
		sn.checkDeclared(b)
		sn.checkUnportable(b)
		sn.checkLimits(b)
	})
}

// checkUnportable records on b, logged, each file of a tree skill's resource
// directory left out of its listing (an Agent Skill's are recorded when its
// folder is listed, during the rebuild).
func (sn *Snapshot) checkUnportable(b *builder) {
	for _, s := range sn.sorted {
		sf := sn.manifests[s]
		if sf == nil || s.Format == core.FormatAgentSkill {
			continue
		}
		for _, u := range sf.unportable {
			b.rank, b.root = sn.late.rank[s.Root], s.Root
			file := strings.TrimSuffix(s.FilePath, ".md") + "/" + u.path // the resource directory is the file without .md
			sn.logger.Warn(textsafe.Escape(file + ": " + u.message()))
			b.problem(file, 1, SeverityWarning, u.message())
		}
	}
}

// limitLines is how many skills over the extension limits are logged one by
// one before the rest are counted on one line.
const limitLines = 2

// checkLimits records on b the limit problems of every skill, in path order,
// and makes b's problems, sorted, the snapshot's.
func (sn *Snapshot) checkLimits(b *builder) {
	over := 0
	for _, s := range sn.sorted {
		sf := sn.manifests[s]
		if sf == nil {
			continue
		}
		count, total := len(sf.files), int64(0)
		for _, f := range sf.files {
			total += f.Size
		}
		if s.Format != core.FormatAgentSkill {
			count, total = count+1, total+int64(s.Body.Size)
		}
		if count > ExtensionMaxFiles || total > ExtensionMaxBytes {
			b.rank, b.root = sn.late.rank[s.Root], s.Root
			over++
			if over <= limitLines {
				sn.logger.Warn(s.FilePath + ": over the MCP skills extension limits; it is served, but hosts may refuse it")
			}
			b.problem(s.FilePath, 1, SeverityWarning, fmt.Sprintf(
				"skill %s holds %d files and %d bytes, over the MCP skills extension limits of %d files and %d bytes: it is served, but hosts may refuse it",
				s.Path, count, total, ExtensionMaxFiles, ExtensionMaxBytes))
		}
	}
	if over > limitLines {
		sn.logger.Warn("skills over the MCP skills extension limits are served, but hosts may refuse them", "skills", over, "max_files", ExtensionMaxFiles, "max_bytes", ExtensionMaxBytes)
	}
	sn.problems = sortProblems(b.problems)
	sn.late.problems = nil
}

// has reports whether rel is one of the files listed (sorted by path).
func (sf *skillFiles) has(rel string) bool { return hasListed(sf.files, rel) }

// sortFiles sorts the walk's files by path.
func (l *dirListing) sortFiles() {
	sort.Slice(l.files, func(i, j int) bool { return l.files[i].Path < l.files[j].Path })
}

// hashFile streams the file at p, which must still be a regular file inside
// dir (or a symlink to one), through SHA-256 using buf.
func hashFile(root *confine.Root, dir, p string, buf []byte) (int64, string, error) {
	f, err := openListedFile(root, dir, p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	var n int64
	for {
		m, err := f.Read(buf)
		h.Write(buf[:m])
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, "", fmt.Errorf("hashing %s: %w", p, err)
		}
	}
	return n, digestPrefix + hex.EncodeToString(h.Sum(nil)), nil
}

// readListedFile reads the whole file at p, which must still be a regular
// file inside dir (or a symlink to one), refusing one over max bytes (when
// max > 0).
func readListedFile(root *confine.Root, dir, p string, max int64) ([]byte, error) {
	f, err := openListedFile(root, dir, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("hashing %s: %w", p, err)
	}
	if max > 0 && int64(len(data)) > max {
		return nil, &tooLargeError{size: int64(len(data)), limit: max}
	}
	return data, nil
}

// openListedFile opens the file at p for hashing after checking, again, that
// it is a regular file inside dir or a symlink to one: the tree may have
// changed since the rebuild listed it. The open itself goes through an
// the skills directory's confine.Root, so a folder swapped for
// a symlink out of the tree between the check and the open is refused too.
func openListedFile(root *confine.Root, dir, p string) (*os.File, error) {
	if !isSkillFile(dir, p) {
		return nil, fmt.Errorf("hashing %s: no longer a regular file inside %s", p, dir)
	}
	f, _, err := root.Open(p)
	if err != nil {
		return nil, fmt.Errorf("hashing %s: %w", p, err)
	}
	return f, nil
}
