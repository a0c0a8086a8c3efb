package engine

import (
	"errors"
	"net/url"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/redact"
)

// redactURL replaces the userinfo (user, password, token) of every URL in raw
// with "***", for messages and logs: https://x:TOKEN@github.com/o/r becomes
// https://***@github.com/o/r. Local paths and scp-like addresses
// (git@github.com:o/r) are returned unchanged.
func redactURL(raw string) string { return redact.URLUserinfo(raw) }

// redactor scrubs the configured secrets from text before it reaches an error
// message or a log line: plain, URL-escaped, and inside base64 (an echoed
// Basic header), see internal/redact. Secrets learnt later (a credential
// helper's password) are added with add; it is safe for concurrent use.
type redactor struct{ r *redact.Redactor }

// newRedactor collects the secrets of a configuration: the token and any
// password (or lone user name, which GitHub accepts as a token) in rawURL.
func newRedactor(token, rawURL string) *redactor {
	r := &redactor{r: redact.New(token)}
	if u, err := url.Parse(strings.TrimSpace(rawURL)); err == nil && u.User != nil {
		if pass, ok := u.User.Password(); ok && pass != "" {
			r.add(pass)
		} else {
			r.add(u.User.Username())
		}
	}
	return r
}

// add makes secret redacted from now on. An empty secret is ignored.
func (r *redactor) add(secret string) { r.r.Add(secret) }

// redact returns text with every secret and every URL userinfo replaced by "***".
func (r *redactor) redact(text string) string { return r.r.String(text) }

// wrap returns err with a redacted message; nil stays nil. errors.Is still sees
// the sentinels in err's chain (context.DeadlineExceeded, transport errors), but
// the original error, whose text may hold a secret, is not reachable by Unwrap.
func (r *redactor) wrap(err error) error {
	if err == nil {
		return nil
	}
	var already *redactedError
	if errors.As(err, &already) && already.Error() == err.Error() {
		return err
	}
	return &redactedError{msg: r.redact(err.Error()), cause: err}
}

// redactedError carries a scrubbed message and answers errors.Is for its cause.
type redactedError struct {
	msg   string
	cause error
}

// Error implements error.
func (e *redactedError) Error() string { return e.msg }

// Is lets errors.Is match the sentinels of the hidden cause.
func (e *redactedError) Is(target error) bool { return errors.Is(e.cause, target) }
