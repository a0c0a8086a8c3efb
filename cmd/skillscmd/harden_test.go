package skillscmd

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"
)

// The long attacks of issue 16 on the built binary: they run under `make
// harden` (SKILLS_HARDEN=1), which CI runs after `make test`.
func hardenOnly(t *testing.T) {
	t.Helper()
	if os.Getenv("SKILLS_HARDEN") == "" {
		t.Skip("a long attack: run it with `make harden` (SKILLS_HARDEN=1)")
	}
}

const mib = 1 << 20

// TestHardenHTTPBodyMemory posts bodies of 8 MiB, with their length announced
// and streamed (chunked), three rounds each, one at a time and then 32 at
// once (issue 16, item 7: 88-130 MiB peak RSS before, 2.7 GB before the 413).
// Every request is refused (413, or 503 when the bodies in flight fill
// http.max_body_memory_bytes, or its connection closed mid-body) and a normal client is served after. The bound
// on memory is a ratio in the same run, not a figure: the peak RSS (VmHWM)
// after 32 bodies at once against the peak after one at a time, since what
// the server holds of bodies in flight is capped, not proportional to them.
func TestHardenHTTPBodyMemory(t *testing.T) {
	hardenOnly(t)
	const concurrent, size, rounds = 32, 8 * mib, 3
	b := startHTTPBinary(t, "")
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: concurrent}}
	if status, _, _ := b.initialize(t, client); status != http.StatusOK {
		t.Fatalf("initialize: got %d", status)
	}
	payload := bytes.Repeat([]byte("x"), size)
	statuses := map[int]int{} // -1: the connection failed before an answer
	var mu sync.Mutex
	attack := func(concurrent int) {
		for _, chunked := range []bool{false, true} {
			for range rounds {
				var wg sync.WaitGroup
				for range concurrent {
					wg.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a safety net
						defer cancel()
						var body io.Reader = bytes.NewReader(payload)
						if chunked {
							body = io.MultiReader(body) // no length: sent chunked
						}
						req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/mcp", body)
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("Accept", "application/json, text/event-stream")
						status := -1
						if resp, err := client.Do(req); err == nil {
							_, _ = io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
							status = resp.StatusCode
						}
						mu.Lock()
						statuses[status]++
						mu.Unlock()
					})
				}
				wg.Wait()
			}
		}
	}
	before := b.peakRSS(t)
	attack(1)
	alone := b.peakRSS(t)
	attack(concurrent)
	peak := b.peakRSS(t)
	t.Logf("peak RSS: %.1f MiB before the attack, %.1f MiB after %d rounds of one %d MiB body, %.1f MiB after %d rounds of %d at once (length announced and chunked): %.2f times; answers %v",
		float64(before)/mib, float64(alone)/mib, 2*rounds, size/mib, float64(peak)/mib, 2*rounds, concurrent, float64(peak)/float64(alone), statuses)
	// With the budget of bodies in memory (http.max_body_memory_bytes, 16
	// MiB) the bodies at once cost little more than one at a time. Measured
	// under make harden on a loaded 2-core machine (load average 18): 1.93
	// times with the budget, 6.96 times with none (the budget raised to 1
	// GiB). The bound, 3.5 times, is about 1.8 times away from both.
	if limit := 7 * alone / 2; peak > limit {
		t.Errorf("peak RSS: got %.1f MiB with %d bodies at once, want under 3.5 times the %.1f MiB with one at a time: the memory of bodies in flight is not capped",
			float64(peak)/mib, concurrent, float64(alone)/mib)
	}
	// A refused body may also end as a connection the server closed while
	// the client was still sending it (-1): that is a refusal too, and which
	// of the two a client sees depends on timing.
	for status, n := range statuses {
		if status != http.StatusRequestEntityTooLarge && status != http.StatusServiceUnavailable && status != -1 {
			t.Errorf("%d requests got %d, want 413 or 503 (or the connection closed)", n, status)
		}
	}
	if statuses[http.StatusRequestEntityTooLarge] == 0 {
		t.Errorf("no request got 413: %v", statuses)
	}
	if status, _, body := b.initialize(t, &http.Client{}); status != http.StatusOK {
		t.Errorf("a normal client after the attack: got %d %s", status, body)
	}
}

// TestHardenHTTPSessionFlood sends 10,000 initialize calls (issue 16, item
// 12: they held 218 MB, none ever evicted): the live sessions stay at
// http.max_sessions (1,000 by default), so the first is evicted, and the
// memory the flood holds stays that of the cap. The bound on memory is a
// ratio against the same server in the same run, not a figure: its peak RSS
// (VmHWM) once the first 1,000 sessions are live, against its peak after all
// 10,000.
func TestHardenHTTPSessionFlood(t *testing.T) {
	hardenOnly(t)
	const total, workers, maxSessions = 10000, 8, 1000 // maxSessions: http.max_sessions's default
	b := startHTTPBinary(t, "")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	var first string
	var mu sync.Mutex
	failed := 0
	// flood sends the initialize calls from to to-1 on workers connections.
	flood := func(from, to int) {
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Go(func() {
				for i := range next {
					status, id, _ := b.initialize(t, client)
					mu.Lock()
					if status != http.StatusOK {
						failed++
					}
					if i == 0 {
						first = id
					}
					mu.Unlock()
				}
			})
		}
		for i := from; i < to; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	idle := b.peakRSS(t)
	flood(0, maxSessions)
	atCap := b.peakRSS(t)
	flood(maxSessions, total)
	peak := b.peakRSS(t)
	t.Logf("peak RSS: %.1f MiB idle, %.1f MiB with the %d sessions of the cap live, %.1f MiB after %d initialize calls (%d failed); %.2f times the peak at the cap",
		float64(idle)/mib, float64(atCap)/mib, maxSessions, float64(peak)/mib, total, failed, float64(peak)/float64(atCap))
	if failed > 0 {
		t.Errorf("%d of %d initialize calls failed, want none", failed, total)
	}
	// With eviction the live sessions after 10,000 calls are as many as at
	// the cap; the peak adds the sessions being replaced and the collector's
	// slack, which grows when it lags behind a busy machine. Measured under
	// make harden on a loaded 2-core machine (load average 12-16): 2.13-2.27
	// times the peak at the cap with eviction, 7.1 times with none (the cap
	// raised past 10,000; 218 MB before the fix). The bound, 4 times, is
	// about 1.8 times away from both.
	if limit := 4 * atCap; peak > limit {
		t.Errorf("peak RSS: got %.1f MiB after %d initialize calls, want under 4 times the %.1f MiB at the cap of %d sessions: the sessions past the cap are not freed",
			float64(peak)/mib, total, float64(atCap)/mib, maxSessions)
	}
	if status, _, _ := b.post(t, client, first, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusNotFound {
		t.Errorf("the first session after %d more: got %d, want 404 (evicted)", total-1, status)
	}
}
