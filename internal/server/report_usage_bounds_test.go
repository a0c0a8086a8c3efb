package server_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/events"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestReportUsageRefusesWhatItCannotKeepWhole is issue 26, item 10: with
// analytics.max_buffer_bytes 20000 a 30 KB comment was answered
// {"recorded": true} and then dropped by the buffer, and the whole comment was
// logged at INFO. Now feedback over a documented bound, or larger than the
// whole buffer, is answered {"recorded": false} with a reason and nothing is
// stored; what is recorded is in the buffer; the log shows at most an excerpt.
func TestReportUsageRefusesWhatItCannotKeepWhole(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		maxBuffer  int64
		skillPath  string
		comment    string
		wantReason string // "" means recorded
	}{
		{"comment at the bound", 20_000, "ui/react/auth", strings.Repeat("é", server.MaxFeedbackCommentChars), ""},
		{"comment over the bound", 20_000, "ui/react/auth", strings.Repeat("x", 30_000), "comment_too_long"},
		{"skill_path over the bound", 20_000, strings.Repeat("p", server.MaxFeedbackSkillPathChars+1), "", "skill_path_too_long"},
		{"larger than the whole buffer", 2_000, "ui/react/auth", strings.Repeat("x", 3_000), "too_large_for_buffer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			bufferPath := filepath.Join(t.TempDir(), "analytics-buffer.jsonl")
			buffer := eventbuf.New(bufferPath, eventbuf.WithMaxBytes(tt.maxBuffer))
			logs := &testlog.Buffer{}
			h := start(t, writeTree(t, specTree()), func(o *server.Options) {
				o.Tracker = events.NewTracker(events.TrackerOptions{Enabled: true, Durable: buffer})
				o.Logger = hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Info})
			})

			out := h.callJSON(t, "report_usage", map[string]any{"skill_path": tt.skillPath, "useful": false, "comment": tt.comment})

			stored, err := eventbuf.New(bufferPath).ReadAll(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantReason == "" {
				if out["recorded"] != true || out["reason"] != nil || len(stored) != 1 || stored[0].Data["comment"] != tt.comment {
					t.Errorf("got %v with %d events stored, want recorded whole", out, len(stored))
				}
			} else {
				msg, _ := out["message"].(string)
				if out["recorded"] != false || out["reason"] != tt.wantReason || !strings.Contains(msg, "not recorded") || len(stored) != 0 {
					t.Errorf("got %v with %d events stored, want recorded false, reason %s, nothing stored", out, len(stored), tt.wantReason)
				}
			}
			// The log holds an excerpt of the comment (200 characters), never all of it.
			if r := []rune(tt.comment); len(r) > 201 && strings.Contains(logs.String(), string(r[:201])) {
				t.Errorf("the log holds more than an excerpt of the comment (%d bytes of log)", len(logs.String()))
			}
			if tt.wantReason == "" && !strings.Contains(logs.String(), "truncated: 4000 characters in all") {
				t.Errorf("the log does not mark the cut comment:\n%.500s", logs.String())
			}
		})
	}
}
