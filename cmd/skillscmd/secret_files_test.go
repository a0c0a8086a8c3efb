package skillscmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecretFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("s3cret-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     map[string]string
		want    string // SKILLS_HTTP_TOKEN as the command sees it
		wantErr string
	}{
		{"no file", map[string]string{"SKILLS_HTTP_TOKEN": "plain"}, "plain", ""},
		{"from a file, newline trimmed", map[string]string{"SKILLS_HTTP_TOKEN_FILE": token}, "s3cret-from-file", ""},
		{"both set", map[string]string{"SKILLS_HTTP_TOKEN": "x", "SKILLS_HTTP_TOKEN_FILE": token}, "", "both set"},
		{"missing file", map[string]string{"GITHUB_TOKEN_FILE": filepath.Join(dir, "nope")}, "", "GITHUB_TOKEN_FILE"},
		{"empty file", map[string]string{"SKILLS_HTTP_TOKEN_FILE": empty}, "", "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv, err := withSecretFiles(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := getenv("SKILLS_HTTP_TOKEN"); got != tt.want {
				t.Errorf("SKILLS_HTTP_TOKEN = %q, want %q", got, tt.want)
			}
		})
	}
}
