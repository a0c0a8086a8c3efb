package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v2"

	"github.com/skills-mcp/skills-mcp/core"
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
// its raw bytes, as the rebuild that built the snapshot read them.
type ManifestFile struct {
	// Path is relative to the skill's directory, with `/` separators (`SKILL.md`,
	// `references/FORMS.md`).
	Path string
	// Size is the number of bytes hashed.
	Size int64
	// Digest is `sha256:` followed by 64 lowercase hex digits.
	Digest string
}

// skillManifest is what a rebuild records of one skill's directory.
type skillManifest struct {
	files []ManifestFile // sorted by Path
	// frontmatter is an Agent Skill's frontmatter as a JSON object with its keys
	// in file order, rendered from the bytes hashed; nil for a tree skill.
	frontmatter json.RawMessage
}

// Digest returns the manifest digest of data: `sha256:` and the lowercase hex
// SHA-256 of the bytes.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return digestPrefix + hex.EncodeToString(sum[:])
}

// Manifest returns the files of s's directory, sorted by path, computed once by
// the rebuild that built the snapshot: for an Agent Skill every file of its
// folder, SKILL.md included; for a tree skill every file of its resource
// directory (none without one). Dot-files and dot-directories are left out, a
// symlinked file counts only when it resolves to a regular file inside the
// directory, directory symlinks are not followed, and a file that cannot be
// read is left out. The slice is the caller's.
func (sn *Snapshot) Manifest(s *core.Skill) []ManifestFile {
	return append([]ManifestFile(nil), sn.manifests[s].files...)
}

// FrontmatterJSON returns the frontmatter of the Agent Skill s as a JSON object
// whose keys keep the order of the file (nested mappings included), rendered
// from the same bytes as its SKILL.md digest; nil for a tree skill, or when the
// SKILL.md could not be read again or holds a value JSON cannot carry.
func (sn *Snapshot) FrontmatterJSON(s *core.Skill) json.RawMessage {
	return sn.manifests[s].frontmatter
}

// buildManifests reads the directory of every skill of byPath once and records
// a warning problem for each skill over the extension's limits. For a tree
// skill the SKILL.md the extension serves in its stead counts as one more file,
// of the size of the skill's own body.
func (b *builder) buildManifests(roots []Root, byPath map[string]*core.Skill) map[*core.Skill]skillManifest {
	rank := make(map[string]int, len(roots))
	for i, r := range roots {
		if _, seen := rank[r.Dir]; !seen {
			rank[r.Dir] = i
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths) // deterministic logs
	out := make(map[*core.Skill]skillManifest, len(byPath))
	for _, p := range paths {
		s := byPath[p]
		var m skillManifest
		if s.ResourceDir != "" {
			m.files = b.hashDirectory(s.ResourceDir)
		}
		count, total := len(m.files), int64(0)
		for _, f := range m.files {
			total += f.Size
		}
		if s.Format == core.FormatAgentSkill {
			m.frontmatter = orderedFrontmatter(s)
		} else {
			count, total = count+1, total+int64(len(s.Content))
		}
		if count > ExtensionMaxFiles || total > ExtensionMaxBytes {
			b.rank, b.root = rank[s.Root], s.Root
			b.warn(s.FilePath, 1, SeverityWarning, fmt.Sprintf(
				"skill %s holds %d files and %d bytes, over the MCP skills extension limits of %d files and %d bytes: it is served, but hosts may refuse it",
				s.Path, count, total, ExtensionMaxFiles, ExtensionMaxBytes))
		}
		out[s] = m
	}
	return out
}

// hashDirectory walks dir for the files of a manifest (see Snapshot.Manifest)
// and hashes each one.
func (b *builder) hashDirectory(dir string) []ManifestFile {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		b.logger.Debug("skipping manifest of unreadable directory", "dir", dir, "error", err)
		return nil
	}
	var files []ManifestFile
	_ = filepath.WalkDir(realDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == realDir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !isSkillFile(realDir, p) {
			return nil
		}
		rel, relErr := filepath.Rel(realDir, p)
		if relErr != nil {
			return nil
		}
		size, digest, hashErr := hashFile(p)
		if hashErr != nil {
			b.logger.Debug("leaving an unreadable file out of a manifest", "file", p, "error", hashErr)
			return nil
		}
		files = append(files, ManifestFile{Path: filepath.ToSlash(rel), Size: size, Digest: digest})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files
}

// hashFile streams the file at p through SHA-256.
func hashFile(p string) (int64, string, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, "", fmt.Errorf("hashing %s: %w", p, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("hashing %s: %w", p, err)
	}
	return n, digestPrefix + hex.EncodeToString(h.Sum(nil)), nil
}

// orderedFrontmatter renders the frontmatter of the Agent Skill s, read again
// from its SKILL.md, as JSON with the keys in file order; nil when that fails.
func orderedFrontmatter(s *core.Skill) json.RawMessage {
	data, err := os.ReadFile(s.AbsPath)
	if err != nil {
		return nil
	}
	out, err := FrontmatterToJSON(data)
	if err != nil {
		return nil
	}
	return out
}

// FrontmatterToJSON renders the YAML frontmatter block of a Markdown file as a
// JSON object whose keys, at every level, keep their order in the file; scalar
// values are those of the index (timestamps stay strings, non-string keys are
// printed). It fails when the file has no frontmatter block, the block is not
// a mapping, or it holds a value JSON cannot carry (.inf, .nan).
func FrontmatterToJSON(data []byte) (out json.RawMessage, err error) {
	split, err := splitFrontmatter(data)
	if err != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: %w", err)
	}
	defer func() { // yaml.v2 on repository content: a panic costs this file only
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("rendering frontmatter as JSON: yaml decoder panicked: %v", r)
		}
	}()
	var doc yaml.MapSlice
	if err := yaml.Unmarshal(split.Front, &doc); err != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: %w", err)
	}
	var buf strings.Builder
	if err := writeOrderedJSON(&buf, doc); err != nil {
		return nil, fmt.Errorf("rendering frontmatter as JSON: %w", err)
	}
	return json.RawMessage(buf.String()), nil
}

// writeOrderedJSON writes v, a value decoded by yaml.v2 into a MapSlice, as
// JSON, keeping the order of every mapping.
func writeOrderedJSON(buf *strings.Builder, v any) error {
	switch t := v.(type) {
	case yaml.MapSlice:
		buf.WriteByte('{')
		for i, item := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			key, _ := json.Marshal(fmt.Sprint(item.Key))
			buf.Write(key)
			buf.WriteByte(':')
			if err := writeOrderedJSON(buf, item.Value); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case []any:
		buf.WriteByte('[')
		for i, item := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeOrderedJSON(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	default:
		data, err := json.Marshal(normalizeYAML(t))
		if err != nil {
			return err
		}
		buf.Write(data)
		return nil
	}
}
