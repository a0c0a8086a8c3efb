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

// TestHardenHTTPBodyMemory posts 32 bodies of 8 MiB at once, with their length
// announced and streamed (chunked), three rounds each, and holds the server's
// peak RSS under 100 MiB (issue 16, item 7: 88-130 MiB before, 2.7 GB before
// the 413). Every request is refused (413, or 503 when the bodies in flight
// fill http.max_body_memory_bytes) and a normal client is served after.
func TestHardenHTTPBodyMemory(t *testing.T) {
	hardenOnly(t)
	const concurrent, size, rounds = 32, 8 * mib, 3
	b := startHTTPBinary(t, "")
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: concurrent}}
	if status, _, _ := b.initialize(t, client); status != http.StatusOK {
		t.Fatalf("initialize: got %d", status)
	}
	before := b.peakRSS(t)
	payload := bytes.Repeat([]byte("x"), size)
	statuses := map[int]int{} // -1: the connection failed before an answer
	var mu sync.Mutex
	for _, chunked := range []bool{false, true} {
		for range rounds {
			var wg sync.WaitGroup
			for range concurrent {
				wg.Add(1)
				go func() {
					defer wg.Done()
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
				}()
			}
			wg.Wait()
		}
	}
	peak := b.peakRSS(t)
	t.Logf("peak RSS: %.1f MiB before the attack, %.1f MiB after %d rounds of %d concurrent %d MiB bodies (length announced and chunked); answers %v",
		float64(before)/mib, float64(peak)/mib, 2*rounds, concurrent, size/mib, statuses)
	if peak > 100*mib {
		t.Errorf("peak RSS: got %.1f MiB, want under 100 MiB", float64(peak)/mib)
	}
	for status, n := range statuses {
		if status != http.StatusRequestEntityTooLarge && status != http.StatusServiceUnavailable {
			t.Errorf("%d requests got %d, want 413 or 503", n, status)
		}
	}
	if status, _, body := b.initialize(t, &http.Client{}); status != http.StatusOK {
		t.Errorf("a normal client after the attack: got %d %s", status, body)
	}
}

// TestHardenHTTPSessionFlood sends 10,000 initialize calls (issue 16, item
// 12: they held 218 MB, none ever evicted): the live sessions stay at
// http.max_sessions (1,000 by default) and the peak RSS under 100 MiB.
func TestHardenHTTPSessionFlood(t *testing.T) {
	hardenOnly(t)
	const total, workers = 10000, 8
	b := startHTTPBinary(t, "")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	var first string
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
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
		}()
	}
	for i := range total {
		next <- i
	}
	close(next)
	wg.Wait()
	peak := b.peakRSS(t)
	t.Logf("peak RSS after %d initialize calls: %.1f MiB (%d failed)", total, float64(peak)/mib, failed)
	if failed > 0 {
		t.Errorf("%d of %d initialize calls failed, want none", failed, total)
	}
	if peak > 100*mib {
		t.Errorf("peak RSS: got %.1f MiB, want under 100 MiB", float64(peak)/mib)
	}
	if status, _, _ := b.post(t, client, first, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusNotFound {
		t.Errorf("the first session after %d more: got %d, want 404 (evicted)", total-1, status)
	}
}
