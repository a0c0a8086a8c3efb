package hybrid

import (
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
)

// health remembers whether the endpoint is failing, so that an outage costs
// one warning (not one per request) and, while it lasts, requests are served
// by ranked at once: one probe per retry interval finds out when it is over.
type health struct {
	log   hclog.Logger
	retry time.Duration
	now   func() time.Time

	mu      sync.Mutex
	failing bool
	next    time.Time // while failing, no query is embedded before this
}

// allow reports whether a request may call the endpoint: always when it is
// healthy; while it fails, one caller per retry interval (the probe).
func (h *health) allow() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.failing {
		return true
	}
	if now := h.now(); !now.Before(h.next) {
		h.next = now.Add(h.retry)
		return true
	}
	return false
}

// failed records a failure; the first of an outage is logged as a warning,
// the others at debug level.
func (h *health) failed(doing string, err error) {
	h.mu.Lock()
	first := !h.failing
	h.failing, h.next = true, h.now().Add(h.retry)
	h.mu.Unlock()
	if first {
		h.log.Warn("embeddings unavailable: routing with the ranked matcher alone until the endpoint answers again",
			"doing", doing, "error", err, "retry_every", h.retry)
	} else {
		h.log.Debug("embeddings still unavailable", "doing", doing, "error", err)
	}
}

// ok records a success; the end of an outage is logged once.
func (h *health) ok() {
	h.mu.Lock()
	was := h.failing
	h.failing = false
	h.mu.Unlock()
	if was {
		h.log.Info("embeddings endpoint answers again: hybrid routing resumed")
	}
}
