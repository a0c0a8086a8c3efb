package engine

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// repoPath is where the test HTTP server serves the repository.
const repoPath = "/org/skills.git"

// gitHTTP is a smart-HTTP git server (upload-pack only) for one repository,
// built on go-git's server. It demands basic auth user:password, or nothing
// when both are empty (a public repository), and counts the requests.
type gitHTTP struct {
	*httptest.Server
	// requests counts the requests received.
	requests atomic.Int64

	mu             sync.Mutex
	user, password string
	// fail, when set, answers every request with that status and a body
	// echoing the password, to check that error messages are redacted.
	fail int
}

// setFail makes the server answer every request with status (0: serve normally).
func (g *gitHTTP) setFail(status int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.fail = status
}

// setPassword changes the password the server accepts.
func (g *gitHTTP) setPassword(password string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.password = password
}

// check answers a request that must not be served (failure mode or bad
// credentials) and reports whether it did.
func (g *gitHTTP) check(w http.ResponseWriter, r *http.Request) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.requests.Add(1)
	if g.fail != 0 {
		http.Error(w, "backend exploded while checking "+g.password, g.fail)
		return true
	}
	if g.user == "" && g.password == "" {
		return false
	}
	if u, p, ok := r.BasicAuth(); !ok || u != g.user || p != g.password {
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		http.Error(w, "bad credentials", http.StatusUnauthorized)
		return true
	}
	return false
}

func newGitHTTP(t *testing.T, repo, user, password string) *gitHTTP {
	t.Helper()
	g := &gitHTTP{user: user, password: password}
	ep, err := transport.NewEndpoint(repo)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.NewServer(localLoader{})
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.check(w, r) {
			return
		}
		sess, err := srv.NewUploadPackSession(ep, nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer sess.Close()
		switch {
		case r.Method == http.MethodGet && r.URL.Path == repoPath+"/info/refs" && r.URL.Query().Get("service") == transport.UploadPackServiceName:
			ar, err := sess.AdvertisedReferencesContext(r.Context())
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			ar.Prefix = [][]byte{[]byte("# service=" + transport.UploadPackServiceName), pktline.Flush}
			w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
			_ = ar.Encode(w)
		case r.Method == http.MethodPost && r.URL.Path == repoPath+"/"+transport.UploadPackServiceName:
			req := packp.NewUploadPackRequest()
			if err := req.Decode(r.Body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			resp, err := sess.UploadPack(r.Context(), req)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			defer resp.Close()
			w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
			_ = resp.Encode(w)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(g.Close)
	return g
}

// repoURL is the https-like URL of the served repository.
func (g *gitHTTP) repoURL() string { return g.URL + repoPath }
