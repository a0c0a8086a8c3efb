package index

import "time"

// FileState is what one file of a skill's directory holds at the moment it
// is asked: enough to tell it changed (size, modification time) and, when
// hashed, its digest.
type FileState struct {
	Size    int64
	ModTime time.Time
	// Digest is "sha256:<hex>" of the bytes, "" when only stat'ed.
	Digest string
}

// Same reports whether two states of a file are those of one content, as
// far as a stat tells (a rewrite within the file system's time granularity
// that keeps the size goes unseen).
func (st FileState) Same(o FileState) bool { return st.Size == o.Size && st.ModTime.Equal(o.ModTime) }
