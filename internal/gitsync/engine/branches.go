package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// maxBranchesNamed bounds the branches a missing-branch error lists.
const maxBranchesNamed = 20

// missingBranch is the error for a remote that answered but has no branch
// s.branch: it says so and names the branches the remote has (when it lists
// them), rather than that the repository "cannot be reached".
func (s *syncer) missingBranch(ctx context.Context) error {
	branches, err := s.remoteBranches(ctx)
	have := ""
	switch {
	case err != nil:
		have = "; its branches could not be listed: " + s.red.wrap(err).Error()
	case len(branches) == 0:
		have = "; it has no branch at all (an empty repository)"
	default:
		more := ""
		if len(branches) > maxBranchesNamed {
			more = fmt.Sprintf(" and %d more", len(branches)-maxBranchesNamed)
			branches = branches[:maxBranchesNamed]
		}
		have = "; its branches: " + strings.Join(branches, ", ") + more + " (set SKILLS_BRANCH to one of them)"
	}
	return fmt.Errorf("the branch %s does not exist in %s%s: %w", s.branch, redactURL(s.url), have, gitsync.ErrBranchNotFound)
}

// remoteBranches lists the branches of the remote, sorted.
func (s *syncer) remoteBranches(ctx context.Context) ([]string, error) {
	remote := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{s.url}})
	opCtx, cancel := s.opContext(ctx)
	defer cancel()
	var names []string
	err := s.withCredentials(opCtx, func(auth transport.AuthMethod) error {
		refs, err := remote.ListContext(opCtx, &git.ListOptions{Auth: auth})
		if err != nil {
			return err
		}
		names = names[:0]
		for _, r := range refs {
			if r.Name().IsBranch() {
				names = append(names, r.Name().Short())
			}
		}
		return nil
	})
	if err = s.timeoutError(opCtx, err); err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}
