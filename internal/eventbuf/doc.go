// Package eventbuf owns the local analytics buffer of spec 000 §10.4: a JSONL file
// (one core.Event per line, by default ~/.skills-mcp/analytics-buffer.jsonl)
// that events are appended to while the HTTP endpoint is unreachable.
//
// Appends write whole lines in one O_APPEND write followed by fsync, so a crash
// can at worst leave a torn last line; ReadAll skips such lines with a warning
// and keeps every other one. The file is bounded: when an append would exceed
// the size limit the oldest lines are dropped through an atomic rewrite
// (temporary file + rename).
package eventbuf
