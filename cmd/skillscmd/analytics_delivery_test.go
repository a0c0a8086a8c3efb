package skillscmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// eventEndpoint is an analytics endpoint recording every event it gets, per
// request; slowFirst makes its first answer arrive after delay.
type eventEndpoint struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests [][]map[string]any // events of each request, in arrival order
	delay    time.Duration      // the first request is answered after it
}

func newEventEndpoint(t *testing.T, firstDelay time.Duration) *eventEndpoint {
	t.Helper()
	e := &eventEndpoint{delay: firstDelay}
	done := make(chan struct{}) // the test ended: a delayed answer goes at once
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Events []map[string]any `json:"events"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		e.mu.Lock()
		first := len(e.requests) == 0
		e.requests = append(e.requests, body.Events)
		e.mu.Unlock()
		if first && e.delay > 0 {
			select { // the events are taken; the answer comes after the client's timeout
			case <-time.After(e.delay):
			case <-done:
			}
		}
	}))
	t.Cleanup(e.srv.Close)
	t.Cleanup(func() { close(done) }) // before Close, which waits for the handlers
	return e
}

// counts returns how many events arrived in total and how many times each id
// arrived ("" counts events without an id).
func (e *eventEndpoint) counts() (int, map[string]int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	total, ids := 0, map[string]int{}
	for _, req := range e.requests {
		for _, ev := range req {
			total++
			id, _ := ev["id"].(string)
			ids[id]++
		}
	}
	return total, ids
}

// analyticsSkills writes a skills directory whose config.yaml sends events to
// endpoint every flushSeconds.
func analyticsSkills(t *testing.T, endpoint string, flushSeconds, timeoutSeconds int) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml": fmt.Sprintf("analytics:\n  enabled: true\n  endpoint: %q\n  flush_interval_seconds: %d\n  timeout_seconds: %d\n",
			endpoint, flushSeconds, timeoutSeconds),
		"docs/SKILL.md": "---\nname: docs\ndescription: Writing documentation for the project, with examples.\n---\n# Docs\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// analyticsServer starts the built binary on skills with stateDir as its
// state directory (the analytics buffer's home).
func analyticsServer(ctx context.Context, t *testing.T, skills, stateDir string) (*mcp.ClientSession, *testlog.Buffer) {
	t.Helper()
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+stateDir, "SKILLS_DIR="+skills)
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "analytics-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	return cs, stderr
}

// reportUsage calls report_usage and fails the test unless it was recorded.
func reportUsage(ctx context.Context, t *testing.T, cs *mcp.ClientSession, comment string) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "report_usage", Arguments: map[string]any{
		"skill_path": "docs", "useful": true, "comment": comment,
	}})
	if err != nil {
		t.Errorf("report_usage: %v", err)
		return
	}
	var out struct {
		Recorded bool `json:"recorded"`
	}
	if res.IsError || json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out) != nil || !out.Recorded {
		t.Errorf("report_usage not recorded: %+v", res.Content[0])
	}
}

// waitFor polls cond until it holds or d has passed.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// TestAnalyticsTwoProcessesOneBuffer runs two servers sharing one state
// directory (Claude Code and an editor on one machine), 400 feedback events
// each, delivering every second to one endpoint (issue 16, item 2): before,
// events were lost (one process cleared the other's appends) and duplicated
// (both sent the shared buffer); now each of the 800 arrives exactly once.
func TestAnalyticsTwoProcessesOneBuffer(t *testing.T) {
	t.Parallel()
	const perProcess = 400
	ep := newEventEndpoint(t, 0)
	skills := analyticsSkills(t, ep.srv.URL, 1, 10)
	state := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var wg sync.WaitGroup
	for p := range 2 {
		wg.Go(func() {
			cs, stderr := analyticsServer(ctx, t, skills, state)
			for i := range perProcess {
				reportUsage(ctx, t, cs, fmt.Sprintf("p%d-%d", p, i))
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v\n%s", err, stderr.String())
			}
		})
	}
	wg.Wait()
	// Both have exited: each flushed at close, or left its events in the
	// buffer for the other's turn. The final delivery at close is bounded
	// (shutdownFlushTimeout): on a loaded machine it may leave events in the
	// buffer, for the next start to deliver. Then a third process is that
	// next start. Either way no event may be lost or sent twice.
	if !waitFor(10*time.Second, func() bool { n, _ := ep.counts(); return n >= 2*perProcess }) {
		n, _ := ep.counts()
		t.Logf("%d of %d events arrived from the two processes; a next start delivers the buffer", n, 2*perProcess)
		cs, stderr := analyticsServer(ctx, t, skills, state)
		if !waitFor(30*time.Second, func() bool { n, _ := ep.counts(); return n >= 2*perProcess }) {
			t.Logf("not every event arrived in 30 s after the next start\n%s", stderr.String())
		}
		if err := cs.Close(); err != nil {
			t.Logf("close: %v\n%s", err, stderr.String())
		}
	}
	total, ids := ep.counts()
	dups := 0
	for id, n := range ids {
		if id == "" {
			t.Errorf("%d events arrived without an id", n)
		}
		dups += n - 1
	}
	if len(ids) != 2*perProcess || total != 2*perProcess {
		t.Errorf("endpoint got %d events, %d distinct ids (%d duplicates); want %d exactly once", total, len(ids), dups, 2*perProcess)
	}
	if left, _ := filepath.Glob(filepath.Join(state, "analytics-buffer.jsonl*")); len(left) > 0 {
		for _, f := range left {
			if info, err := os.Stat(f); err == nil && info.Size() > 0 && filepath.Ext(f) != ".lock" && filepath.Ext(f) != ".deliver" {
				t.Errorf("%s still holds %d bytes after delivery", f, info.Size())
			}
		}
	}
}

// TestAnalyticsFeedbackSurvivesSIGKILL kills the server right after
// report_usage answered (issue 16, item 3): before, the event lived only in
// memory until the next 30 s flush and was lost; now it is on disk before the
// answer, and the next start delivers it.
func TestAnalyticsFeedbackSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	ep := newEventEndpoint(t, 0)
	skills := analyticsSkills(t, ep.srv.URL, 30, 10)
	state := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	cmd := serverCmd(t, "SKILLS_STATE_DIR="+state, "SKILLS_DIR="+skills)
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "analytics-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	reportUsage(ctx, t, cs, "acknowledged then killed")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cs.Close()
	if n, _ := ep.counts(); n != 0 {
		t.Fatalf("endpoint got %d events before the kill; the test needs the event undelivered", n)
	}

	cs2, _ := analyticsServer(ctx, t, skills, state)
	defer cs2.Close()
	if !waitFor(30*time.Second, func() bool { n, _ := ep.counts(); return n > 0 }) { // a safety net
		t.Fatalf("the acknowledged event was not delivered by the next start\n%s", stderr.String())
	}
	ep.mu.Lock()
	got := ep.requests[0][0]
	ep.mu.Unlock()
	if data, _ := got["data"].(map[string]any); data["comment"] != "acknowledged then killed" {
		t.Errorf("delivered %v, want the feedback acknowledged before the kill", got)
	}
}

// TestAnalyticsSlowEndpointResendsTheSameIDs has an endpoint that takes the
// first batch and answers long after the client's 1 s timeout (issue 16, item 4):
// the batch is sent again, and before the endpoint could not tell the copies
// from new events; now every copy carries its event's id, and no id is sent
// again once a delivery succeeded.
func TestAnalyticsSlowEndpointResendsTheSameIDs(t *testing.T) {
	t.Parallel()
	const n = 100
	ep := newEventEndpoint(t, 30*time.Second) // far past the client's 1 s timeout
	skills := analyticsSkills(t, ep.srv.URL, 1, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, stderr := analyticsServer(ctx, t, skills, t.TempDir())
	for i := range n {
		reportUsage(ctx, t, cs, fmt.Sprintf("slow-%d", i))
	}
	if !waitFor(20*time.Second, func() bool { _, ids := ep.counts(); return len(ids) >= n }) {
		t.Logf("not every event arrived\n%s", stderr.String())
	}
	_ = cs.Close()

	ep.mu.Lock()
	defer ep.mu.Unlock()
	if len(ep.requests) < 2 {
		t.Fatalf("endpoint got %d requests; the test needs a retry after the slow one", len(ep.requests))
	}
	seen := map[string]bool{}
	afterFirst := map[string]int{}
	for i, req := range ep.requests {
		for _, ev := range req {
			id, _ := ev["id"].(string)
			if id == "" {
				t.Fatalf("request %d carries an event without an id: %v", i, ev)
			}
			seen[id] = true
			if i > 0 {
				afterFirst[id]++
			}
		}
	}
	if len(seen) != n {
		t.Errorf("endpoint got %d distinct ids, want %d", len(seen), n)
	}
	for id, c := range afterFirst {
		if c > 1 {
			t.Errorf("id %s was sent %d times after the slow request (a delivery that succeeded was repeated)", id, c)
		}
	}
}
