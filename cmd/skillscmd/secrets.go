package skillscmd

import (
	"net/url"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/redact"
)

// secretEnv names the environment variables that hold secrets.
var secretEnv = []string{"GITHUB_TOKEN", "SKILLS_HTTP_TOKEN", "SKILLS_EMBEDDINGS_KEY"}

// secretRedactor redacts the secrets of the environment: the tokens and the
// password (or lone user name, a token for GitHub) in SKILLS_REPO's userinfo.
func secretRedactor(getenv func(string) string) *redact.Redactor {
	r := redact.New()
	for _, name := range secretEnv {
		r.Add(strings.TrimSpace(getenv(name)))
	}
	// Only http(s) userinfo is a secret: an ssh URL's user ("git") is not.
	if u, err := url.Parse(strings.TrimSpace(getenv("SKILLS_REPO"))); err == nil && u.User != nil && (u.Scheme == "http" || u.Scheme == "https") {
		if pass, ok := u.User.Password(); ok {
			r.Add(pass)
		} else {
			r.Add(u.User.Username())
		}
	}
	return r
}
