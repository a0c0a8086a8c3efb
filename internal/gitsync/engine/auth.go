package engine

import (
	"fmt"
	"net/url"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/hashicorp/go-hclog"
)

// tokenUser is the user name GitHub expects with an access token (spec 000 §9.2).
const tokenUser = "x-access-token"

// remoteAccess turns SKILLS_REPO and GITHUB_TOKEN into the URL stored as origin
// (no userinfo; local paths made absolute) and the auth method for go-git. The
// token travels as HTTP basic auth and is never put into the URL.
func remoteAccess(raw, token string, log hclog.Logger) (string, transport.AuthMethod, error) {
	ep, err := transport.NewEndpoint(raw)
	if err != nil {
		return "", nil, fmt.Errorf("parsing SKILLS_REPO %s: %w", redactURL(raw), err)
	}
	switch ep.Protocol {
	case "http", "https":
		clean, err := stripUserinfo(raw)
		if err != nil {
			return "", nil, err
		}
		switch {
		case token != "":
			return clean, &githttp.BasicAuth{Username: tokenUser, Password: token}, nil
		case ep.User != "" || ep.Password != "":
			return clean, &githttp.BasicAuth{Username: ep.User, Password: ep.Password}, nil
		}
		return clean, nil, nil
	case "file":
		if token != "" {
			log.Debug("GITHUB_TOKEN is not used for a local skills repository")
		}
		if !hasScheme(raw) {
			return ep.Path, nil, nil // made absolute by NewEndpoint
		}
		clean, err := stripUserinfo(raw)
		return clean, nil, err
	default:
		if token != "" {
			log.Warn("GITHUB_TOKEN is only used with https repositories; ignoring it", "url", redactURL(raw))
		}
		if !hasScheme(raw) {
			return raw, nil, nil // scp-like git@host:org/repo: the user is not a secret
		}
		u, err := url.Parse(raw)
		if err != nil {
			return "", nil, fmt.Errorf("parsing SKILLS_REPO %s: %w", redactURL(raw), err)
		}
		if u.User != nil {
			u.User = url.User(u.User.Username()) // ssh user names stay, passwords go
		}
		return u.String(), nil, nil
	}
}

// stripUserinfo removes the user and password of a URL.
func stripUserinfo(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("parsing SKILLS_REPO %s: %w", redactURL(raw), err)
	}
	u.User = nil
	return u.String(), nil
}

// hasScheme reports whether raw starts with scheme://.
func hasScheme(raw string) bool {
	return urlScheme.MatchString(raw)
}
