package engine

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "content")
	tests := []struct {
		name    string
		opts    options
		wantErr string // "" means newSyncer succeeds
	}{
		{name: "minimal", opts: options{Source: gitsync.Source{URL: "https://github.com/org/skills.git", Dir: dir}}},
		{name: "state directory above the clone", opts: options{Source: gitsync.Source{URL: "https://github.com/org/skills.git", Dir: dir, StateDir: root}}},
		{name: "sibling state directory", opts: options{Source: gitsync.Source{URL: "/srv/skills", Dir: dir, StateDir: dir + "-state"}}},
		{name: "empty URL", opts: options{Source: gitsync.Source{URL: "  ", Dir: dir}}, wantErr: "SKILLS_REPO is empty"},
		{name: "empty directory", opts: options{Source: gitsync.Source{URL: "https://github.com/org/skills.git"}}, wantErr: "content directory is empty"},
		{name: "state directory is the clone", opts: options{Source: gitsync.Source{URL: "/srv/skills", Dir: dir, StateDir: dir}}, wantErr: "inside the content directory"},
		{name: "state directory inside the clone", opts: options{Source: gitsync.Source{URL: "/srv/skills", Dir: dir, StateDir: filepath.Join(dir, ".state")}}, wantErr: "inside the content directory"},
		{name: "invalid branch", opts: options{Source: gitsync.Source{URL: "/srv/skills", Dir: dir, Branch: "bad..name"}}, wantErr: "invalid branch name"},
		{name: "option-like branch", opts: options{Source: gitsync.Source{URL: "/srv/skills", Dir: dir, Branch: "-x"}}, wantErr: "invalid branch name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := newSyncer(tt.opts)
			if tt.wantErr == "" {
				if err != nil || s == nil {
					t.Fatalf("New: got %v, want a syncer", err)
				}
				if s.Head() != "" || !s.LastSync().IsZero() {
					t.Errorf("new syncer: got head %q and last sync %v, want none", s.Head(), s.LastSync())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, core.ErrInvalidArgument) {
				t.Errorf("New: got %v, want ErrInvalidArgument containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestRemoteAccess(t *testing.T) {
	t.Parallel()
	abs, err := filepath.Abs("relative/skills")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		raw      string
		token    string
		wantURL  string
		wantUser string // "" means no auth
		wantPass string
	}{
		{name: "https with token", raw: "https://github.com/org/skills.git", token: "tok", wantURL: "https://github.com/org/skills.git", wantUser: tokenUser, wantPass: "tok"},
		{name: "https without token", raw: "https://github.com/org/skills.git", wantURL: "https://github.com/org/skills.git"},
		{name: "credentials in the URL", raw: "https://me:pw@github.com/org/skills.git", wantURL: "https://github.com/org/skills.git", wantUser: "me", wantPass: "pw"},
		{name: "token wins over URL credentials", raw: "https://me:pw@github.com/org/skills.git", token: "tok", wantURL: "https://github.com/org/skills.git", wantUser: tokenUser, wantPass: "tok"},
		{name: "relative local path", raw: "relative/skills", token: "tok", wantURL: abs},
		{name: "file URL", raw: "file:///srv/skills.git", wantURL: "file:///srv/skills.git"},
		{name: "scp-like ssh", raw: "git@github.com:org/skills.git", token: "tok", wantURL: "git@github.com:org/skills.git"},
		{name: "ssh URL with password", raw: "ssh://git:pw@github.com/org/skills.git", wantURL: "ssh://git@github.com/org/skills.git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotURL, auth, err := remoteAccess(tt.raw, tt.token, hclog.NewNullLogger())
			if err != nil {
				t.Fatalf("remoteAccess: %v", err)
			}
			if gotURL != tt.wantURL {
				t.Errorf("URL: got %q, want %q", gotURL, tt.wantURL)
			}
			if tt.wantUser == "" {
				if auth != nil {
					t.Errorf("auth: got %v, want none", auth)
				}
				return
			}
			basic, ok := auth.(*githttp.BasicAuth)
			if !ok || basic.Username != tt.wantUser || basic.Password != tt.wantPass {
				t.Errorf("auth: got %#v, want basic %s:%s", auth, tt.wantUser, tt.wantPass)
			}
		})
	}
}
