package engine

import (
	"errors"
	"runtime"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

var installOnce sync.Once

// installFileTransport replaces go-git's "file" transport, which executes
// git-upload-pack, by go-git's in-process server reading the repository
// directly, so that local remotes work on a machine without git. It is
// process-wide and done once.
func installFileTransport() {
	installOnce.Do(func() {
		client.InstallProtocol("file", server.NewClient(localLoader{}))
	})
}

// localLoader opens the repository at an endpoint's path, bare or with a worktree.
type localLoader struct{}

// Load implements server.Loader.
func (localLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	path := ep.Path
	if runtime.GOOS == "windows" && len(path) >= 3 && path[0] == '/' && path[2] == ':' {
		path = path[1:] // file:///C:/x has the path /C:/x
	}
	repo, err := git.PlainOpenWithOptions(path, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, transport.ErrRepositoryNotFound
	}
	if err != nil {
		return nil, err
	}
	return repo.Storer, nil
}
