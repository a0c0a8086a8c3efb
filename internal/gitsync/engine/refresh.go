package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// Initialize brings Dir to the remote head (spec 000 §9.1): it clones into a
// missing or empty Dir, or fetches and hard-resets an existing clone of URL.
//
// When the remote cannot be reached but a clone exists, it logs a warning and
// returns Success false, the cached head and an error wrapping gitsync.ErrUsingCache: the
// caller serves the cache. Any other error means there is nothing to serve; a
// non-empty Dir that is not a clone of URL gives gitsync.ErrForeignDir and is not touched.
func (s *syncer) Initialize(ctx context.Context) (gitsync.Result, error) {
	s.mu.Lock()
	res, err := s.syncLocked(ctx)
	s.mu.Unlock()
	if err != nil && !errors.Is(err, gitsync.ErrUsingCache) {
		return res, fmt.Errorf("initializing skills repository %s in %s: %w", redactURL(s.url), s.dir, err)
	}
	return res, err
}

// ForceRefresh fetches the branch and hard-resets Dir to it (spec 000 §9.4).
// If a sync is already running it returns at once gitsync.Result{Success: false} and
// core.ErrRefreshInProgress (§9.5). When the remote is unreachable the previous
// state is kept and the error wraps gitsync.ErrUsingCache.
func (s *syncer) ForceRefresh(ctx context.Context) (gitsync.Result, error) {
	if !s.mu.TryLock() {
		return gitsync.Result{Success: false}, core.ErrRefreshInProgress
	}
	res, err := s.syncLocked(ctx)
	s.mu.Unlock()
	return res, err
}

// syncLocked opens or clones the repository if needed, then fetches and resets.
// s.mu must be held.
func (s *syncer) syncLocked(ctx context.Context) (gitsync.Result, error) {
	if s.beforeSync != nil {
		s.beforeSync()
	}
	if s.repo == nil {
		repo, cloned, err := s.openOrClone(ctx)
		if err != nil {
			return gitsync.Result{}, err
		}
		s.repo = repo
		if cloned {
			return s.succeeded(ctx, plumbing.ZeroHash, s.localHead())
		}
		s.setHead(s.localHead())
		s.restoreState()
		if err := s.checkServed(); err != nil {
			return gitsync.Result{}, err
		}
	}
	old := s.localHead()
	if err := ctx.Err(); err != nil {
		return s.failed(old, err)
	}
	var head plumbing.Hash
	var err error
	if s.pin != nil {
		head, err = s.fetchPin(ctx)
	} else {
		head, err = s.fetch(ctx)
	}
	if err != nil {
		return s.failed(old, err)
	}
	if refused := s.verifyHead(head); refused != nil {
		return s.refused(old, head, refused)
	}
	if err := s.resetTo(head); err != nil {
		return s.failed(old, err)
	}
	return s.succeeded(ctx, old, head)
}

// fetch updates refs/remotes/origin/<branch> and returns its hash. An
// up-to-date remote is a success.
func (s *syncer) fetch(ctx context.Context) (plumbing.Hash, error) {
	opCtx, cancel := s.opContext(ctx)
	defer cancel()
	err := s.withCredentials(opCtx, func(auth transport.AuthMethod) error {
		return s.repo.FetchContext(opCtx, &git.FetchOptions{
			RemoteName: git.DefaultRemoteName,
			RefSpecs:   []config.RefSpec{s.refSpec()},
			Auth:       auth,
			Force:      true,
			Tags:       git.NoTags,
		})
	})
	err = s.timeoutError(opCtx, err)
	if isNoMatchingRef(err) {
		return plumbing.ZeroHash, s.missingBranch(ctx)
	}
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return plumbing.ZeroHash, fmt.Errorf("fetching branch %s: %w", s.branch, s.red.wrap(err))
	}
	ref, err := s.repo.Reference(s.trackingRef(), true)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading %s after fetch: %w", s.trackingRef(), s.red.wrap(err))
	}
	return ref.Hash(), nil
}

