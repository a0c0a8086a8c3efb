package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// helperPassword is the password the credential helpers of these tests hold.
const helperPassword = "hlp_Pa55wordFromTheHelper_0123456789"

// fakeHelper is an in-memory credential helper behind the credentialRunner
// seam: fill answers user:password (nothing when password is empty, or fillErr),
// and every call is recorded.
type fakeHelper struct {
	mu             sync.Mutex
	user, password string
	fillErr        error
	calls          []string // "action" per call
	inputs         []string
}

// helperAnswer is what a fakeHelper's fill answers.
type helperAnswer struct {
	user, password string
	fillErr        error
}

func (f *fakeHelper) run(_ context.Context, action string, input []byte) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, action)
	f.inputs = append(f.inputs, string(input))
	if action != "fill" {
		return nil, nil
	}
	if f.fillErr != nil {
		return nil, f.fillErr
	}
	if f.password == "" {
		return []byte("protocol=http\n"), nil
	}
	return []byte(fmt.Sprintf("protocol=http\nusername=%s\npassword=%s\n", f.user, f.password)), nil
}

func (f *fakeHelper) recorded() (calls, inputs []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls), slices.Clone(f.inputs)
}

// assertNoHelperPassword fails when the helper's password is in a text, a log
// line or a file of the cache or state directory.
func assertNoHelperPassword(t *testing.T, f *fixture, texts ...string) {
	t.Helper()
	texts = append(texts, f.logs.String())
	for _, dir := range []string{f.dir, f.stateDir} {
		if _, err := os.Stat(dir); err == nil {
			for path, content := range snapshot(t, dir) {
				texts = append(texts, path+": "+content)
			}
		}
	}
	for _, text := range texts {
		if strings.Contains(text, helperPassword) {
			t.Errorf("the helper password leaks: %q", text)
		}
	}
}

func TestCredentialHelperFallback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// serverUser and serverPassword are what the server demands; both
		// empty make a public repository; status, when set, is its answer.
		serverUser, serverPassword string
		status                     int
		// helper is the fake helper's fill answer.
		helper helperAnswer
		// wantCalls are the helper actions Initialize runs; wantErr, when set,
		// is in the error, which wraps wantErrIs.
		wantCalls []string
		wantErr   string
		wantErrIs error
	}{
		{
			name:   "public repository never asks the helper",
			helper: helperAnswer{user: "me", password: helperPassword},
		},
		{
			name:       "private repository cloned with the helper's credentials",
			serverUser: "me", serverPassword: helperPassword,
			helper:    helperAnswer{user: "me", password: helperPassword},
			wantCalls: []string{"fill", "approve"},
		},
		{
			name:       "forbidden anonymous access asks the helper too",
			serverUser: "me", serverPassword: helperPassword, status: http.StatusForbidden,
			helper:    helperAnswer{user: "me", password: helperPassword},
			wantCalls: []string{"fill", "reject"},
			wantErr:   "the remote refused the credentials of the git credential helper",
			wantErrIs: transport.ErrAuthorizationFailed,
		},
		{
			name:       "wrong helper credentials are rejected",
			serverUser: "me", serverPassword: "the-right-one",
			helper:    helperAnswer{user: "me", password: helperPassword},
			wantCalls: []string{"fill", "reject"},
			wantErr:   "the remote refused the credentials of the git credential helper",
			wantErrIs: transport.ErrAuthenticationRequired,
		},
		{
			name:       "helper without credentials",
			serverUser: "me", serverPassword: helperPassword,
			helper:    helperAnswer{},
			wantCalls: []string{"fill"},
			wantErr:   "the git credential helper has none for 127.0.0.1",
			wantErrIs: transport.ErrAuthenticationRequired,
		},
		{
			name:       "helper failing",
			serverUser: "me", serverPassword: helperPassword,
			helper:    helperAnswer{fillErr: errors.New("exit status 128: fatal: could not read Username: terminal prompts disabled")},
			wantCalls: []string{"fill"},
			wantErr:   "terminal prompts disabled); set GITHUB_TOKEN",
			wantErrIs: transport.ErrAuthenticationRequired,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			g := newGitHTTP(t, f.remote, tt.serverUser, tt.serverPassword)
			g.setFail(tt.status)
			opts := f.options()
			opts.URL = g.repoURL()
			s := f.syncer(opts)
			helper := &fakeHelper{user: tt.helper.user, password: tt.helper.password, fillErr: tt.helper.fillErr}
			s.credentials.run = helper.run

			res, err := s.Initialize(t.Context())
			calls, inputs := helper.recorded()
			if !slices.Equal(calls, tt.wantCalls) {
				t.Errorf("helper calls: got %q, want %q", calls, tt.wantCalls)
			}
			for i, in := range inputs {
				if want := "protocol=http\nhost=" + strings.TrimPrefix(g.URL, "http://") + "\npath=org/skills.git\n"; !strings.HasPrefix(in, want) {
					t.Errorf("input of %s: got %q, want it to start with %q", calls[i], in, want)
				}
				if calls[i] != "fill" && !strings.HasSuffix(in, "username=me\npassword="+helperPassword+"\n\n") {
					t.Errorf("input of %s: got %q, want the helper's credentials", calls[i], in)
				}
			}
			if tt.wantErr == "" {
				if err != nil || !res.Success || res.CommitHash != f.head().String() {
					t.Fatalf("Initialize: got %+v, %v; want success at %s", res, err, f.head())
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, tt.wantErrIs) {
					t.Fatalf("Initialize: got %v, want an error containing %q and wrapping %v", err, tt.wantErr, tt.wantErrIs)
				}
				if !strings.Contains(err.Error(), g.repoURL()) {
					t.Errorf("Initialize error does not name the repository %s: %v", g.repoURL(), err)
				}
				assertNoHelperPassword(t, f, err.Error())
			}
			assertNoHelperPassword(t, f)
		})
	}
}

