package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// TestMissingBranchNamesTheBranches: SKILLS_BRANCH naming a branch the remote
// lacks is said to be missing, with the remote's branches, not "cannot be
// reached" (issue 29); with a clone of another branch, the cache stays
// served and the error says the same.
func TestMissingBranchNamesTheBranches(t *testing.T) {
	t.Parallel()
	for _, withClone := range []bool{false, true} {
		f := newFixture(t)
		if withClone {
			f.initialized()
		}
		opts := f.options()
		opts.Branch = "master"
		_, err := f.syncer(opts).Initialize(t.Context())
		if !errors.Is(err, gitsync.ErrBranchNotFound) {
			t.Fatalf("with clone %v: got %v, want ErrBranchNotFound", withClone, err)
		}
		if got := errors.Is(err, gitsync.ErrUsingCache); got != withClone {
			t.Errorf("with clone %v: ErrUsingCache %v", withClone, got)
		}
		msg := err.Error()
		if !strings.Contains(msg, "the branch master does not exist in "+f.remote+"; its branches: main (set SKILLS_BRANCH to one of them)") ||
			strings.Contains(msg, "couldn't find remote ref") {
			t.Errorf("with clone %v: %v", withClone, msg)
		}
	}
}