// resetTo points the local branch and HEAD at h (HEAD alone, detached, for a
// pin), hard-resets the index and the worktree, and removes every file the
// commit does not track.
func (s *syncer) resetTo(h plumbing.Hash) error {
	if s.pin != nil {
		if err := s.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, h)); err != nil {
			return fmt.Errorf("pointing HEAD at %s: %w", h, s.red.wrap(err))
		}
		return s.checkout(h)
	}
	branch := plumbing.NewBranchReferenceName(s.branch)
	if err := s.repo.Storer.SetReference(plumbing.NewHashReference(branch, h)); err != nil {
		return fmt.Errorf("moving %s to %s: %w", branch, h, s.red.wrap(err))
	}
	if err := s.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, branch)); err != nil {
		return fmt.Errorf("pointing HEAD at %s: %w", branch, s.red.wrap(err))
	}
	return s.checkout(h)
}

// checkout hard-resets the index and the worktree to h and removes every
// file h does not track.
func (s *syncer) checkout(h plumbing.Hash) error {
	wt, err := s.repo.Worktree()
	if err != nil {
		return fmt.Errorf("opening the worktree of %s: %w", s.dir, s.red.wrap(err))
	}
	if err := wt.Reset(&git.ResetOptions{Commit: h, Mode: git.HardReset}); err != nil {
		return fmt.Errorf("resetting %s to %s: %w", s.dir, h, s.red.wrap(err))
	}
	return s.removeUntracked()
}

// localHead returns the commit HEAD resolves to, the zero hash when it does not.
func (s *syncer) localHead() plumbing.Hash {
	ref, err := s.repo.Head()
	if err != nil {
		return plumbing.ZeroHash
	}
	return ref.Hash()
}

// succeeded records a sync that ended at head and builds its gitsync.Result.
func (s *syncer) succeeded(ctx context.Context, old, head plumbing.Hash) (gitsync.Result, error) {
	now := s.now()
	res := gitsync.Result{Success: true, Updated: old != head, CommitHash: head.String(), LastSync: now}
	res.Verified, res.Signer = s.verifier != nil, s.Signer()
	if s.pin != nil {
		res.Target = head.String()
	}
	if res.Updated {
		n, err := s.countChanges(ctx, old, head)
		if err != nil {
			s.log.Warn("cannot count the changed files", "from", old.String(), "to", head.String(), "error", s.red.wrap(err))
		}
		res.FilesChanged = n
		s.log.Info("skills repository updated", "from", old.String(), "to", head.String(), "files_changed", n)
	} else {
		s.log.Debug("skills repository unchanged", "head", head.String())
	}
	s.setSynced(head, now)
	s.saveState(head, now)
	return res, nil
}

// failed keeps the previous state. With a usable head the cache is served and
// the error wraps gitsync.ErrUsingCache; without one there is nothing to serve.
func (s *syncer) failed(old plumbing.Hash, cause error) (gitsync.Result, error) {
	cause = s.red.wrap(cause)
	if old.IsZero() {
		return gitsync.Result{}, cause
	}
	s.log.Warn("skills repository sync failed; serving the cached copy",
		"url", redactURL(s.url), "dir", s.dir, "head", old.String(), "error", cause)
	res := gitsync.Result{Success: false, CommitHash: old.String(), LastSync: s.LastSync(), Verified: s.Verified(), Signer: s.Signer(), Target: s.pinnedCommit()}
	return res, fmt.Errorf("syncing %s: %w: %w", redactURL(s.url), gitsync.ErrUsingCache, cause)
}

// countChanges counts the files differing between the trees of two commits,
// with rename detection as git diff does by default. A zero old counts every file.
func (s *syncer) countChanges(ctx context.Context, old, head plumbing.Hash) (int, error) {
	var from *object.Tree
	if !old.IsZero() {
		c, err := s.repo.CommitObject(old)
		if err != nil {
			return 0, fmt.Errorf("reading commit %s: %w", old, err)
		}
		if from, err = c.Tree(); err != nil {
			return 0, fmt.Errorf("reading the tree of %s: %w", old, err)
		}
	}
	c, err := s.repo.CommitObject(head)
	if err != nil {
		return 0, fmt.Errorf("reading commit %s: %w", head, err)
	}
	to, err := c.Tree()
	if err != nil {
		return 0, fmt.Errorf("reading the tree of %s: %w", head, err)
	}
	changes, err := object.DiffTreeWithOptions(ctx, from, to, object.DefaultDiffTreeOptions)
	if err != nil {
		return 0, fmt.Errorf("diffing %s..%s: %w", old, head, err)
	}
	return len(changes), nil
}
