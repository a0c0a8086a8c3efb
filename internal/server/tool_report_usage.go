package server

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
)

// Bounds of report_usage's arguments (issue 26, item 10): feedback over them
// is refused whole, never cut, and the answer says which bound and by how
// much, so the agent can send it again shorter.
const (
	// MaxFeedbackCommentChars bounds the comment, in characters.
	MaxFeedbackCommentChars = 4000
	// MaxFeedbackSkillPathChars bounds skill_path, in characters.
	MaxFeedbackSkillPathChars = 1024
)

// logCommentChars is how much of a comment the log line shows.
const logCommentChars = 200

// Reasons report_usage gives when it did not record the feedback.
const (
	reasonCommentTooLong   = "comment_too_long"
	reasonSkillPathTooLong = "skill_path_too_long"
	reasonTooLargeToBuffer = "too_large_for_buffer"
	reasonNotSaved         = "not_saved"
)

// reportUsageArgs are report_usage's arguments. Their bounds are checked by
// the handler, not declared as maxLength: feedback over them is answered
// {"recorded": false} with a reason (checkFeedbackSize), which the go-sdk's
// refusal of a call, an isError result, would not be.
type reportUsageArgs struct {
	SkillPath string `json:"skill_path" jsonschema:"The skill you used"`
	Useful    bool   `json:"useful" jsonschema:"Whether the skill helped"`
	Comment   string `json:"comment,omitempty"` // described with its bound by addReportUsage
}

// reportUsageResult is spec 000 §8.5's answer; Reason (added) says why
// Recorded is false.
type reportUsageResult struct {
	Recorded bool   `json:"recorded"`
	Message  string `json:"message"`
	Reason   string `json:"reason,omitempty" jsonschema:"Why the feedback was not recorded: comment_too_long, skill_path_too_long, too_large_for_buffer or not_saved"`
}

func (s *Server) addReportUsage() {
	f := false
	addTool(s, &mcp.Tool{
		Name:        "report_usage",
		Description: "Tell the skill authors whether a skill helped: `useful` true or false, with an optional comment.",
		InputSchema: inputSchema[reportUsageArgs](func(props map[string]*jsonschema.Schema) {
			props["comment"].Description = fmt.Sprintf("Optional: what was missing or wrong (at most %d characters)", MaxFeedbackCommentChars)
		}),
		Annotations: &mcp.ToolAnnotations{Title: "Report usage", OpenWorldHint: &f, DestructiveHint: &f},
	}, s.handleReportUsage)
}

func (s *Server) handleReportUsage(ctx context.Context, _ *mcp.CallToolRequest, a reportUsageArgs) (*mcp.CallToolResult, reportUsageResult, error) {
	out := s.reportUsage(ctx, a)
	res, err := compactResult(out)
	return res, out, err
}

func (s *Server) reportUsage(ctx context.Context, a reportUsageArgs) reportUsageResult {
	if refused, ok := checkFeedbackSize(a); !ok {
		s.log.Warn("skill feedback refused: over a size bound", "reason", refused.Reason,
			"skill_path_chars", utf8.RuneCountInString(a.SkillPath), "comment_chars", utf8.RuneCountInString(a.Comment))
		return refused
	}
	// Spec 000 §8.5 records feedback whatever the path: feedback on a skill a
	// refresh just removed is still worth keeping.
	if _, ok := s.snapshot().Get(a.SkillPath); !ok {
		s.log.Debug("feedback for a skill that is not indexed", "skill_path", a.SkillPath)
	}
	s.log.Info("skill feedback", "skill_path", a.SkillPath, "useful", a.Useful, "comment", logExcerpt(a.Comment, logCommentChars))
	data := map[string]any{"skill_path": a.SkillPath, "useful": a.Useful, "comment": a.Comment}
	// What the answer acknowledges is on disk first (issue 16, item 3).
	if rec, ok := s.opts.Tracker.(core.Recorder); ok {
		err := rec.Record(ctx, core.EventSkillFeedback, data)
		if errors.Is(err, core.ErrEventTooLarge) {
			s.log.Warn("feedback not recorded: larger than the analytics buffer", "skill_path", a.SkillPath, "error", err)
			return reportUsageResult{Recorded: false, Reason: reasonTooLargeToBuffer,
				Message: "Feedback for " + a.SkillPath + " was not recorded: it is larger than the whole analytics buffer " +
					"(analytics.max_buffer_bytes); send it again with a shorter comment"}
		}
		if err != nil {
			s.log.Warn("feedback not saved to disk; kept in memory until the next delivery", "skill_path", a.SkillPath, "error", err)
			return reportUsageResult{Recorded: false, Reason: reasonNotSaved,
				Message: "Feedback for " + a.SkillPath + " could not be saved to disk; it is kept in memory until the next delivery"}
		}
	} else {
		s.opts.Tracker.Track(core.EventSkillFeedback, data)
	}
	return reportUsageResult{Recorded: true, Message: "Feedback recorded for " + a.SkillPath}
}

// checkFeedbackSize refuses feedback over a bound; ok when it is within them.
func checkFeedbackSize(a reportUsageArgs) (reportUsageResult, bool) {
	if n := utf8.RuneCountInString(a.SkillPath); n > MaxFeedbackSkillPathChars {
		return reportUsageResult{Recorded: false, Reason: reasonSkillPathTooLong,
			Message: fmt.Sprintf("Feedback not recorded: skill_path is %d characters, over the limit of %d", n, MaxFeedbackSkillPathChars)}, false
	}
	if n := utf8.RuneCountInString(a.Comment); n > MaxFeedbackCommentChars {
		return reportUsageResult{Recorded: false, Reason: reasonCommentTooLong,
			Message: fmt.Sprintf("Feedback for %s not recorded: the comment is %d characters, over the limit of %d; "+
				"send it again with a shorter comment", a.SkillPath, n, MaxFeedbackCommentChars)}, false
	}
	return reportUsageResult{}, true
}

// logExcerpt is s cut to at most n characters, with a marker saying how long
// it was when it was cut.
func logExcerpt(s string, n int) string {
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s
	}
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	return s[:cut] + fmt.Sprintf("…[truncated: %d characters in all]", total)
}
