package skillscmd

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
)

// TestReportUsageAcknowledgesOnlyWhatItKeeps is issue 26, item 10 on the built
// binary: analytics.max_buffer_bytes 20000, an endpoint that is down, a 30 KB
// comment. Before, the answer was {"recorded": true}, the buffer was empty
// after SIGKILL and the whole comment was in the log. Now the long comment is
// refused with its reason, a comment within the bounds is in the buffer after
// SIGKILL, and the log holds neither comment whole.
func TestReportUsageAcknowledgesOnlyWhatItKeeps(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // nothing listens there any more
	skills := shutdownSkills(t, "analytics:\n  enabled: true\n  endpoint: \""+down.URL+"\"\n  max_buffer_bytes: 20000\n")
	state := t.TempDir()
	p := startPiped(t, "SKILLS_DIR="+skills, "SKILLS_STATE_DIR="+state)
	answer := func(id int, comment string) map[string]any {
		t.Helper()
		p.call(t, id, "report_usage", map[string]any{"skill_path": "docs", "useful": false, "comment": comment})
		msg := p.await(t, id)
		res, _ := msg["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) != 1 {
			t.Fatalf("answer %v", msg)
		}
		var out map[string]any
		if err := json.Unmarshal([]byte(content[0].(map[string]any)["text"].(string)), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	long := strings.Repeat("too long ", 3400) // 30,600 characters
	kept := strings.Repeat("kept ", 600)      // 3,000 characters

	if out := answer(2, long); out["recorded"] != false || out["reason"] != "comment_too_long" {
		t.Errorf("30 KB comment: got %v, want recorded false, reason comment_too_long", out)
	}
	if out := answer(3, kept); out["recorded"] != true {
		t.Errorf("3 KB comment: got %v, want recorded", out)
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()

	evs, err := eventbuf.New(filepath.Join(state, "analytics-buffer.jsonl")).ReadAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Data["comment"] != kept {
		t.Errorf("buffer after SIGKILL holds %d events, want the recorded feedback whole", len(evs))
	}
	logs := p.stderr.String()
	if strings.Contains(logs, long[:1000]) || strings.Contains(logs, kept) {
		t.Errorf("the log holds a whole comment (%d bytes of log)", len(logs))
	}
}
