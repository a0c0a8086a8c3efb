package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// tag creates (or, with force, moves) tag name at h in the work repository
// and pushes it; annotated makes a tag object instead of a lightweight tag.
func (f *fixture) tag(name string, h plumbing.Hash, annotated, force bool) {
	f.t.Helper()
	ref := plumbing.NewTagReferenceName(name)
	if force {
		_ = f.work.DeleteTag(name)
	}
	var opts *git.CreateTagOptions
	if annotated {
		opts = &git.CreateTagOptions{Message: "release " + name, Tagger: &object.Signature{Name: "Test", Email: "test@example.com"}}
	}
	if _, err := f.work.CreateTag(name, h, opts); err != nil {
		f.t.Fatalf("tag %s: %v", name, err)
	}
	spec := config.RefSpec(ref + ":" + ref)
	if force {
		spec = "+" + spec
	}
	if err := f.work.Push(&git.PushOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}}); err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		f.t.Fatalf("push tag %s: %v", name, err)
	}
}

func TestParsePin(t *testing.T) {
	t.Parallel()
	hash := strings.Repeat("ab", 20)
	tests := []struct {
		name, raw string
		wantTag   string
		wantHash  string
		wantErr   string // "" means valid
	}{
		{name: "empty is no pin", raw: ""},
		{name: "tag", raw: "v1.2", wantTag: "v1.2"},
		{name: "full tag ref", raw: "refs/tags/v1.2", wantTag: "v1.2"},
		{name: "commit", raw: hash, wantHash: hash},
		{name: "upper-case commit", raw: strings.ToUpper(hash), wantHash: hash},
		{name: "short hex is a tag name", raw: "abc1234", wantTag: "abc1234"},
		{name: "branch ref", raw: "refs/heads/main", wantErr: "names a branch"},
		{name: "other ref", raw: "refs/notes/x", wantErr: "want a tag"},
		{name: "invalid tag", raw: "bad..tag", wantErr: "not a valid tag name"},
		{name: "option-like", raw: "-x", wantErr: "not a valid tag name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePin(tt.raw)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, core.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.raw) {
					t.Fatalf("parsePin(%q): got %v, want ErrInvalidArgument naming the ref and %q", tt.raw, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parsePin(%q): %v", tt.raw, err)
			}
			if tt.raw == "" {
				if p != nil {
					t.Fatalf("parsePin(\"\") = %v, want nil", p)
				}
				return
			}
			if p.tag != tt.wantTag || (tt.wantHash != "" && p.commit.String() != tt.wantHash) || (tt.wantHash == "" && !p.commit.IsZero()) {
				t.Errorf("parsePin(%q) = tag %q commit %s, want tag %q commit %q", tt.raw, p.tag, p.commit, tt.wantTag, tt.wantHash)
			}
		})
	}
}

