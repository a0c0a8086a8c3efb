package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// pin is SKILLS_REF: a tag or a full commit hash the copy stays at, whatever
// the remote's branches do. A pinned copy moves only when the pin changes.
type pin struct {
	raw    string        // as the operator wrote it, for messages
	commit plumbing.Hash // a commit pin; zero for a tag
	tag    string        // a tag pin's short name; "" for a commit
}

// parsePin reads SKILLS_REF: a full hex commit hash, or a tag (`v1.2`,
// `refs/tags/v1.2`). A branch is refused: it moves, which SKILLS_BRANCH is for.
func parsePin(raw string) (*pin, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	if plumbing.IsHash(raw) && len(raw) == 40 {
		return &pin{raw: raw, commit: plumbing.NewHash(strings.ToLower(raw))}, nil
	}
	name := raw
	switch {
	case strings.HasPrefix(raw, "refs/tags/"):
		name = strings.TrimPrefix(raw, "refs/tags/")
	case strings.HasPrefix(raw, "refs/heads/"), strings.HasPrefix(raw, "refs/remotes/"):
		return nil, fmt.Errorf("SKILLS_REF=%q names a branch, which moves: SKILLS_REF pins a tag or a full commit hash; "+
			"set SKILLS_BRANCH to follow a branch: %w", raw, core.ErrInvalidArgument)
	case strings.HasPrefix(raw, "refs/"):
		return nil, fmt.Errorf("SKILLS_REF=%q: want a tag (v1.2 or refs/tags/v1.2) or a full 40-hex commit hash: %w", raw, core.ErrInvalidArgument)
	}
	if name == "" || strings.HasPrefix(name, "-") || plumbing.NewTagReferenceName(name).Validate() != nil {
		return nil, fmt.Errorf("SKILLS_REF=%q is not a valid tag name or full commit hash: %w", raw, core.ErrInvalidArgument)
	}
	return &pin{raw: raw, tag: name}, nil
}

// String is the pin as the operator gave it.
func (p *pin) String() string { return p.raw }

// localTag is where the clone records the commit a tag pin resolved to the
// first time: refs/tags/<tag>, never moved by a later fetch.
func (p *pin) localTag() plumbing.ReferenceName { return plumbing.NewTagReferenceName(p.tag) }

// remoteTag is where each fetch puts what the remote's tag says now.
func (p *pin) remoteTag() plumbing.ReferenceName {
	return plumbing.ReferenceName("refs/skills-mcp/remote-tags/" + p.tag)
}

// searchRefSpecs fetch every branch and tag of the remote into a namespace of
// their own: where a commit pin is looked for when the remote does not send a
// commit by its hash alone (no allow-reachable-sha1-in-want).
var searchRefSpecs = []config.RefSpec{
	"+refs/heads/*:refs/skills-mcp/search/heads/*",
	"+refs/tags/*:refs/skills-mcp/search/tags/*",
}

