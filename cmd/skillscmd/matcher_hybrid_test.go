package skillscmd

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
)

// embeddingsFake is an OpenAI-compatible /v1/embeddings endpoint: a hashed
// bag of words in which "bill" and "costs" are one word, as a model would
// have them near each other. With status set it fails, echoing the
// Authorization header as a careless proxy might.
func embeddingsFake(t *testing.T, status int) (url string, inputs *atomic.Int64) {
	t.Helper()
	inputs = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		inputs.Add(int64(len(req.Input)))
		if status != 0 {
			http.Error(w, "failing for "+r.Header.Get("Authorization"), status)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		var data []item
		for i, text := range req.Input {
			v := make([]float64, 512)
			for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if w == "bill" {
					w = "costs"
				}
				h := sha256.Sum256([]byte(w))
				v[binary.BigEndian.Uint64(h[:8])%512]++
			}
			data = append(data, item{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", inputs
}

// hybridTree is ten Agent Skills; only finops speaks of costs.
func hybridTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"finops/SKILL.md": agentSkill("finops", "Cut the costs of idle cloud resources.", "# FinOps\n")}
	for _, name := range []string{"deploy", "rebase", "fuzzing", "release", "incident", "tables", "forms", "secrets", "android"} {
		files[name+"/SKILL.md"] = agentSkill(name, "Everything about "+name+" done the usual way.", "# "+name+"\n")
	}
	writeTree(t, dir, files)
	return dir
}

func TestHybridMatcherSelected(t *testing.T) {
	t.Parallel()
	dir := hybridTree(t)
	query := "why is our bill so large"
	t.Run("routes a vocabulary miss", func(t *testing.T) {
		url, inputs := embeddingsFake(t, 0)
		state := t.TempDir()
		env := map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": state, "SKILLS_MATCHER": "hybrid",
			"SKILLS_EMBEDDINGS_URL": url, "SKILLS_EMBEDDINGS_MODEL": "fake"}
		stdout, stderr, code := runWith(t, New(nil), "", env, "search", "--json", query)
		if code != exitOK || !strings.Contains(stdout, `"outcome": "match"`) || !strings.Contains(stdout, `"skill_path": "finops"`) {
			t.Fatalf("hybrid search: exit %d\n%s\n%s\nwant a single match finops", code, stdout, stderr)
		}
		if files, _ := filepath.Glob(filepath.Join(state, "embeddings-cache", "*.f32")); len(files) != 10 {
			t.Errorf("%d cached vectors in the state directory, want 10", len(files))
		}
		before := inputs.Load()
		runWith(t, New(nil), "", env, "search", "--json", query) // a second process: the cache on disk
		if got := inputs.Load() - before; got != 1 {
			t.Errorf("a second run embedded %d texts, want 1 (the request; skills from the cache)", got)
		}
		env["SKILLS_MATCHER"] = "ranked"
		if stdout, _, _ := runWith(t, New(nil), "", env, "search", "--json", query); strings.Contains(stdout, `"skill_path": "finops"`) {
			t.Errorf("ranked alone finds finops for %q: the case proves nothing\n%s", query, stdout)
		}
	})
	t.Run("failing endpoint", func(t *testing.T) {
		url, _ := embeddingsFake(t, http.StatusInternalServerError)
		key := filepath.Join(t.TempDir(), "key")
		if err := os.WriteFile(key, []byte("sk-from-a-mounted-secret-42\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": t.TempDir(), "SKILLS_MATCHER": "hybrid",
			"SKILLS_EMBEDDINGS_URL": url, "SKILLS_EMBEDDINGS_KEY_FILE": key}
		stdout, stderr, code := runWith(t, New(nil), "", env, "search", "--json", "rebase")
		if code != exitOK || !strings.Contains(stdout, `"skill_path": "rebase"`) {
			t.Errorf("with a failing endpoint: exit %d\n%s\n%s\nwant ranked's answer", code, stdout, stderr)
		}
		if n := strings.Count(stderr, "[WARN]"); n != 1 || !strings.Contains(stderr, "embeddings unavailable") {
			t.Errorf("%d warnings, want one saying the embeddings are unavailable:\n%s", n, stderr)
		}
		if strings.Contains(stderr, "sk-from-a-mounted-secret") {
			t.Errorf("the key reached the log:\n%s", stderr)
		}
	})
	for name, tc := range map[string]struct{ url, want string }{
		"no URL":      {"", "SKILLS_EMBEDDINGS_URL is not set"},
		"not a URL":   {"localhost:11434", "SKILLS_EMBEDDINGS_URL: embeddings URL"},
		"not http(s)": {"ftp://host/v1", "want an http:// or https:// URL"},
	} {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{"SKILLS_DIR": dir, "SKILLS_MATCHER": "hybrid", "SKILLS_EMBEDDINGS_URL": tc.url}
			_, stderr, code := runWith(t, New(nil), "", env, "list")
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d; stderr %q, want %q", code, exitUsage, stderr, tc.want)
			}
		})
	}
}
