package server

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/index"
)

const localRefreshMessage = "Reindexed from local directory (no git sync configured)."

type localRefreshResult struct {
	Success         bool   `json:"success"`
	Mode            string `json:"mode"`
	SkillsReindexed int    `json:"skills_reindexed"`
	Message         string `json:"message"`
}

type gitRefreshResult struct {
	Success         bool   `json:"success"`
	CommitHash      string `json:"commit_hash"`
	FilesChanged    int    `json:"files_changed"`
	SkillsReindexed int    `json:"skills_reindexed"`
	LastSync        string `json:"last_sync"`
	Message         string `json:"message,omitempty"`
}

func (s *Server) addRefreshSkills() {
	f := false
	s.mcp.AddTool(&mcp.Tool{
		Name:         "refresh_skills",
		Description:  "Pull the latest skills from the content repository (when git sync is configured) and rebuild the index.",
		InputSchema:  schema(map[string]any{}),
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
		s.skills.syncResources()
		releaseOldSnapshot()
		restore()
	}()
	return snap, nil
}

func (s *Server) handleRefreshSkills(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := decodeStrictArgs(req.Params.Arguments, &struct{}{}, nil); err != nil {
		return errorResult("refresh_skills: " + err.Error()), nil
	}
	// The rebuild keeps the request's values (its trace) but not its
	// cancellation: content already pulled is indexed even if the client gave up.
	rctx := context.WithoutCancel(ctx)
	if s.opts.Syncer == nil {
		snap, err := s.rebuildThenSync(rctx)
		if err != nil {
			s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "local", "success": false, "commit_hash": nil, "files_changed": 0, "skills_reindexed": 0})
			return errorResult("Reindex failed: " + err.Error()), nil
		}
		s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "local", "success": true, "commit_hash": nil, "files_changed": 0, "skills_reindexed": snap.Len()})
		return jsonResult(localRefreshResult{Success: true, Mode: "local", SkillsReindexed: snap.Len(), Message: localRefreshMessage}), nil
	}
	status, syncErr := s.opts.Syncer.ForceRefresh(ctx)
	if errors.Is(syncErr, core.ErrRefreshInProgress) {
		served := s.snapshot().Len()
		s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "git", "success": false, "commit_hash": status.CommitHash,
			"files_changed": 0, "skills_reindexed": served})
		return jsonResult(gitRefreshResult{Success: false, CommitHash: status.CommitHash, LastSync: status.LastSync,
			SkillsReindexed: served, Message: "A refresh is already in progress."}), nil
	}
	// Spec 000 §8.6: always rebuild, even when the pull failed (the cache is still served).
	snap, err := s.rebuildThenSync(rctx)
	if err != nil {
		return errorResult("Reindex failed: " + err.Error()), nil
	}
	out := gitRefreshResult{Success: status.Success && syncErr == nil, CommitHash: status.CommitHash, FilesChanged: status.FilesChanged,
		SkillsReindexed: snap.Len(), LastSync: status.LastSync}
	if syncErr != nil {
		out.Message = "Git sync failed; serving the cached copy: " + syncErr.Error()
	}
	s.opts.Tracker.Track(core.EventRefresh, map[string]any{"mode": "git", "success": out.Success, "commit_hash": out.CommitHash,
		"files_changed": out.FilesChanged, "skills_reindexed": out.SkillsReindexed})
	return jsonResult(out), nil
}
