package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// TestBodyReadOnDemand: bodies are read from the skill files when asked for;
// the snapshot keeps the ones it read; a file changed or removed since the
// rebuild is served as it is now, or named in the error.
func TestBodyReadOnDemand(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":          skillMD("root", "", "\nroot body\n"),
		"ui/_index.md":      skillMD("ui", "", "ui body"),
		"ui/button.md":      skillMD("button", "", "\n  button body  \n"),
		"ui/edited.md":      skillMD("edited", "", "before"),
		"ui/gone.md":        skillMD("gone", "", "gone body"),
		"ui/broken.md":      skillMD("broken", "", "fine for now"),
		"ui/cached.md":      skillMD("cached", "", "read once"),
		"kits/git/SKILL.md": "---\nname: git\ndescription: Git workflow\n---\n# Git\n",
	})
	sn, _ := mustBuild(t, root)
	if got := mustBody(t, sn, mustGet(t, sn, "ui/cached")); got != "read once" {
		t.Fatalf("got %q, want %q", got, "read once")
	}
	edits := map[string]string{
		"ui/edited.md": skillMD("edited", "", "after"),
		"ui/broken.md": "no frontmatter any more\n",
		"ui/cached.md": skillMD("cached", "", "edited after it was read"),
	}
	writeFiles(t, root, edits)
	if err := os.Remove(filepath.Join(root, "ui", "gone.md")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want, wantErr string
	}{
		{path: "_root", want: "\nroot body\n"},
		{path: "ui/button", want: "\n  button body  \n"},
		{path: "kits/git", want: "# Git\n"},
		{path: "ui/edited", want: "after"},
		{path: "ui/cached", want: "read once"},
		{path: "ui/gone", wantErr: "reading the body of skill ui/gone"},
		{path: "ui/broken", wantErr: "reading the body of skill ui/broken from " + filepath.Join(root, "ui", "broken.md") + ": no frontmatter block"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := sn.Body(mustGet(t, sn, tt.path))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "refresh_skills") {
					t.Fatalf("got %q, %v; want an error containing %q and naming refresh_skills", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	t.Run("content fails with its chain", func(t *testing.T) {
		if _, err := sn.Content(mustGet(t, sn, "ui/gone")); err == nil || !strings.Contains(err.Error(), "ui/gone") {
			t.Errorf("got %v, want the error of ui/gone's body", err)
		}
	})
	t.Run("a rebuild reads the edits", func(t *testing.T) {
		sn2, _ := mustBuild(t, root)
		if got := mustBody(t, sn2, mustGet(t, sn2, "ui/cached")); got != "edited after it was read" {
			t.Errorf("got %q, want the edited body", got)
		}
	})
}

// TestBodyInfo: the sizes and digest of core.Skill.Body describe the body
// without holding it.
func TestBodyInfo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body          string
		size, trimmed int
	}{
		{"", 0, 0},
		{"\n", 1, 0},
		{"x", 1, 1},
		{"\n  # Title\n\ntext \n\n", 19, 13},
		{"\r\n\tunicode é\r\n", 15, 10},
	}
	digests := map[uint64]string{}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.body), func(t *testing.T) {
			got := bodyInfoOf([]byte(tt.body))
			if got.Size != tt.size || got.TrimmedSize != tt.trimmed {
				t.Errorf("got size %d trimmed %d, want %d and %d", got.Size, got.TrimmedSize, tt.size, tt.trimmed)
			}
			if other, dup := digests[got.Digest]; dup {
				t.Errorf("digest of %q equals that of %q", tt.body, other)
			}
			digests[got.Digest] = tt.body
			if again := bodyInfoOf([]byte(tt.body)); again != got {
				t.Errorf("got %+v then %+v for the same body", got, again)
			}
		})
	}
}

// TestBodyCacheBounded: the bodies a snapshot keeps stay under
// bodyCacheBytes, and a body read again since the clock hand last passed it
// survives the next eviction.
func TestBodyCacheBounded(t *testing.T) {
	t.Parallel()
	var c bodyCache
	body := strings.Repeat("b", bodyCacheBytes/16)
	hot := &core.Skill{Path: "hot"}
	c.put(hot, body)
	for i := range 64 {
		c.put(&core.Skill{Path: fmt.Sprint(i)}, body)
		if _, ok := c.get(hot); !ok {
			t.Fatalf("after %d more bodies: the body read every time was evicted", i+1)
		}
		if c.bytes > bodyCacheBytes {
			t.Fatalf("after %d more bodies: %d bytes kept, over %d", i+1, c.bytes, bodyCacheBytes)
		}
	}
	if len(c.entries) != bodyCacheBytes/len(body) || len(c.ring) != len(c.entries) {
		t.Errorf("got %d entries and %d in the ring, want %d", len(c.entries), len(c.ring), bodyCacheBytes/len(body))
	}
	huge := &core.Skill{Path: "huge"}
	c.put(huge, strings.Repeat("h", bodyCacheBytes/4))
	if _, ok := c.get(huge); ok {
		t.Error("a body over an eighth of the cache was kept")
	}
}
