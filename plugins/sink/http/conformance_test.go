package http_test

import (
	"encoding/json"
	nethttp "net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	httpsink "github.com/skills-mcp/skills-mcp/plugins/sink/http"
	"github.com/skills-mcp/skills-mcp/plugins/sink/sinktest"
)

// collector is an analytics endpoint that keeps every batch it is posted.
type collector struct {
	mu     sync.Mutex
	events []core.Event
}

func (c *collector) ServeHTTP(w nethttp.ResponseWriter, r *nethttp.Request) {
	var body struct {
		Events []core.Event `json:"events"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		nethttp.Error(w, err.Error(), nethttp.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.events = append(c.events, body.Events...)
	c.mu.Unlock()
}

func TestConformance(t *testing.T) {
	endpoints := map[core.Sink]*collector{}
	var mu sync.Mutex
	sinktest.Run(t, sinktest.Harness{
		New: func(t *testing.T) core.Sink {
			c := &collector{}
			srv := httptest.NewServer(c)
			t.Cleanup(srv.Close)
			s := httpsink.New(httpsink.Options{Endpoint: srv.URL + "/events"})
			mu.Lock()
			endpoints[s] = c
			mu.Unlock()
			return s
		},
		Delivered: func(t *testing.T, s core.Sink) []core.Event {
			mu.Lock()
			c := endpoints[s]
			mu.Unlock()
			c.mu.Lock()
			defer c.mu.Unlock()
			return append([]core.Event(nil), c.events...)
		},
	})
}
