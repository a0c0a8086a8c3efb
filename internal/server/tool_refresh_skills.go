package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

const localRefreshMessage = "Reindexed from local directory (no git sync configured)."

type localRefreshResult struct {
	Success         bool   `json:"success"`
	Mode            string `json:"mode"`
	SkillsReindexed int    `json:"skills_reindexed"`
	Message         string `json:"message"`
	// InBackground says the refresh had not ended when the answer was due
	// and goes on after it (issue 26, item 12).
	InBackground bool `json:"in_background,omitempty"`
}

type gitRefreshResult struct {
	Success         bool   `json:"success"`
	CommitHash      string `json:"commit_hash"`
	FilesChanged    int    `json:"files_changed"`
	SkillsReindexed int    `json:"skills_reindexed"`
	LastSync        string `json:"last_sync"`
	Message         string `json:"message,omitempty"`
	// InBackground: see localRefreshResult.
	InBackground bool   `json:"in_background,omitempty"`
	Verified     *bool  `json:"verified,omitempty"`
	Refused      string `json:"refused,omitempty"`
}

// refreshSkillsArgs: refresh_skills takes no argument.
type refreshSkillsArgs struct{}

// addRefreshSkills registers refresh_skills. Its answer has two shapes (local
// mode and git mode, spec 000 §8.6, the git one with its members present even
// when empty), so its output schema is written by hand (docs/UPSTREAM.md).
func (s *Server) addRefreshSkills() {
	f := false
	addTool(s, &mcp.Tool{
		Name:         "refresh_skills",
		Description:  "Pull the latest skills from the content repository (when git sync is configured) and rebuild the index.",
		OutputSchema: refreshSkillsOutputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Refresh skills", DestructiveHint: &f, IdempotentHint: true},
	}, s.handleRefreshSkills)
}

// rebuildThenSync rebuilds the index and answers as soon as the new snapshot
// is served; the skill:// resources are synced in the background, and their
// list_changed follows the answer.
func (s *Server) rebuildThenSync(ctx context.Context) (*index.Snapshot, error) {
	snap, restore, err := s.rebuild(ctx)
	if err != nil {
		restore()
		return nil, err
	}
	go func() {
		s.skills.SyncResources()
		releaseOldSnapshot(s.opts.MemoryPolicy)
		restore()
	}()
	return snap, nil
}

func (s *Server) handleRefreshSkills(ctx context.Context, _ *mcp.CallToolRequest, _ refreshSkillsArgs) (*mcp.CallToolResult, any, error) {
	return s.refreshWithin(ctx), nil, nil
}

// refreshAnswer is what a refresh ended with: one of a local result, a git
// result or a failure.
type refreshAnswer struct {
	local   *localRefreshResult
	git     *gitRefreshResult
	failure string
}

// result is a as refresh_skills' answer, previous (the outcome of an earlier
// refresh not reported yet, or "") leading its message.
func (a refreshAnswer) result(previous string) *mcp.CallToolResult {
	switch {
	case a.local != nil:
		out := *a.local
		out.Message = joinMessages(previous, out.Message)
		return jsonResult(out)
	case a.git != nil:
		out := *a.git
		out.Message = joinMessages(previous, out.Message)
		return jsonResult(out)
	}
	return errorResult(joinMessages(previous, a.failure))
}

// summary is one line on how the refresh ended, for the log and the next answer.
func (a refreshAnswer) summary() (string, bool) {
	switch {
	case a.local != nil:
		return fmt.Sprintf("succeeded: %d skills reindexed from the local directory", a.local.SkillsReindexed), true
	case a.git != nil && a.git.Success:
		return fmt.Sprintf("succeeded: commit %s, %d files changed, %d skills reindexed", a.git.CommitHash, a.git.FilesChanged, a.git.SkillsReindexed), true
	case a.git != nil:
		served := "commit " + a.git.CommitHash
		if a.git.CommitHash == "" {
			served = "no commit"
		}
		return fmt.Sprintf("did not sync (%s); %s served, %d skills reindexed", a.git.Message, served, a.git.SkillsReindexed), false
	}
	return "failed: " + a.failure, false
}

// refreshNow syncs the content repo (git mode) and rebuilds the index, the
// whole of refresh_skills' work, whatever it takes; ctx is not cancelled
// when the client gives up: content already pulled is indexed.
func (s *Server) refreshNow(ctx context.Context) refreshAnswer {
	if s.opts.Syncer == nil {
		snap, err := s.rebuildThenSync(ctx)
		if err != nil {
			s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "local", "success": false, "commit_hash": nil, "files_changed": 0, "skills_reindexed": 0})
			return refreshAnswer{failure: "Reindex failed: " + err.Error()}
		}
		s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "local", "success": true, "commit_hash": nil, "files_changed": 0, "skills_reindexed": snap.Len()})
		return refreshAnswer{local: &localRefreshResult{Success: true, Mode: "local", SkillsReindexed: snap.Len(), Message: localRefreshMessage}}
	}
	status, syncErr := s.opts.Syncer.ForceRefresh(ctx)
	if errors.Is(syncErr, core.ErrRefreshInProgress) {
		served := s.snapshot().Len()
		s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "git", "success": false, "commit_hash": status.CommitHash,
			"files_changed": 0, "skills_reindexed": served})
		return refreshAnswer{git: &gitRefreshResult{Success: false, CommitHash: status.CommitHash, LastSync: status.LastSync,
			SkillsReindexed: served, Message: "A refresh is already in progress."}}
	}
	// Spec 000 §8.6: always rebuild, even when the pull failed (the cache is still served).
	snap, err := s.rebuildThenSync(ctx)
	if err != nil {
		return refreshAnswer{failure: "Reindex failed: " + err.Error()}
	}
	out := gitRefreshResult{Success: status.Success && syncErr == nil, CommitHash: status.CommitHash, FilesChanged: status.FilesChanged,
		SkillsReindexed: snap.Len(), LastSync: status.LastSync}
	if syncErr != nil {
		out.Message = "Git sync failed; serving the cached copy: " + syncErr.Error()
	}
	out.Verified, out.Refused = status.Verified, status.Refused
	if status.Refused != "" {
		out.Message = status.Refused
	}
	s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "git", "success": out.Success, "commit_hash": out.CommitHash,
		"files_changed": out.FilesChanged, "skills_reindexed": out.SkillsReindexed})
	return refreshAnswer{git: &out}
}

// joinMessages joins the non-empty parts with a space.
func joinMessages(parts ...string) string {
	out := ""
	for _, p := range parts {
		switch {
		case p == "":
		case out == "":
			out = p
		default:
			out += " " + p
		}
	}
	return out
}