// fetchPin fetches what the pin needs and returns the commit to serve. A
// commit already in the clone needs no network. A tag is fetched every time,
// so a tag moved on the remote is noticed (and logged), but the commit the
// clone first resolved it to stays the one served.
func (s *syncer) fetchPin(ctx context.Context) (plumbing.Hash, error) {
	p := s.pin
	if !p.commit.IsZero() {
		if _, err := s.repo.CommitObject(p.commit); err == nil {
			return p.commit, nil
		}
		err := s.fetchSpecs(ctx, []config.RefSpec{config.RefSpec(p.commit.String() + ":refs/skills-mcp/pin")})
		if err != nil && !errors.Is(err, gitsync.ErrRefNotFound) {
			s.log.Debug("the remote did not send the pinned commit by its hash; looking for it in its branches and tags", "ref", p.raw, "error", err)
			if err = s.fetchSpecs(ctx, searchRefSpecs); err != nil && !errors.Is(err, gitsync.ErrRefNotFound) {
				return plumbing.ZeroHash, err
			}
		}
		if _, err := s.repo.CommitObject(p.commit); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("SKILLS_REF=%s names no commit of %s (a commit pin must be reachable from a branch or tag of the remote): %w",
				p.raw, redactURL(s.url), gitsync.ErrRefNotFound)
		}
		return p.commit, nil
	}
	spec := config.RefSpec(fmt.Sprintf("+%s:%s", plumbing.NewTagReferenceName(p.tag), p.remoteTag()))
	if err := s.fetchSpecs(ctx, []config.RefSpec{spec}); err != nil {
		if errors.Is(err, gitsync.ErrRefNotFound) {
			return plumbing.ZeroHash, fmt.Errorf("SKILLS_REF=%s names no tag of %s (a commit pin needs the full 40-hex hash): %w", p.raw, redactURL(s.url), gitsync.ErrRefNotFound)
		}
		return plumbing.ZeroHash, err
	}
	remote, err := s.repo.Reference(p.remoteTag(), false)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading %s after fetch: %w", p.remoteTag(), s.red.wrap(err))
	}
	remoteCommit, err := s.peel(remote.Hash())
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("SKILLS_REF=%s: %w", p.raw, err)
	}
	local, err := s.repo.Reference(p.localTag(), false)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		if err := s.repo.Storer.SetReference(plumbing.NewHashReference(p.localTag(), remote.Hash())); err != nil {
			return plumbing.ZeroHash, fmt.Errorf("recording tag %s: %w", p.tag, s.red.wrap(err))
		}
		return remoteCommit, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading %s: %w", p.localTag(), s.red.wrap(err))
	}
	pinned, err := s.peel(local.Hash())
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("SKILLS_REF=%s: %w", p.raw, err)
	}
	if pinned != remoteCommit {
		s.log.Warn("the pinned tag moved on the remote; staying at the commit it named when this copy first resolved it (a pinned server moves only when SKILLS_REF changes)",
			"ref", p.raw, "pinned", pinned.String(), "remote_now", remoteCommit.String())
	}
	return pinned, nil
}

// fetchSpecs fetches specs from origin, without tags beyond those named. An
// up-to-date remote is a success; a ref the remote does not have wraps
// gitsync.ErrRefNotFound.
func (s *syncer) fetchSpecs(ctx context.Context, specs []config.RefSpec) error {
	opCtx, cancel := s.opContext(ctx)
	defer cancel()
	err := s.withCredentials(opCtx, func(auth transport.AuthMethod) error {
		return s.repo.FetchContext(opCtx, &git.FetchOptions{
			RemoteName: git.DefaultRemoteName,
			RefSpecs:   specs,
			Auth:       auth,
			Force:      true,
			Tags:       git.NoTags,
		})
	})
	err = s.timeoutError(opCtx, err)
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
		return nil
	case isNoMatchingRef(err):
		return fmt.Errorf("fetching %s: %w: %w", redactURL(s.url), gitsync.ErrRefNotFound, s.red.wrap(err))
	default:
		return fmt.Errorf("fetching %s: %w", redactURL(s.url), s.red.wrap(err))
	}
}

// isNoMatchingRef reports go-git's "the remote has no such ref" errors.
func isNoMatchingRef(err error) bool {
	var noMatch git.NoMatchingRefSpecError
	return errors.As(err, &noMatch)
}

// peel follows annotated tags to the commit they name.
func (s *syncer) peel(h plumbing.Hash) (plumbing.Hash, error) {
	for range 10 {
		obj, err := s.repo.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading object %s: %w", h, err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			tag, err := object.DecodeTag(s.repo.Storer, obj)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("reading tag %s: %w", h, err)
			}
			h = tag.Target
		default:
			return plumbing.ZeroHash, fmt.Errorf("%s is a %s, not a commit", h, obj.Type())
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("tag %s: too many levels of tags", h)
}

// pinnedCommit is the commit the pin names as far as the clone knows without
// the network: a commit pin's hash, a tag pin's recorded resolution; "" when
// unknown or without a pin.
func (s *syncer) pinnedCommit() string {
	switch {
	case s.pin == nil || s.repo == nil:
		return ""
	case !s.pin.commit.IsZero():
		return s.pin.commit.String()
	}
	ref, err := s.repo.Reference(s.pin.localTag(), false)
	if err != nil {
		return ""
	}
	h, err := s.peel(ref.Hash())
	if err != nil {
		return ""
	}
	return h.String()
}
