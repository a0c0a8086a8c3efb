// Package lockfile owns skills.lock: every served skill's path, its
// skill:// URI and the SEP-2640 digests of its files, as skills/list
// publishes them (internal/skillsext.Manifests computes them; this package
// never hashes). `skills-mcp lock` writes one, `serve --frozen` serves only
// the skills that match it, and `validate --lock` checks a tree against it.
package lockfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Version is the format version Write writes and Parse accepts.
const Version = 1

// Lock is a parsed lock file.
type Lock struct {
	// Version is the format version.
	Version int `json:"version"`
	// Skills are sorted by URI, each URI once.
	Skills []Skill `json:"skills"`
}

// Skill is one served skill.
type Skill struct {
	// Path is the skill's path as get_skill knows it (`ui/react/auth`, `ui/_index`).
	Path string `json:"path"`
	// URI is its SKILL.md's skill:// URI.
	URI string `json:"uri"`
	// Files are the resources of its skills/list entry, sorted by URI.
	Files []File `json:"files"`
}

// File is one resource of a skill.
type File struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// maxBytes bounds a lock file: far above any real content tree's.
const maxBytes = 64 << 20

var digestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// Parse reads a lock file strictly: unknown fields, another version, a
// malformed digest, an entry without path or URI, or a URI twice are errors
// naming the entry.
func Parse(data []byte) (*Lock, error) {
	if len(data) > maxBytes {
		return nil, fmt.Errorf("the lock file is %d bytes, over %d", len(data), maxBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l Lock
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("not a lock file: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a lock file: text after the JSON object")
	}
	if l.Version != Version {
		return nil, fmt.Errorf("lock file version %d is not supported (want %d)", l.Version, Version)
	}
	seen := map[string]bool{}
	for i, s := range l.Skills {
		if s.Path == "" || !strings.HasPrefix(s.URI, "skill://") {
			return nil, fmt.Errorf("skills[%d]: want a path and a skill:// URI, got %q and %q", i, s.Path, s.URI)
		}
		if seen[s.URI] {
			return nil, fmt.Errorf("skills[%d]: %s is locked twice", i, s.URI)
		}
		seen[s.URI] = true
		for j, f := range s.Files {
			if !strings.HasPrefix(f.URI, "skill://") || !digestRE.MatchString(f.Digest) || f.Size < 0 {
				return nil, fmt.Errorf("skills[%d] (%s) files[%d]: want a skill:// URI, a sha256:<64 hex> digest and a size, got %q %q %d",
					i, s.URI, j, f.URI, f.Digest, f.Size)
			}
		}
	}
	return &l, nil
}

// New makes the lock of skills, sorted.
func New(skills []Skill) *Lock {
	out := make([]Skill, len(skills))
	copy(out, skills)
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	for i := range out {
		files := append([]File(nil), out[i].Files...)
		sort.Slice(files, func(a, b int) bool { return files[a].URI < files[b].URI })
		out[i].Files = files
	}
	return &Lock{Version: Version, Skills: out}
}

// Encode is the lock file's bytes: indented JSON, one skill per block, so a
// diff of two locks reads well in review.
func (l *Lock) Encode() []byte {
	data, _ := json.MarshalIndent(l, "", "  ") // plain strings and numbers: cannot fail
	return append(data, '\n')
}

// Digest is the sha256 digest of data, a lock file's bytes: what a replica
// says it serves against.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Check compares the skills a tree serves with the lock: skill path → why
// for each skill that may not be served (not locked, or a file added,
// removed or changed), and the URIs of the locked skills the tree does not
// serve at all, sorted.
func (l *Lock) Check(served []Skill) (refused map[string]string, missing []string) {
	locked := make(map[string]*Skill, len(l.Skills))
	for i := range l.Skills {
		locked[l.Skills[i].URI] = &l.Skills[i]
	}
	refused = map[string]string{}
	seen := map[string]bool{}
	for _, s := range served {
		seen[s.URI] = true
		want, ok := locked[s.URI]
		switch {
		case !ok:
			refused[s.Path] = s.URI + " is not in the lock file"
		case want.Path != s.Path:
			refused[s.Path] = fmt.Sprintf("%s is locked for skill %s, not %s", s.URI, want.Path, s.Path)
		default:
			if why := diffFiles(want.Files, s.Files); why != "" {
				refused[s.Path] = why
			}
		}
	}
	for _, s := range l.Skills {
		if !seen[s.URI] {
			missing = append(missing, s.URI)
		}
	}
	return refused, missing
}

// diffFiles names the first difference between the locked files and the
// served ones, "" when they are the same.
func diffFiles(locked, served []File) string {
	want := make(map[string]File, len(locked))
	for _, f := range locked {
		want[f.URI] = f
	}
	have := map[string]bool{}
	var diffs []string
	for _, f := range served {
		have[f.URI] = true
		w, ok := want[f.URI]
		switch {
		case !ok:
			diffs = append(diffs, f.URI+" is not in the lock file")
		case w.Digest != f.Digest || w.Size != f.Size:
			diffs = append(diffs, fmt.Sprintf("%s changed (%s, %d bytes; locked %s, %d bytes)", f.URI, f.Digest, f.Size, w.Digest, w.Size))
		}
	}
	for _, f := range locked {
		if !have[f.URI] {
			diffs = append(diffs, f.URI+" is locked but missing")
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}
