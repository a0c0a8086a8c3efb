package index

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// writeTree creates files (relative path → content) under a fresh temp dir and
// returns its path. A content ending in "/" creates a directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// skillMD renders a minimal valid skill file with extra frontmatter lines and a body.
func skillMD(description string, extra string, body string) string {
	return "---\ndescription: " + description + "\nkeywords: [k]\n" + extra + "---\n" + body
}

// newTestLogger returns a debug-level logger writing to the returned buffer.
func newTestLogger() (hclog.Logger, *testlog.Buffer) {
	buf := &testlog.Buffer{}
	return hclog.New(&hclog.LoggerOptions{Output: buf, Level: hclog.Debug}), buf
}

// warnLines returns the log lines at WARN level.
func warnLines(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "[WARN]") {
			out = append(out, line)
		}
	}
	return out
}

// fakeMatcher is a tiny core.Matcher: a skill matches when one of its keywords,
// lowercased, is a whitespace-separated word of the context; the empty context
// matches every skill. It records the entries of its last Build.
type fakeMatcher struct {
	mu     sync.Mutex
	builds int
}

func (m *fakeMatcher) Build(entries []core.MatchEntry) core.Searcher {
	m.mu.Lock()
	m.builds++
	m.mu.Unlock()
	return fakeSearcher{entries: append([]core.MatchEntry(nil), entries...)}
}

type fakeSearcher struct{ entries []core.MatchEntry }

func (s fakeSearcher) Search(context string) []core.Match {
	words := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(context)) {
		words[w] = true
	}
	var out []core.Match
	for _, e := range s.entries {
		var matched []string
		for _, k := range e.Keywords {
			if words[strings.ToLower(k)] {
				matched = append(matched, strings.ToLower(k))
			}
		}
		if context == "" || len(matched) > 0 {
			out = append(out, core.Match{Path: e.Path, Score: float64(len(matched)) + e.Priority*0.001, MatchedKeywords: matched})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// mustBuild indexes root with a fake matcher and a captured logger.
func mustBuild(t *testing.T, root string) (*Snapshot, string) {
	t.Helper()
	logger, buf := newTestLogger()
	sn, err := New(Options{Root: root, Matcher: &fakeMatcher{}, Logger: logger}).Rebuild(context.Background())
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	return sn, buf.String()
}

// mustGet returns the skill at path or fails the test.
func mustGet(t *testing.T, sn *Snapshot, path string) *core.Skill {
	t.Helper()
	s, ok := sn.Get(path)
	if !ok {
		t.Fatalf("Get(%q): not found; have %v", path, sn.Paths())
	}
	return s
}

// mustContent is sn.Content(s), failing the test on an error.
func mustContent(t *testing.T, sn *Snapshot, s *core.Skill) string {
	t.Helper()
	text, err := sn.Content(s)
	if err != nil {
		t.Fatalf("Content(%s): %v", s.Path, err)
	}
	return text
}

// mustBody is sn.Body(s), failing the test on an error.
func mustBody(t *testing.T, sn *Snapshot, s *core.Skill) string {
	t.Helper()
	body, err := sn.Body(s)
	if err != nil {
		t.Fatalf("Body(%s): %v", s.Path, err)
	}
	return body
}
