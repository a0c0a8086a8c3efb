package watch

import (
	"encoding/binary"
	"hash/maphash"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// fingerprint hashes the state of the trees under roots: for every non-dot
// entry its path relative to its root, its mode, and for non-directories its
// size and modification time. Directory size and mtime are left out: they move
// when a dot-file such as an editor swap file comes and goes, which is not a
// change of the skills. A missing root and an unreadable entry hash as markers,
// so their appearance is a change too. Symlinked roots are resolved; symlinks
// below a root are not followed (as in internal/index).
func fingerprint(roots []string) uint64 {
	fp, _ := fingerprintWalk(roots, time.Time{}, nil)
	return fp
}

// fingerprintWalk is fingerprint, and whether some non-dot entry (directories
// included: a file removed shows only in its directory) was modified at or
// after since less sinceSlack (false when since is zero). When enter is not
// nil it is called with the root as given, the root resolved, and each
// directory the walk is about to read (the resolved root first, dot-directories
// left out), before reading it: Run's first walk adds the watches that way.
func fingerprintWalk(roots []string, since time.Time, enter func(root, real, dir string)) (fp uint64, changedSince bool) {
	if !since.IsZero() {
		since = since.Add(-sinceSlack)
	}
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	for _, root := range roots {
		writeString(&h, "root")
		writeString(&h, root)
		real, err := filepath.EvalSymlinks(root)
		if err != nil {
			writeString(&h, "absent")
			continue
		}
		_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
			if d == nil { // the root vanished between EvalSymlinks and WalkDir
				writeString(&h, "absent")
				return nil
			}
			if p != real && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, real), string(filepath.Separator)) // WalkDir joins names onto real
			if rel == "" {
				rel = "."
			}
			writeString(&h, rel)
			if err != nil {
				writeString(&h, "unreadable")
				return nil // WalkDir skips an unreadable directory by itself
			}
			if d.IsDir() {
				if enter != nil {
					enter(root, real, p)
				}
				runtime.Gosched() // a background walk: let requests run between two directories
			}
			info, err := d.Info()
			if err != nil {
				writeString(&h, "vanished")
				return nil
			}
			writeUint(&h, uint64(info.Mode()))
			if !since.IsZero() && !info.ModTime().Before(since) {
				changedSince = true
			}
			if !info.IsDir() {
				writeUint(&h, uint64(info.Size()))
				writeUint(&h, uint64(info.ModTime().UnixNano()))
			}
			return nil
		})
	}
	return h.Sum64(), changedSince
}

// sinceSlack widens Options.Since for file systems that keep modification
// times to the second (or two, FAT): a change in the same second as Since is
// reported, at worst one rebuild too many.
const sinceSlack = 2 * time.Second

// fingerprintSeed seeds every fingerprint of the process: fingerprints are
// only compared with others of the same process.
var fingerprintSeed = maphash.MakeSeed()

func writeString(h *maphash.Hash, s string) {
	writeUint(h, uint64(len(s)))
	_, _ = h.WriteString(s)
}

func writeUint(h *maphash.Hash, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	_, _ = h.Write(b[:])
}

// lastPrint remembers the fingerprint of the state last reported.
type lastPrint struct {
	mu    sync.Mutex
	fp    uint64
	known bool // a fingerprint was stored (with Options.Prewatched, none is at start)
}

// swap stores fp and reports whether it differs from the previous one.
func (l *lastPrint) swap(fp uint64) (changed bool) {
	_, changed = l.swapKnown(fp)
	return changed
}

// swapKnown stores fp and reports whether a fingerprint was stored before,
// and whether fp differs from it.
func (l *lastPrint) swapKnown(fp uint64) (known, changed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	known, changed = l.known, fp != l.fp
	l.fp, l.known = fp, true
	return known, changed
}

// isKnown reports whether a fingerprint was stored.
func (l *lastPrint) isKnown() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.known
}
