package httpguard

import (
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionIDHeader carries the session id of the Streamable HTTP transport.
const sessionIDHeader = "Mcp-Session-Id"

// sessionCap bounds the live sessions of the HTTP transport: before a request
// that may open one (a POST without a session id) it closes the least
// recently used sessions until there is room, so a flood of initialize calls
// holds at most max sessions. The go-sdk forgets a closed session, so its id
// then gets 404, on which the MCP spec has the client start a new session.
type sessionCap struct {
	max int
	srv *mcp.Server
	now func() time.Time

	mu       sync.Mutex
	lastUsed map[string]time.Time // sessions opened over HTTP
}

func newSessionCap(max int, srv *mcp.Server) *sessionCap {
	return &sessionCap{max: max, srv: srv, now: time.Now, lastUsed: map[string]time.Time{}}
}

func (c *sessionCap) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(sessionIDHeader); id != "" {
			c.touch(id, false)
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodPost {
			c.makeRoom()
		}
		next.ServeHTTP(w, r)
		if id := w.Header().Get(sessionIDHeader); id != "" {
			c.touch(id, true)
		}
	})
}

// touch marks session id used now. Only the id of a session just opened is
// added: ids a client makes up are never kept.
func (c *sessionCap) touch(id string, opened bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, known := c.lastUsed[id]; known || opened {
		c.lastUsed[id] = c.now()
	}
}

// makeRoom forgets sessions the go-sdk has closed (idle timeout, DELETE), then
// closes the least recently used ones until one more fits.
func (c *sessionCap) makeRoom() {
	live := map[string]*mcp.ServerSession{}
	for ss := range c.srv.Sessions() {
		if id := ss.ID(); id != "" {
			live[id] = ss
		}
	}
	var evict []*mcp.ServerSession
	c.mu.Lock()
	for id := range c.lastUsed {
		if live[id] == nil {
			delete(c.lastUsed, id)
		}
	}
	for len(c.lastUsed) >= c.max {
		oldest, first := "", true
		for id, t := range c.lastUsed {
			if first || t.Before(c.lastUsed[oldest]) || (t.Equal(c.lastUsed[oldest]) && id < oldest) {
				oldest, first = id, false
			}
		}
		delete(c.lastUsed, oldest)
		evict = append(evict, live[oldest])
	}
	c.mu.Unlock()
	for _, ss := range evict {
		_ = ss.Close()
	}
}
