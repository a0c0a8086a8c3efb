package eventbuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skills-mcp/skills-mcp/core"
)

// encode marshals each event to a newline-terminated line, leaving out (with a
// warning) events that JSON cannot encode, such as a NaN score, and events
// whose line alone is larger than the whole buffer: kept, such an event would
// evict every other one and then itself. tooLarge counts the latter.
func (b *Buffer) encode(evs []core.Event) (lines [][]byte, tooLarge int) {
	lines = make([][]byte, 0, len(evs))
	for _, ev := range evs {
		line, err := json.Marshal(ev)
		if err != nil {
			b.logger.Warn("analytics buffer: event cannot be encoded, left out", "type", ev.Type, "error", err)
			continue
		}
		if int64(len(line))+1 > b.maxBytes {
			tooLarge++
			b.logger.Warn("analytics buffer: event larger than the whole buffer, left out", "type", ev.Type,
				"bytes", len(line)+1, "max_bytes", b.maxBytes)
			continue
		}
		lines = append(lines, append(line, '\n'))
	}
	return lines, tooLarge
}

// feedbackType is how a skill_feedback line spells its type: inside a
// string value the quotes would be escaped, so only the type field matches.
var feedbackType = []byte(`"type":"` + core.EventSkillFeedback + `"`)

// countFeedback counts the skill_feedback events among lines: feedback an
// agent was told was recorded, which a drop for space loses.
func countFeedback(lines [][]byte) int {
	n := 0
	for _, l := range lines {
		if bytes.Contains(l, feedbackType) {
			n++
		}
	}
	return n
}

// appendLines adds lines to the file with one O_APPEND write and an fsync, or
// rewrites the file without its oldest lines when the bound would be exceeded.
// The caller holds path.lock.
func (b *Buffer) appendLines(lines [][]byte) error {
	f, err := os.OpenFile(b.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening analytics buffer: %w", err)
	}
	defer f.Close()
	size, endsClean, err := tail(f)
	if err != nil {
		return fmt.Errorf("inspecting analytics buffer %s: %w", b.path, err)
	}
	var data []byte
	if !endsClean {
		data = append(data, '\n') // keep a torn last line apart from the new lines
	}
	data = append(data, bytes.Join(lines, nil)...)
	if size+int64(len(data)) > b.maxBytes {
		return b.rewrite(lines)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("appending to analytics buffer %s: %w", b.path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing analytics buffer %s: %w", b.path, err)
	}
	return nil
}

// tail returns the file's size and whether it is empty or ends with a newline.
func tail(f *os.File) (int64, bool, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	size := info.Size()
	if size == 0 {
		return 0, true, nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, size-1); err != nil && !errors.Is(err, io.EOF) {
		return 0, false, err
	}
	return size, last[0] == '\n', nil
}

// rewrite replaces the file with its readable lines plus lines, dropping the
// oldest until the total fits the bound, through a temporary file and an
// atomic rename. The caller holds b.mu.
func (b *Buffer) rewrite(lines [][]byte) error {
	data, err := os.ReadFile(b.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading analytics buffer: %w", err)
	}
	old := parseLines(data)
	all := append(old.lines, lines...)
	kept, dropped := keepNewest(all, b.maxBytes)
	if err := b.replaceFile(b.path, bytes.Join(kept, nil)); err != nil {
		return err
	}
	if old.skipped > 0 {
		b.logger.Warn("analytics buffer: removed unreadable lines", "path", b.path, "skipped", old.skipped)
	}
	if dropped > 0 {
		b.logger.Warn("analytics buffer full: dropped oldest events", "path", b.path, "dropped", dropped,
			"feedback_dropped", countFeedback(all[:dropped]), "max_bytes", b.maxBytes)
	}
	return nil
}

// replaceFile atomically swaps path's content for data (mode 0600).
func (b *Buffer) replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("rewriting analytics buffer: %w", err)
	}
	tmpName := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmpName, path)
	}
	if werr != nil {
		_ = os.Remove(tmpName)
		return fmt.Errorf("rewriting analytics buffer %s: %w", path, werr)
	}
	syncDir(dir)
	return nil
}

// keepNewest drops the oldest of lines (the first) until their total length
// is at most maxBytes, and says how many it dropped.
func keepNewest(lines [][]byte, maxBytes int64) (kept [][]byte, dropped int) {
	var total int64
	for _, l := range lines {
		total += int64(len(l))
	}
	for dropped < len(lines) && total > maxBytes {
		total -= int64(len(lines[dropped]))
		dropped++
	}
	return lines[dropped:], dropped
}

// syncDir makes a rename durable; file systems that cannot sync a directory
// are not an error.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
