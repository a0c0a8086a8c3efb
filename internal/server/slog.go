package server

import (
	"context"
	"log/slog"

	"github.com/hashicorp/go-hclog"
)

// newSDKLogger returns a *slog.Logger for the go-sdk's own records, so that
// they land in log's stderr stream, at its level filter, with their INFO
// records lowered to DEBUG: every one of them is session lifecycle ("server
// session connected", "session initialized"), which a stateless HTTP server
// would otherwise log several times per request. Its warnings and errors keep
// their level.
func newSDKLogger(log hclog.Logger) *slog.Logger {
	return slog.New(&hclogHandler{log: log, infoAsDebug: true})
}

type hclogHandler struct {
	log         hclog.Logger
	attrs       []any
	group       string
	infoAsDebug bool
}

// level is the hclog level a record of level l is logged at.
func (h *hclogHandler) level(l slog.Level) hclog.Level {
	lvl := toHclog(l)
	if h.infoAsDebug && lvl == hclog.Info {
		return hclog.Debug
	}
	return lvl
}

func (h *hclogHandler) Enabled(_ context.Context, l slog.Level) bool {
	lvl := h.log.GetLevel()
	return lvl != hclog.Off && h.level(l) >= lvl
}

func (h *hclogHandler) Handle(_ context.Context, r slog.Record) error {
	args := append([]any(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		args = append(args, h.key(a.Key), a.Value.Resolve().Any())
		return true
	})
	h.log.Log(h.level(r.Level), r.Message, args...)
	return nil
}

func (h *hclogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	next := *h
	next.attrs = append([]any(nil), h.attrs...)
	for _, a := range attrs {
		next.attrs = append(next.attrs, h.key(a.Key), a.Value.Resolve().Any())
	}
	return &next
}

func (h *hclogHandler) WithGroup(name string) slog.Handler {
	next := *h
	next.group = h.key(name)
	return &next
}

func (h *hclogHandler) key(k string) string {
	if h.group == "" {
		return k
	}
	return h.group + "." + k
}

func toHclog(l slog.Level) hclog.Level {
	switch {
	case l < slog.LevelInfo:
		return hclog.Debug
	case l < slog.LevelWarn:
		return hclog.Info
	case l < slog.LevelError:
		return hclog.Warn
	default:
		return hclog.Error
	}
}
