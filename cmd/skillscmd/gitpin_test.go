package skillscmd

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// SKILLS_REF pins git mode: list shows the pinned commit's skills whatever
// the branch holds, SKILLS_REF wins over SKILLS_BRANCH (and the log says
// so), and a pin the remote does not have stops the start naming the ref.
func TestGitPin(t *testing.T) {
	t.Parallel()
	repo := newContentRepo(t)
	first := repo.commit(t, map[string]string{"skills/_root.md": "---\ndescription: Root\nkeywords: [root]\n---\nRoot.\n", "skills/go.md": "---\ndescription: Go services\nkeywords: [golang]\n---\nUse contexts.\n"})
	repo.commit(t, map[string]string{"skills/rust.md": "---\ndescription: Rust crates\nkeywords: [rust]\n---\nUse clippy.\n"})
	tests := []struct {
		name       string
		env        map[string]string
		code       int
		wantOut    []string
		notOut     []string
		wantStderr []string
	}{
		{name: "branch head", env: map[string]string{}, wantOut: []string{"go", "rust"}},
		{name: "commit pin", env: map[string]string{"SKILLS_REF": first}, wantOut: []string{"go"}, notOut: []string{"rust"}},
		{name: "pin wins over branch", env: map[string]string{"SKILLS_REF": first, "SKILLS_BRANCH": "main", "SKILLS_LOG_LEVEL": "info"},
			wantOut: []string{"go"}, notOut: []string{"rust"}, wantStderr: []string{"SKILLS_REF wins"}},
		{name: "unknown tag", env: map[string]string{"SKILLS_REF": "v9"}, code: exitUsage, wantStderr: []string{"SKILLS_REF=v9", "names no tag"}},
		{name: "branch as ref", env: map[string]string{"SKILLS_REF": "refs/heads/main"}, code: exitUsage, wantStderr: []string{"names a branch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"SKILLS_REPO": "file://" + repo.bare, "SKILLS_STATE_DIR": t.TempDir()}
			for k, v := range tt.env {
				env[k] = v
			}
			var stdout, stderr bytes.Buffer
			code := New(nil).Run(context.Background(), []string{"list"}, io.NopCloser(strings.NewReader("")), &stdout, &stderr, func(k string) string { return env[k] })
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tt.code, stdout.String(), stderr.String())
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
			for _, w := range tt.notOut {
				if strings.Contains(stdout.String(), w) {
					t.Errorf("stdout has %q, which the pin does not hold:\n%s", w, stdout.String())
				}
			}
			for _, w := range tt.wantStderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}
