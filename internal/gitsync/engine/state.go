package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// stateFile is the name of the sync metadata file in options.StateDir.
const stateFile = "sync-state.json"

// syncState is the content of sync-state.json. It describes one cache
// directory; a file written for another directory, URL or branch is ignored.
type syncState struct {
	Dir      string    `json:"dir"`
	URL      string    `json:"url"`
	Branch   string    `json:"branch"`
	Ref      string    `json:"ref,omitempty"`
	Head     string    `json:"head"`
	LastSync time.Time `json:"last_sync"`
}

// restoreState loads LastSync from the state file when it describes this cache
// and its head is the local HEAD. Problems are logged: the file is only a hint.
func (s *syncer) restoreState() {
	if s.stateDir == "" {
		return
	}
	p := filepath.Join(s.stateDir, stateFile)
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return
	}
	var st syncState
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		s.log.Warn("ignoring unreadable sync state", "file", p, "error", err)
		return
	}
	if st.Dir != s.dir || st.URL != redactURL(s.url) || st.Branch != s.branch || st.Ref != s.pinName() || st.Head != s.Head() {
		return
	}
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.lastSync = st.LastSync
}

// pinName is SKILLS_REF as given, "" without a pin.
func (s *syncer) pinName() string {
	if s.pin == nil {
		return ""
	}
	return s.pin.String()
}

// saveState writes the state file atomically (temporary file, then rename).
// A failure is logged: the sync itself succeeded.
func (s *syncer) saveState(head plumbing.Hash, at time.Time) {
	if s.stateDir == "" {
		return
	}
	st := syncState{Dir: s.dir, URL: redactURL(s.url), Branch: s.branch, Ref: s.pinName(), Head: head.String(), LastSync: at.UTC()}
	if err := writeFileAtomic(filepath.Join(s.stateDir, stateFile), st); err != nil {
		s.log.Warn("cannot save sync state", "dir", s.stateDir, "error", err)
	}
}

// writeFileAtomic writes v as indented JSON to path through a temporary file in
// the same directory, so readers see the old or the new content, never a part.
func writeFileAtomic(path string, v any) (err error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(append(data, '\n')); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
