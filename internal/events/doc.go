// Package events owns the analytics pipeline of spec 000 §10 between the tool
// handlers and the sinks: the Tracker's bounded in-memory queue (§10.1), the
// Publisher's periodic flush cycle (§10.3), and the local fallback through a
// Buffer (§10.4).
//
// It works only through core.Sink and the Buffer interface it defines; the
// Buffer the server uses is internal/eventbuf's JSONL file, and the concrete
// sinks (http, jsonl, log, otlp) live under plugins/sink/ and are chosen in
// cmd/skillscmd.
//
// Tool handlers call Tracker.Track, which never waits on I/O. The Publisher
// drains the tracker every interval, sends buffered and new events to the
// primary sink in one batch, clears the buffer on success and appends only the
// new events to it on failure, so no event is lost or sent twice.
package events
