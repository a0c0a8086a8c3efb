package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// withCredentials runs op, a clone or a fetch, with the credentials of the
// remote. Without GITHUB_TOKEN or URL credentials on an http(s) remote, op
// first runs anonymously (or with the helper's credentials kept from an earlier
// sync); only when the remote refuses it does the git credential helper get
// asked, once, and op run again with its answer (spec 000 §9.2). Credentials
// that work are kept for the process and approved to the helper; refused ones
// are rejected to it and forgotten. A public remote never runs git.
func (s *syncer) withCredentials(ctx context.Context, op func(transport.AuthMethod) error) error {
	h := s.credentials
	if h == nil {
		return op(s.auth)
	}
	var auth transport.AuthMethod
	kept := h.current()
	if kept != nil {
		auth = kept
	}
	err := op(auth)
	if !refusedAccess(err) {
		return err
	}
	if kept != nil {
		s.log.Warn("the remote refused the credentials of the git credential helper; asking it again", "host", h.req.host)
		s.rejectCredential(ctx, h, kept)
	}
	cred, ferr := h.fill(ctx)
	if ferr != nil {
		return s.noCredentialError(h, ferr, err)
	}
	s.red.add(cred.Password)
	if kept != nil && *cred == *kept {
		return fmt.Errorf("the git credential helper gave again the credentials the remote refused; "+
			"update them in the helper or set GITHUB_TOKEN: %w", err)
	}
	s.log.Info("using credentials from the git credential helper", "host", h.req.host)
	err = op(cred)
	switch {
	case err == nil:
		h.keep(cred)
		if aerr := h.approve(ctx, cred); aerr != nil {
			s.log.Debug("git credential approve failed", "error", s.red.wrap(aerr))
		}
		return nil
	case refusedAccess(err):
		s.rejectCredential(ctx, h, cred)
		return fmt.Errorf("the remote refused the credentials of the git credential helper for %s "+
			"(reported to it with git credential reject); update them in the helper or set GITHUB_TOKEN: %w", h.req.host, err)
	default:
		return err
	}
}

// rejectCredential forgets cred and tells the helper it was refused; a failing
// reject is only logged.
func (s *syncer) rejectCredential(ctx context.Context, h *credentialHelper, cred *githttp.BasicAuth) {
	h.keep(nil)
	if err := h.reject(ctx, cred); err != nil {
		s.log.Debug("git credential reject failed", "error", s.red.wrap(err))
	}
}

// noCredentialError explains an anonymous access the remote refused when the
// credential helper had nothing to offer (why), keeping refused in the chain.
func (s *syncer) noCredentialError(h *credentialHelper, why, refused error) error {
	if isNoGit(why) {
		s.log.Debug("no git binary on PATH: no credential helper to ask", "host", h.req.host)
		return fmt.Errorf("the remote requires credentials: GITHUB_TOKEN is not set and no git binary is on PATH "+
			"to ask a git credential helper; set GITHUB_TOKEN (or GITHUB_TOKEN_FILE) to a token that can read the repository: %w", refused)
	}
	s.log.Warn("the git credential helper has no credentials", "host", h.req.host, "reason", s.red.wrap(why))
	return fmt.Errorf("the remote requires credentials: GITHUB_TOKEN is not set and the git credential helper "+
		"has none for %s (%s); set GITHUB_TOKEN or store credentials for %s in a git credential helper: %w",
		h.req.host, s.red.redact(why.Error()), h.req.host, refused)
}

// refusedAccess reports whether err is the remote asking for credentials (401)
// or refusing the ones it got (403).
func refusedAccess(err error) bool {
	return errors.Is(err, transport.ErrAuthenticationRequired) || errors.Is(err, transport.ErrAuthorizationFailed)
}
