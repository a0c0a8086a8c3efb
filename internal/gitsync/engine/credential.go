package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// credentialTimeout bounds one `git credential` call: a helper that hangs (or
// waits for a user) must not stall a sync.
const credentialTimeout = 10 * time.Second

// errNoGit: no git binary is on PATH, so no credential helper can be asked.
var errNoGit = errors.New("no git binary on PATH to ask a credential helper")

// errNoCredential: the helper answered without a user name and a password.
var errNoCredential = errors.New("the credential helper returned no user name and password")

// credentialRunner runs `git credential <action>` (fill, approve or reject)
// with input on its standard input and returns its standard output.
type credentialRunner func(ctx context.Context, action string, input []byte) ([]byte, error)

// credentialRequest is what the credential protocol knows of the remote: the
// attributes protocol, host (with its port) and path (without the leading '/').
type credentialRequest struct {
	protocol, host, path string
}

// credentialHelper is the fallback of spec 000 §9.2 for an http(s) remote
// without GITHUB_TOKEN or URL credentials: it asks the machine's git credential
// helper through `git credential`, keeps the answer in memory for the process,
// and reports it as good (approve) or bad (reject). It is safe for concurrent use.
type credentialHelper struct {
	req     credentialRequest
	run     credentialRunner
	timeout time.Duration

	mu     sync.Mutex
	cached *githttp.BasicAuth
}

// newCredentialHelper returns the helper for cloneURL, or nil when cloneURL is
// not an http(s) URL (ssh and local remotes never use one).
func newCredentialHelper(cloneURL string) *credentialHelper {
	u, err := url.Parse(cloneURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil
	}
	return &credentialHelper{
		req:     credentialRequest{protocol: u.Scheme, host: u.Host, path: strings.TrimPrefix(u.Path, "/")},
		run:     gitCredential{}.run,
		timeout: credentialTimeout,
	}
}

// current returns the credentials kept from an earlier fill, nil if none.
func (h *credentialHelper) current() *githttp.BasicAuth {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cached
}

// keep remembers cred (nil forgets) for the next syncs of this process.
func (h *credentialHelper) keep(cred *githttp.BasicAuth) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cached = cred
}

// fill asks the helper for credentials. The error says why there are none:
// errNoGit, errNoCredential, or the failure of the git command.
func (h *credentialHelper) fill(ctx context.Context) (*githttp.BasicAuth, error) {
	out, err := h.call(ctx, "fill", encodeCredential(h.req, nil))
	if err != nil {
		return nil, err
	}
	cred := parseCredential(out)
	if cred.Username == "" || cred.Password == "" {
		return nil, errNoCredential
	}
	return cred, nil
}

// approve tells the helper that cred worked, so that it may store it.
func (h *credentialHelper) approve(ctx context.Context, cred *githttp.BasicAuth) error {
	_, err := h.call(ctx, "approve", encodeCredential(h.req, cred))
	return err
}

// reject tells the helper that cred was refused, so that it may erase it.
func (h *credentialHelper) reject(ctx context.Context, cred *githttp.BasicAuth) error {
	_, err := h.call(ctx, "reject", encodeCredential(h.req, cred))
	return err
}

// call runs one credential action under the helper's timeout.
func (h *credentialHelper) call(ctx context.Context, action string, input []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	out, err := h.run(ctx, action, input)
	if err != nil {
		return nil, fmt.Errorf("running git credential %s: %w", action, err)
	}
	return out, nil
}

// encodeCredential writes the credential protocol's input: one key=value line
// per attribute, then a blank line. Values holding a newline or NUL, which the
// protocol cannot carry, are left out (fill then finds nothing for them).
func encodeCredential(req credentialRequest, cred *githttp.BasicAuth) []byte {
	var b bytes.Buffer
	put := func(key, value string) {
		if value != "" && !strings.ContainsAny(value, "\n\x00") {
			fmt.Fprintf(&b, "%s=%s\n", key, value)
		}
	}
	put("protocol", req.protocol)
	put("host", req.host)
	put("path", req.path)
	if cred != nil {
		put("username", cred.Username)
		put("password", cred.Password)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// parseCredential reads the username and password attributes of a credential
// protocol answer; other attributes are ignored, a blank line ends it, and a
// later line for the same key wins, as in git.
func parseCredential(out []byte) *githttp.BasicAuth {
	cred := &githttp.BasicAuth{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			break
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || strings.ContainsRune(value, '\x00') {
			continue
		}
		switch key {
		case "username":
			cred.Username = value
		case "password":
			cred.Password = value
		}
	}
	return cred
}
