package skillscmd

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestHardenAnalyticsSharedBuffer is the long form of item 2 of issue 16:
// three servers share one state directory and deliver every second to an
// endpoint that refuses a third of the batches, while a fourth starts and
// stops every 200 ms. Every event report_usage acknowledged arrives, and none
// twice (the endpoint records only the batches it accepts and answers at
// once, so no retry of an accepted batch is legitimate; a SIGKILL between an
// accepted batch and its removal would be, which is why no process is killed
// here: TestAnalyticsFeedbackSurvivesSIGKILL covers the kill).
func TestHardenAnalyticsSharedBuffer(t *testing.T) {
	hardenOnly(t)
	const perProcess = 600
	var mu sync.Mutex
	got := map[string]int{}
	refused := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Events []map[string]any `json:"events"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if rand.IntN(3) == 0 {
			refused++
			http.Error(w, "try later", http.StatusServiceUnavailable)
			return
		}
		for _, ev := range body.Events {
			id, _ := ev["id"].(string)
			got[id]++
		}
	}))
	defer srv.Close()
	skills := analyticsSkills(t, srv.URL, 1, 5)
	state := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	start := func() (*mcp.ClientSession, *testlog.Buffer) {
		cmd := serverCmd(t, "SKILLS_STATE_DIR="+state, "SKILLS_DIR="+skills)
		stderr := &testlog.Buffer{}
		cmd.Stderr = stderr
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "harden-analytics", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, stderr.String())
		}
		return cs, stderr
	}
	var wg sync.WaitGroup
	stopChurn := make(chan struct{})
	churned := make(chan int)
	go func() { // a server starting and stopping: a flush at start, a final one at close
		n := 0
		defer func() { churned <- n }()
		for {
			select {
			case <-stopChurn:
				return
			default:
			}
			cs, _ := start()
			time.Sleep(200 * time.Millisecond)
			_ = cs.Close()
			n++
		}
	}()
	for p := range 3 {
		wg.Go(func() {
			cs, _ := start()
			for i := range perProcess {
				reportUsage(ctx, t, cs, fmt.Sprintf("p%d-%d", p, i))
				if i%50 == 0 {
					time.Sleep(300 * time.Millisecond) // let several flushes interleave
				}
			}
			_ = cs.Close()
		})
	}
	wg.Wait()
	close(stopChurn)
	restarts := <-churned
	// A last server delivers what the others could not before they exited.
	cs, stderr := start()
	defer cs.Close()
	want := 3 * perProcess
	if !waitFor(60*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) >= want }) {
		t.Logf("not every event arrived\n%s", stderr.String())
	}
	mu.Lock()
	defer mu.Unlock()
	dups := 0
	for _, n := range got {
		dups += n - 1
	}
	t.Logf("%d events acknowledged, %d distinct ids delivered, %d duplicates, %d batches refused by the endpoint, %d restarts of the fourth server",
		want, len(got), dups, refused, restarts)
	if len(got) != want || dups != 0 {
		t.Errorf("got %d distinct of %d events, %d duplicates; want each exactly once", len(got), want, dups)
	}
}
