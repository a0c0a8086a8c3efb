package engine

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

const secretToken = "ghp_S3cretTokenValue0123456789"

// assertNoSecret fails when the token appears in any of the texts.
func assertNoSecret(t *testing.T, where string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if strings.Contains(text, secretToken) {
			t.Errorf("%s leaks the token: %q", where, text)
		}
	}
}

// assertNoSecretOnDisk fails when the token is in a file under dir.
func assertNoSecretOnDisk(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			continue
		}
		for path, content := range snapshot(t, dir) {
			assertNoSecret(t, path, content)
		}
	}
}

func TestTokenIsSentAsBasicAuthAndNeverLeaks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// url builds SKILLS_REPO from the server.
		url   func(g *gitHTTP) string
		token string
		// serverPassword is what the server accepts; fail makes it answer with
		// that status and a body echoing the token.
		serverPassword string
		fail           int
		// wantFail: Initialize must fail; wantErrIs, when set, is in its chain.
		wantFail  bool
		wantErrIs error
	}{
		{
			name:           "token from GITHUB_TOKEN",
			url:            (*gitHTTP).repoURL,
			token:          secretToken,
			serverPassword: secretToken,
		},
		{
			name: "token in the URL userinfo",
			url: func(g *gitHTTP) string {
				return strings.Replace(g.repoURL(), "://", "://"+tokenUser+":"+secretToken+"@", 1)
			},
			serverPassword: secretToken,
		},
		{
			name:           "token refused",
			url:            (*gitHTTP).repoURL,
			token:          secretToken,
			serverPassword: "another-token",
			wantFail:       true,
			wantErrIs:      transport.ErrAuthenticationRequired,
		},
		{
			name:           "server error echoing the token",
			url:            (*gitHTTP).repoURL,
			token:          secretToken,
			serverPassword: secretToken,
			fail:           http.StatusUnauthorized,
			wantFail:       true,
			wantErrIs:      transport.ErrAuthenticationRequired,
		},
		{
			name: "unreachable host with the token in the URL",
			url: func(*gitHTTP) string {
				return "http://" + tokenUser + ":" + secretToken + "@127.0.0.1:1/org/skills.git"
			},
			wantFail: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			g := newGitHTTP(t, f.remote, tokenUser, tt.serverPassword)
			g.setFail(tt.fail)
			opts := f.options()
			opts.URL, opts.Token = tt.url(g), tt.token
			s := f.syncer(opts)

			res, err := s.Initialize(t.Context())
			if tt.wantFail {
				if err == nil {
					t.Fatalf("Initialize: got nil error, want one")
				}
				if tt.wantErrIs != nil && !errors.Is(err, tt.wantErrIs) {
					t.Errorf("Initialize: got %v, want errors.Is %v", err, tt.wantErrIs)
				}
				if !strings.Contains(err.Error(), "127.0.0.1") {
					t.Errorf("Initialize error does not name the remote: %v", err)
				}
			} else if err != nil || !res.Success {
				t.Fatalf("Initialize: got %+v, %v; want success", res, err)
			}
			if err != nil {
				assertNoSecret(t, "Initialize error", err.Error())
			}

			if !tt.wantFail {
				f.commit(map[string]string{"skills/new.md": "new\n"})
				f.push(false)
				res, err = s.ForceRefresh(t.Context())
				if err != nil || !res.Updated || res.CommitHash != f.head().String() {
					t.Fatalf("ForceRefresh: got %+v, %v; want updated to %s", res, err, f.head())
				}
				g.setFail(http.StatusUnauthorized) // now the server echoes the token
				_, err = s.ForceRefresh(t.Context())
				if !errors.Is(err, gitsync.ErrUsingCache) {
					t.Fatalf("ForceRefresh on failing server: got %v, want gitsync.ErrUsingCache", err)
				}
				assertNoSecret(t, "ForceRefresh error", err.Error())
				cfg, rerr := os.ReadFile(filepath.Join(f.dir, ".git", "config"))
				if rerr != nil {
					t.Fatal(rerr)
				}
				if !strings.Contains(string(cfg), g.repoURL()) {
					t.Errorf(".git/config: got %q, want the origin %s", cfg, g.repoURL())
				}
			}
			assertNoSecret(t, "logs", f.logs.String())
			assertNoSecretOnDisk(t, f.dir, f.stateDir)
		})
	}
}

func TestTokenIgnoredForLocalRemote(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	opts.Token = secretToken
	s := f.syncer(opts)
	if _, err := s.Initialize(t.Context()); err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	assertNoSecretOnDisk(t, f.dir, f.stateDir)
	assertNoSecret(t, "logs", f.logs.String())
}
