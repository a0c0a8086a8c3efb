package stdio

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A large result (a whole-tree list_skills: 5.4 MB at 10,000 skills) handed
// to the go-sdk is marshaled by its jsonrpc2 layer with an encoding/json
// Encoder: one copy compacted into the encoder's pooled buffer, which stays
// allocated until the collector empties the pool, and one into the Encoder's
// output. A connection of a LineTransport run under a context made by
// WithDeferredResults writes such a result itself instead: the go-sdk is
// handed a placeholder of a few bytes (Deferred) and the connection, meeting
// the placeholder as the result of a response, writes the real result in its
// place, straight from what the handler built, through a small buffer.

// deferredKey is the context key of a connection's deferred results.
type deferredKey struct{}

// deferrals holds the results waiting for the connection to write them,
// under placeholders unique to it.
type deferrals struct {
	prefix string // `{"skills-mcp-deferred":"<nonce>-`

	mu   sync.Mutex
	next uint64
	held map[string]WriteFunc // placeholder → what writes the result
}

// WithDeferredResults returns ctx carrying a store of deferred results. A
// LineTransport connected with it writes the results handed to Deferred in
// place of their placeholders; run a server session on the transport with
// that context (the go-sdk derives the handlers' contexts from it), and on
// no other transport.
func WithDeferredResults(ctx context.Context) context.Context {
	var nonce [12]byte
	_, _ = rand.Read(nonce[:])
	d := &deferrals{prefix: `{"skills-mcp-deferred":"` + hex.EncodeToString(nonce[:]) + "-", held: map[string]WriteFunc{}}
	return context.WithValue(ctx, deferredKey{}, d)
}

func deferralsOf(ctx context.Context) *deferrals {
	d, _ := ctx.Value(deferredKey{}).(*deferrals)
	return d
}

// CanDefer reports whether a request handled under ctx may answer with
// Deferred: whether its connection writes deferred results.
func CanDefer(ctx context.Context) bool { return deferralsOf(ctx) != nil }

// WriteFunc writes a deferred result to w; w's errors are its own to keep
// (bufio.Writer's are sticky, and the caller flushes).
type WriteFunc func(w *bufio.Writer)

// Deferred is a result the connection writes in place of its placeholder:
// the bytes its WriteFunc writes, which must be a JSON value the go-sdk's
// encoder would write unchanged (compact, HTML characters unescaped). Make
// it with NewDeferred from the request's context; its MarshalJSON, called
// by the go-sdk when it answers, stores the writer and returns the
// placeholder.
type Deferred struct {
	mcp.ResultBase
	d    *deferrals
	w    WriteFunc
	once sync.Once
	ph   []byte
}

// NewDeferred returns the result w writes, deferred to the connection of
// ctx; nil when the connection does not write deferred results (CanDefer).
func NewDeferred(ctx context.Context, w WriteFunc) *Deferred {
	d := deferralsOf(ctx)
	if d == nil {
		return nil
	}
	return &Deferred{d: d, w: w}
}

// MarshalJSON stores the result for the connection and returns its
// placeholder; the same one however often it is called.
func (r *Deferred) MarshalJSON() ([]byte, error) {
	r.once.Do(func() {
		r.d.mu.Lock()
		defer r.d.mu.Unlock()
		r.d.next++
		r.ph = []byte(r.d.prefix + strconv.FormatUint(r.d.next, 10) + `"}`)
		r.d.held[string(r.ph)] = r.w
	})
	return r.ph, nil
}

// take returns, and forgets, the result held under the placeholder raw; nil
// when raw is not one of this store's placeholders.
func (d *deferrals) take(raw json.RawMessage) WriteFunc {
	if d == nil || len(raw) > len(d.prefix)+24 || len(raw) < len(d.prefix) || string(raw[:len(d.prefix)]) != d.prefix {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	w := d.held[string(raw)]
	delete(d.held, string(raw))
	return w
}
