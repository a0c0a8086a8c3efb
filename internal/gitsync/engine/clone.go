package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// openOrClone returns the repository in s.dir (spec 000 §9.1): the existing clone
// when its origin is s.url, a fresh single-branch clone when the directory is
// missing or empty, and gitsync.ErrForeignDir for anything else, which it leaves as is.
func (s *syncer) openOrClone(ctx context.Context) (repo *git.Repository, cloned bool, err error) {
	fi, err := os.Stat(s.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		repo, err := s.clone(ctx)
		return repo, !s.fetchFirst(), err
	case err != nil:
		return nil, false, fmt.Errorf("inspecting content directory %s: %w", s.dir, err)
	case !fi.IsDir():
		return nil, false, s.foreign("it is not a directory")
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, false, fmt.Errorf("reading content directory %s: %w", s.dir, err)
	}
	if len(entries) == 0 {
		repo, err := s.clone(ctx)
		return repo, !s.fetchFirst(), err
	}
	repo, err = s.openExisting()
	return repo, false, err
}

// openExisting opens s.dir and checks that it is a non-bare clone of s.url.
func (s *syncer) openExisting() (*git.Repository, error) {
	repo, err := git.PlainOpen(s.dir)
	if err != nil {
		return nil, s.foreign("it is not a git repository (" + s.red.wrap(err).Error() + ")")
	}
	if _, err := repo.Worktree(); err != nil {
		return nil, s.foreign("it is a bare git repository")
	}
	cfg, err := repo.Config()
	if err != nil {
		return nil, s.foreign("its git configuration is unreadable (" + s.red.wrap(err).Error() + ")")
	}
	origin, ok := cfg.Remotes[git.DefaultRemoteName]
	if !ok || len(origin.URLs) == 0 {
		return nil, s.foreign("it is a git repository without an origin remote")
	}
	if !sameRemote(origin.URLs[0], s.url) {
		return nil, s.foreign(fmt.Sprintf("it is a clone of %s, not of %s", redactURL(origin.URLs[0]), redactURL(s.url)))
	}
	if origin.URLs[0] != s.url || len(origin.URLs) > 1 {
		// Same repository under another spelling, possibly with a token in it
		// (older versions stored https://x-access-token:TOKEN@…): store the clean URL.
		origin.URLs = []string{s.url}
		if err := repo.SetConfig(cfg); err != nil {
			return nil, fmt.Errorf("updating origin of %s: %w", s.dir, s.red.wrap(err))
		}
		s.log.Info("rewrote the origin URL of the cache", "dir", s.dir, "url", redactURL(s.url))
	}
	return repo, nil
}

// clone makes a single-branch clone of s.url into s.dir. On failure go-git
// removes what it created: the directory when it did not exist, its content
// when it was empty; so a clone refused anonymously can be tried again with
// the credential helper's answer.
func (s *syncer) clone(ctx context.Context) (*git.Repository, error) {
	if s.fetchFirst() {
		return s.initEmpty()
	}
	s.log.Info("cloning skills repository", "url", redactURL(s.url), "branch", s.branch, "dir", s.dir)
	var repo *git.Repository
	opCtx, cancel := s.opContext(ctx)
	defer cancel()
	err := s.withCredentials(opCtx, func(auth transport.AuthMethod) error {
		var err error
		repo, err = git.PlainCloneContext(opCtx, s.dir, false, &git.CloneOptions{
			URL:           s.url,
			Auth:          auth,
			RemoteName:    git.DefaultRemoteName,
			ReferenceName: plumbing.NewBranchReferenceName(s.branch),
			SingleBranch:  true,
			Tags:          git.NoTags,
		})
		return err
	})
	err = s.timeoutError(opCtx, err)
	if isNoMatchingRef(err) {
		return nil, s.missingBranch(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("cloning %s (branch %s) into %s: %w", redactURL(s.url), s.branch, s.dir, s.red.wrap(err))
	}
	return repo, nil
}

// fetchFirst reports whether a new copy starts as an empty repository that
// syncLocked fetches into, rather than a clone: a pin (a commit cannot be
// cloned by its hash) and verification (a clone would check out the head
// before its signature is checked).
func (s *syncer) fetchFirst() bool { return s.pin != nil || s.verifier != nil }

// initEmpty makes an empty repository in s.dir with origin at s.url, for
// syncLocked to fetch into. A failed first fetch leaves the empty
// repository, which the next sync opens as a clone of s.url.
func (s *syncer) initEmpty() (*git.Repository, error) {
	s.log.Info("fetching the skills repository", "url", redactURL(s.url), "ref", s.pinName(), "branch", s.branch, "dir", s.dir)
	repo, err := git.PlainInit(s.dir, false)
	if err != nil {
		return nil, fmt.Errorf("creating the repository in %s: %w", s.dir, s.red.wrap(err))
	}
	if _, err := repo.CreateRemote(&config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{s.url}}); err != nil {
		return nil, fmt.Errorf("adding origin %s to %s: %w", redactURL(s.url), s.dir, s.red.wrap(err))
	}
	return repo, nil
}

// foreign builds the error for a directory this package must not touch.
func (s *syncer) foreign(why string) error {
	return fmt.Errorf("content directory %s cannot hold the skills repository %s: %s; "+
		"remove the directory or set SKILLS_CACHE_DIR to another one: %w", s.dir, redactURL(s.url), why, gitsync.ErrForeignDir)
}

// refSpec fetches the one followed branch, forced: a force-pushed remote wins.
func (s *syncer) refSpec() config.RefSpec {
	return config.RefSpec(fmt.Sprintf("+%s:%s", plumbing.NewBranchReferenceName(s.branch), s.trackingRef()))
}

// trackingRef is refs/remotes/origin/<branch>.
func (s *syncer) trackingRef() plumbing.ReferenceName {
	return plumbing.NewRemoteReferenceName(git.DefaultRemoteName, s.branch)
}
