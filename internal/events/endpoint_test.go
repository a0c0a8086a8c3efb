package events_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// endpoint is a real HTTP analytics endpoint: it records every batch it
// accepts and answers 500 while down is set.
type endpoint struct {
	srv  *httptest.Server
	down atomic.Bool

	mu       sync.Mutex
	batches  [][]core.Event
	requests int
}

func newEndpoint(t *testing.T) *endpoint {
	t.Helper()
	e := &endpoint{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.requests++
		e.mu.Unlock()
		if e.down.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s with Content-Type %q, want POST application/json", r.Method, r.Header.Get("Content-Type"))
		}
		var body struct {
			Events []core.Event `json:"events"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("decoding request body: %v", err)
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		e.mu.Lock()
		e.batches = append(e.batches, body.Events)
		e.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

// received returns every accepted event, in arrival order.
func (e *endpoint) received() []core.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var all []core.Event
	for _, b := range e.batches {
		all = append(all, b...)
	}
	return all
}

func (e *endpoint) requestCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.requests
}

// idCounts counts events by their data "id" (JSON numbers decode as float64).
func idCounts(evs []core.Event) map[float64]int {
	counts := map[float64]int{}
	for _, ev := range evs {
		id, _ := ev.Data["id"].(float64)
		counts[id]++
	}
	return counts
}

// assertExactlyOnce fails unless ids 0..n-1 each appear exactly once.
func assertExactlyOnce(t *testing.T, evs []core.Event, n int) {
	t.Helper()
	counts := idCounts(evs)
	if len(evs) != n {
		t.Errorf("got %d events, want %d", len(evs), n)
	}
	for i := range n {
		if c := counts[float64(i)]; c != 1 {
			t.Errorf("event id %d seen %d times, want exactly once", i, c)
		}
	}
}