// TestCredentialHelperCredentialsAreKept: the credentials are asked once per
// process, reused by later syncs, and asked again once when the remote stops
// accepting them.
func TestCredentialHelperCredentialsAreKept(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	g := newGitHTTP(t, f.remote, "me", helperPassword)
	opts := f.options()
	opts.URL = g.repoURL()
	s := f.syncer(opts)
	helper := &fakeHelper{user: "me", password: helperPassword}
	s.credentials.run = helper.run
	if _, err := s.Initialize(t.Context()); err != nil {
		t.Fatalf("Initialize: %v", err)
	}

	f.commit(map[string]string{"skills/new.md": "new\n"})
	f.push(false)
	res, err := s.ForceRefresh(t.Context())
	if err != nil || !res.Updated || res.CommitHash != f.head().String() {
		t.Fatalf("ForceRefresh: got %+v, %v; want updated to %s", res, err, f.head())
	}
	if calls, _ := helper.recorded(); !slices.Equal(calls, []string{"fill", "approve"}) {
		t.Errorf("helper calls after a refresh: got %q, want only the first fill and approve", calls)
	}

	// The password is rotated on the server and in the helper.
	const rotated = "hlp_Rotated_9876543210"
	g.setPassword(rotated)
	helper.mu.Lock()
	helper.password = rotated
	helper.mu.Unlock()
	f.commit(map[string]string{"skills/newer.md": "newer\n"})
	f.push(false)
	res, err = s.ForceRefresh(t.Context())
	if err != nil || res.CommitHash != f.head().String() {
		t.Fatalf("ForceRefresh after rotation: got %+v, %v; want updated to %s", res, err, f.head())
	}
	calls, inputs := helper.recorded()
	if want := []string{"fill", "approve", "reject", "fill", "approve"}; !slices.Equal(calls, want) {
		t.Fatalf("helper calls after rotation: got %q, want %q", calls, want)
	}
	if !strings.Contains(inputs[2], "password="+helperPassword+"\n") || !strings.Contains(inputs[4], "password="+rotated+"\n") {
		t.Errorf("reject and approve inputs: got %q and %q, want the old then the new password", inputs[2], inputs[4])
	}

	// The server now fails with a body echoing the password: the error is
	// redacted, and the same refused credentials are not sent twice.
	g.setFail(http.StatusUnauthorized)
	requests := g.requests.Load()
	_, err = s.ForceRefresh(t.Context())
	if !errors.Is(err, gitsync.ErrUsingCache) || !errors.Is(err, transport.ErrAuthenticationRequired) ||
		!strings.Contains(err.Error(), "gave again the credentials the remote refused") {
		t.Fatalf("ForceRefresh on a refusing server: got %v, want gitsync.ErrUsingCache and a refusal", err)
	}
	if got := g.requests.Load() - requests; got != 1 {
		t.Errorf("requests to a refusing server: got %d, want 1", got)
	}
	if strings.Contains(err.Error(), rotated) || strings.Contains(f.logs.String(), rotated) {
		t.Errorf("the rotated password leaks: %v", err)
	}
	assertNoHelperPassword(t, f, err.Error())
	cfg, rerr := os.ReadFile(filepath.Join(f.dir, ".git", "config"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if strings.Contains(string(cfg), rotated) || !strings.Contains(string(cfg), "url = "+g.repoURL()+"\n") {
		t.Errorf(".git/config: got %q, want the clean origin %s", cfg, g.repoURL())
	}
}

// TestCredentialHelperWithoutGit: with git hidden from PATH (TestMain), the
// default helper cannot run, access stays anonymous, and the error says to set
// GITHUB_TOKEN.
func TestCredentialHelperWithoutGit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	g := newGitHTTP(t, f.remote, "me", helperPassword)
	opts := f.options()
	opts.URL = g.repoURL()
	s := f.syncer(opts)

	_, err := s.Initialize(t.Context())
	const want = "no git binary is on PATH to ask a git credential helper; set GITHUB_TOKEN"
	if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, transport.ErrAuthenticationRequired) {
		t.Fatalf("Initialize: got %v, want ErrAuthenticationRequired containing %q", err, want)
	}
	if !strings.Contains(err.Error(), g.repoURL()) {
		t.Errorf("Initialize error does not name the repository %s: %v", g.repoURL(), err)
	}
	if got := g.requests.Load(); got != 1 {
		t.Errorf("requests: got %d, want 1 anonymous attempt", got)
	}
}
