package httpguard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// firstChunk is the buffer a body starts in; it doubles as the body arrives.
const firstChunk = 4 << 10

// bodyBudget bounds the bytes of request bodies held at once, all requests
// together. A request takes from it as its body arrives, never waiting: one
// that finds it exhausted is refused with 503, so slow clients hold only what
// they have sent and no set of requests can wait on each other.
type bodyBudget struct {
	mu   sync.Mutex
	left int64
}

func (b *bodyBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

func (b *bodyBudget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left += n
}

// limitBody reads a request body before the handler sees it, within bounds: a
// body announced longer than limit is refused with 413 before a byte of it is
// read, one that turns out longer is refused at limit+1 bytes; the body must
// arrive within readTimeout (408 otherwise); and its bytes are taken from
// budget until the handler returns (503 when it is exhausted); a message whose
// id its answer could not carry exactly is refused (checkBodyIDs). Once the body
// is read the connection's read deadline is lifted, so a long tool call is not
// cut by it.
func limitBody(limit int64, budget *bodyBudget, readTimeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		// The deadline also bounds net/http's read of what is left of a
		// refused body, which it does before closing the connection.
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(readTimeout))
		if r.ContentLength > limit {
			w.Header().Set("Connection", "close")
			tooLarge(w, limit)
			return
		}
		body, held, err := readBody(http.MaxBytesReader(innermost(w), r.Body, limit), budget)
		defer budget.give(held)
		if err == nil {
			_ = rc.SetReadDeadline(time.Time{})
		}
		var ne net.Error
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			w.Header().Set("Connection", "close")
			tooLarge(w, limit)
			return
		case errors.Is(err, errNoBudget):
			w.Header().Set("Connection", "close")
			w.Header().Set("Retry-After", "1")
			http.Error(w, "Service Unavailable: too many request bodies are being received at once; retry shortly", http.StatusServiceUnavailable)
			return
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Request Timeout: the body did not arrive within %s", readTimeout), http.StatusRequestTimeout)
			return
		case err != nil:
			http.Error(w, "Bad Request: reading the request body failed", http.StatusBadRequest)
			return
		}
		if reason := checkBodyIDs(body); reason != "" {
			invalidRequest(w, reason)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, withPostedBody(r, body))
	})
}

var errNoBudget = errors.New("body budget exhausted")

// innermost unwraps w to the server's own ResponseWriter, which
// http.MaxBytesReader tells to close the connection gracefully (after the
// client has read the answer) when a body is over the limit.
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// readBody reads body to its end into a buffer that starts at firstChunk
// bytes and doubles, taking each growth from budget before it allocates; held
// is what it took, to give back. Only what a client has sent is held, so a
// slow client holds little.
func readBody(body io.Reader, budget *bodyBudget) (data []byte, held int64, err error) {
	for {
		if len(data) == cap(data) {
			grow := int64(max(cap(data), firstChunk))
			if !budget.take(grow) {
				return nil, held, errNoBudget
			}
			held += grow
			bigger := make([]byte, len(data), int64(cap(data))+grow)
			copy(bigger, data)
			data = bigger
		}
		n, rerr := body.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if rerr == io.EOF {
			return data, held, nil
		}
		if rerr != nil {
			return nil, held, rerr
		}
	}
}

func tooLarge(w http.ResponseWriter, limit int64) {
	http.Error(w, fmt.Sprintf("Request Entity Too Large: the body exceeds %d bytes", limit), http.StatusRequestEntityTooLarge)
}
