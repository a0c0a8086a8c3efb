package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// With SKILLS_VERIFY=signed the worktree only ever holds a commit whose
// signature verified: a new copy is fetched into an empty repository (never
// cloned, which would check the head out first), a head that does not verify
// is never checked out, and an existing copy whose HEAD no longer verifies
// (verification turned on, a key removed from the list) is emptied before
// anything reads it.

// Signer returns the allowed signer of the served commit, "" when it is not
// verified or verification is off.
func (s *syncer) Signer() string {
	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	return s.signer
}

// Verified reports whether the served commit's signature verified.
func (s *syncer) Verified() bool { return s.verifier != nil && s.Signer() != "" }

// verifyHead checks h's signature when verification is on; on success it
// records the signer. nil means h may be served.
func (s *syncer) verifyHead(h plumbing.Hash) *gitsync.Refusal {
	if s.verifier == nil {
		return nil
	}
	c, err := s.repo.CommitObject(h)
	if err != nil {
		return &gitsync.Refusal{Commit: h.String(), Reason: "cannot read the commit: " + s.red.wrap(err).Error()}
	}
	signer, refused := s.verifier.verifyCommit(c)
	if refused != nil {
		return refused
	}
	s.stateMu.Lock()
	s.signer = signer
	s.stateMu.Unlock()
	return nil
}

// refused keeps old served (or nothing) instead of head and says why, in the
// log and the result.
func (s *syncer) refused(old, head plumbing.Hash, r *gitsync.Refusal) (gitsync.Result, error) {
	res := gitsync.Result{Refused: r, Target: head.String(), LastSync: s.LastSync()}
	if old.IsZero() {
		s.log.Error("no verified commit to serve: the remote's commit is refused, so no skills are served until a verified one arrives",
			"commit", r.Commit, "signer", r.Signer, "reason", r.Reason)
		return res, fmt.Errorf("%s; no verified commit is served: %w", r, gitsync.ErrUnverified)
	}
	s.log.Warn("the remote's commit is refused; the last verified commit stays served",
		"commit", r.Commit, "signer", r.Signer, "reason", r.Reason, "serving", old.String())
	res.CommitHash, res.Verified, res.Signer = old.String(), true, s.Signer()
	return res, fmt.Errorf("%s; serving the last verified commit %s: %w", r, old, gitsync.ErrRefused)
}

// checkServed verifies the HEAD of a copy just opened. One that does not
// verify is unserved: HEAD is left unborn and the worktree emptied, so
// nothing unverified is read from it.
func (s *syncer) checkServed() error {
	if s.verifier == nil {
		return nil
	}
	head := s.localHead()
	if head.IsZero() {
		return nil
	}
	r := s.verifyHead(head)
	if r == nil {
		return nil
	}
	s.log.Error("the cached copy's commit is refused; emptying it, so nothing is served until a verified commit arrives",
		"commit", r.Commit, "signer", r.Signer, "reason", r.Reason)
	return s.unserve()
}

// unserve leaves HEAD unborn and the index and worktree empty (.git kept).
func (s *syncer) unserve() error {
	branch := plumbing.NewBranchReferenceName(s.branch)
	if err := s.repo.Storer.RemoveReference(branch); err != nil {
		return fmt.Errorf("removing %s: %w", branch, s.red.wrap(err))
	}
	if err := s.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, branch)); err != nil {
		return fmt.Errorf("pointing HEAD at %s: %w", branch, s.red.wrap(err))
	}
	if err := s.repo.Storer.SetIndex(&index.Index{Version: 2}); err != nil {
		return fmt.Errorf("emptying the index of %s: %w", s.dir, s.red.wrap(err))
	}
	s.stateMu.Lock()
	s.head, s.signer = plumbing.ZeroHash, ""
	s.stateMu.Unlock()
	return s.removeUntracked()
}

// VerifyCache verifies the HEAD of an existing copy without any network,
// and empties a copy whose HEAD does not verify; with verification off, or
// no copy yet, it does nothing. serve calls it before it may read the copy,
// so a copy made before verification was turned on is never served.
func (s *syncer) VerifyCache(ctx context.Context) (gitsync.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.verifier == nil || ctx.Err() != nil {
		return gitsync.Result{}, ctx.Err()
	}
	if s.repo == nil {
		entries, err := os.ReadDir(s.dir)
		if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
			return gitsync.Result{}, nil
		}
		repo, err := s.openExisting()
		if err != nil {
			return gitsync.Result{}, err
		}
		s.repo = repo
		s.setHead(s.localHead())
		s.restoreState()
	}
	if err := s.checkServed(); err != nil {
		return gitsync.Result{}, err
	}
	head := s.Head()
	return gitsync.Result{Success: head != "", CommitHash: head, Verified: s.Verified(), Signer: s.Signer(), LastSync: s.LastSync()}, nil
}
