package engine

import (
	"bytes"
	"io"
	"sync"
)

// oomMarkers are what guest runtimes print when an allocation fails because
// memory.grow was refused: Go ("fatal error: out of memory"), Rust ("memory
// allocation of N bytes failed"), C and others ("out of memory", "Cannot allocate memory").
var oomMarkers = [][]byte{
	[]byte("out of memory"),
	[]byte("memory allocation of"),
	[]byte("Cannot allocate memory"),
}

// oomWatcher passes the guest's stderr through and notes whether an
// out-of-memory message went by, even one split across writes or beyond the
// output cap.
type oomWatcher struct {
	w    io.Writer
	mu   sync.Mutex
	tail []byte // the last bytes seen, so a marker split across writes is found
	seen bool
}

// Write implements io.Writer.
func (o *oomWatcher) Write(p []byte) (int, error) {
	o.mu.Lock()
	if !o.seen {
		buf := append(o.tail, p...)
		for _, m := range oomMarkers {
			if bytes.Contains(buf, m) {
				o.seen = true
				break
			}
		}
		keep := min(len(buf), 64)
		o.tail = append(o.tail[:0], buf[len(buf)-keep:]...)
	}
	o.mu.Unlock()
	return o.w.Write(p)
}

func (o *oomWatcher) sawOOM() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.seen
}
