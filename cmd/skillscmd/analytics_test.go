package skillscmd

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/eventbuf"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// runSession starts the binary with env, makes one get_skill call, then closes
// stdin and waits for a clean exit.
func runSession(t *testing.T, env ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, env...)
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "analytics-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "REST pagination endpoint"}}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v (stderr %s)", err, stderr.String())
	}
}

func TestAnalyticsDeliveredAtShutdown(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bodies []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	}))
	defer ts.Close()
	state := t.TempDir()
	runSession(t, "ANALYTICS_ENDPOINT="+ts.URL, "SKILLS_STATE_DIR="+state, "USER=alice")
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(bodies, "\n")
	for _, want := range []string{`"type":"skill_served"`, `"server_id":"dev-alice"`, `"skill_path":"api/rest"`} {
		if !strings.Contains(all, want) {
			t.Errorf("endpoint received %s, want it to contain %s", all, want)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "analytics-buffer.jsonl")); err == nil {
		t.Error("buffer file left behind although delivery succeeded")
	}
}

func TestAnalyticsBufferedWhenEndpointDown(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close() // nothing listens there any more
	state := t.TempDir()
	runSession(t, "ANALYTICS_ENDPOINT="+url, "SKILLS_STATE_DIR="+state, "USER=bob")
	// A failed delivery leaves the events in the buffer's sending file; ReadAll
	// reads both files.
	evs, err := eventbuf.New(filepath.Join(state, "analytics-buffer.jsonl")).ReadAll(context.Background())
	if err != nil || len(evs) == 0 {
		t.Fatalf("no buffered events: %v", err)
	}
	ev := evs[len(evs)-1]
	if ev.ID == "" {
		t.Error("buffered event without an id")
	}
	if ev.Type != "skill_served" || ev.ServerID != "dev-bob" || ev.Data["skill_path"] != "api/rest" {
		t.Errorf("buffered event = %+v", ev)
	}
}