// A pinned copy stays at its pin whatever the branch or the tag do on the
// remote, across restarts, and moves when the pin changes.
func TestPinnedCopyNeverMoves(t *testing.T) {
	t.Parallel()
	for _, annotated := range []bool{false, true} {
		name := "lightweight tag"
		if annotated {
			name = "annotated tag"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			v1 := f.head()
			f.tag("v1", v1, annotated, false)
			f.commit(map[string]string{"skills/new.md": "---\ntitle: New\n---\nNew.\n"})
			f.push(false)

			opts := f.options()
			opts.Ref = "v1"
			opts.Branch = "main"
			s := f.syncer(opts)
			res, err := s.Initialize(t.Context())
			if err != nil || res.CommitHash != v1.String() {
				t.Fatalf("Initialize with SKILLS_REF=v1: got %+v, %v; want commit %s", res, err, v1)
			}
			if _, ok := readTree(t, f.dir)["skills/new.md"]; ok {
				t.Fatal("the pinned copy holds a file of the branch head")
			}

			// The branch moves, and the tag is moved on the remote: the pin holds.
			v3 := f.commit(map[string]string{"skills/later.md": "later\n"})
			f.push(false)
			f.tag("v1", v3, annotated, true)
			res, err = s.ForceRefresh(t.Context())
			if err != nil || res.CommitHash != v1.String() || res.Updated {
				t.Fatalf("refresh after the tag moved: got %+v, %v; want %s, not updated", res, err, v1)
			}
			if !strings.Contains(f.logs.String(), "the pinned tag moved on the remote") {
				t.Errorf("no warning about the moved tag in the log:\n%s", f.logs)
			}

			// A restart with the same pin serves the same commit.
			res, err = f.syncer(opts).Initialize(t.Context())
			if err != nil || res.CommitHash != v1.String() {
				t.Fatalf("restart with the same pin: got %+v, %v; want %s", res, err, v1)
			}

			// The pin changes: the copy moves to the new pin.
			f.tag("v3", v3, annotated, false)
			opts.Ref = "refs/tags/v3"
			res, err = f.syncer(opts).Initialize(t.Context())
			if err != nil || res.CommitHash != v3.String() || !res.Updated {
				t.Fatalf("restart with SKILLS_REF=v3: got %+v, %v; want %s, updated", res, err, v3)
			}
			if _, ok := readTree(t, f.dir)["skills/later.md"]; !ok {
				t.Error("the copy at v3 lacks skills/later.md")
			}

			// Back to the branch: the copy follows it again.
			opts.Ref = ""
			res, err = f.syncer(opts).Initialize(t.Context())
			if err != nil || res.CommitHash != v3.String() {
				t.Fatalf("back to the branch: got %+v, %v; want the branch head %s", res, err, v3)
			}
		})
	}
}

// A commit pin that is not the tip of any branch is found in the remote's
// history (go-git's own server sends no commit by its hash alone), and a
// refresh needs no network once the commit is in the clone.
func TestPinnedCommit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	first := f.head()
	f.commit(map[string]string{"skills/new.md": "new\n"})
	f.push(false)
	opts := f.options()
	opts.Ref = first.String()
	s := f.syncer(opts)
	res, err := s.Initialize(t.Context())
	if err != nil || res.CommitHash != first.String() {
		t.Fatalf("Initialize with a commit pin: got %+v, %v; want %s", res, err, first)
	}
	f.commit(map[string]string{"skills/more.md": "more\n"})
	f.push(false)
	res, err = s.ForceRefresh(t.Context())
	if err != nil || res.CommitHash != first.String() || res.Updated {
		t.Fatalf("refresh: got %+v, %v; want %s, not updated", res, err, first)
	}
}

// A pin the remote does not have is gitsync.ErrRefNotFound, naming the ref, with no
// cache and with one (the start fails rather than serve the wrong commit).
func TestPinNotOnRemote(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, ref string }{
		{"tag", "v9"},
		{"commit", strings.Repeat("12", 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			opts := f.options()
			opts.Ref = tt.ref
			_, err := f.syncer(opts).Initialize(t.Context())
			if !errors.Is(err, gitsync.ErrRefNotFound) || !strings.Contains(err.Error(), "SKILLS_REF="+tt.ref) {
				t.Fatalf("no cache: got %v, want gitsync.ErrRefNotFound naming SKILLS_REF=%s", err, tt.ref)
			}
			opts.Ref = ""
			if _, err := f.syncer(opts).Initialize(t.Context()); err != nil {
				t.Fatalf("branch sync: %v", err)
			}
			opts.Ref = tt.ref
			_, err = f.syncer(opts).Initialize(t.Context())
			if !errors.Is(err, gitsync.ErrRefNotFound) || !strings.Contains(err.Error(), "SKILLS_REF="+tt.ref) {
				t.Fatalf("with a cache: got %v, want gitsync.ErrRefNotFound naming SKILLS_REF=%s", err, tt.ref)
			}
		})
	}
}
