package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

type reportUsageArgs struct {
	SkillPath string `json:"skill_path"`
	Useful    bool   `json:"useful"`
	Comment   string `json:"comment"`
}

type reportUsageResult struct {
	Recorded bool   `json:"recorded"`
	Message  string `json:"message"`
}

func (s *Server) addReportUsage() {
	f := false
	s.mcp.AddTool(&mcp.Tool{
		Name:        "report_usage",
		Description: "Tell the skill authors whether a skill helped: `useful` true or false, with an optional comment.",
		InputSchema: schema(map[string]any{
			"skill_path": strProp("The skill you used"),
			"useful":     map[string]any{"type": "boolean", "description": "Whether the skill helped"},
			"comment":    strProp("Optional: what was missing or wrong"),
		}, "skill_path", "useful"),
		OutputSchema: reportUsageOutputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Report usage", OpenWorldHint: &f, DestructiveHint: &f},
	}, s.handleReportUsage)
}

func (s *Server) handleReportUsage(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a reportUsageArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"skill_path", "useful", "comment"}, "skill_path", "useful"); err != nil {
		return errorResult("report_usage: " + err.Error()), nil
	}
	// Spec 000 §8.5 records feedback whatever the path: feedback on a skill a
	// refresh just removed is still worth keeping.
	if _, ok := s.snapshot().Get(a.SkillPath); !ok {
		s.log.Debug("feedback for a skill that is not indexed", "skill_path", a.SkillPath)
	}
	s.log.Info("skill feedback", "skill_path", a.SkillPath, "useful", a.Useful, "comment", a.Comment)
	data := map[string]any{"skill_path": a.SkillPath, "useful": a.Useful, "comment": a.Comment}
	// What the answer acknowledges is on disk first (issue 16, item 3).
	if rec, ok := s.opts.Tracker.(core.Recorder); ok {
		if err := rec.Record(ctx, core.EventSkillFeedback, data); err != nil {
			s.log.Warn("feedback not saved to disk; kept in memory until the next delivery", "skill_path", a.SkillPath, "error", err)
			return jsonResult(reportUsageResult{Recorded: false, Message: "Feedback for " + a.SkillPath + " could not be saved to disk; it is kept in memory until the next delivery"}), nil
		}
	} else {
		s.opts.Tracker.Track(core.EventSkillFeedback, data)
	}
	return jsonResult(reportUsageResult{Recorded: true, Message: "Feedback recorded for " + a.SkillPath}), nil
}
