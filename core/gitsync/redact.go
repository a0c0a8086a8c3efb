package gitsync

import (
	"errors"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// urlUserinfo matches the userinfo of every scheme://userinfo@ in a text; the
// greedy class stops at the first '/', '?', '#' or space, so it spans an
// unescaped '@' inside a password.
var urlUserinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s]*@`)

// RedactURL replaces the userinfo (user, password, token) of every URL in raw
// with "***", for messages and logs: https://x:TOKEN@github.com/o/r becomes
// https://***@github.com/o/r. Local paths and scp-like addresses
// (git@github.com:o/r) are returned unchanged.
func RedactURL(raw string) string {
	return urlUserinfo.ReplaceAllString(raw, "${1}***@")
}

// redactor scrubs the configured secrets from text before it reaches an error
// message or a log line. Secrets learnt later (a credential helper's password)
// are added with add; it is safe for concurrent use.
type redactor struct {
	mu      sync.RWMutex
	secrets []string // longest first, so that no secret is left half-replaced
}

// newRedactor collects the secrets of a configuration: the token and any
// password (or lone user name, which GitHub accepts as a token) in rawURL.
func newRedactor(token, rawURL string) *redactor {
	r := &redactor{}
	r.add(token)
	if u, err := url.Parse(strings.TrimSpace(rawURL)); err == nil && u.User != nil {
		if pass, ok := u.User.Password(); ok && pass != "" {
			r.add(pass)
		} else {
			r.add(u.User.Username())
		}
	}
	return r
}

// add makes secret, and its URL-escaped forms, redacted from now on. An empty
// secret is ignored.
func (r *redactor) add(secret string) {
	if secret == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret)} {
		if !slices.Contains(r.secrets, v) {
			r.secrets = append(r.secrets, v)
		}
	}
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
}

// redact returns text with every secret and every URL userinfo replaced by "***".
func (r *redactor) redact(text string) string {
	r.mu.RLock()
	for _, s := range r.secrets {
		text = strings.ReplaceAll(text, s, "***")
	}
	r.mu.RUnlock()
	return RedactURL(text)
}

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
