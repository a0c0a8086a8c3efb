package gitsync

import (
	"slices"
	"testing"
)

// The helper inherits the environment without the server's secrets: the
// token and the URL reach it on stdin.
func TestHelperEnvDropsSecrets(t *testing.T) {
	got := helperEnv([]string{"HOME=/home/u", "GITHUB_TOKEN=ghp_x", "SKILLS_REPO=https://u:p@h/r", "SKILLS_HTTP_TOKEN=t", "HTTPS_PROXY=http://p", "GITHUB_TOKENX=kept"})
	want := []string{"HOME=/home/u", "HTTPS_PROXY=http://p", "GITHUB_TOKENX=kept"}
	if !slices.Equal(got, want) {
		t.Errorf("helperEnv = %v, want %v", got, want)
	}
}
