// Package sinktest owns the conformance suite every core.Sink passes, the
// built-in ones and a third party's, in the manner of go-cloud's drivertest
// and runners/runnertest: a sink package supplies a Harness (a fresh sink and
// a way to read back what it delivered) and calls Run from a test.
//
// The suite checks what core.Sink promises: a batch arrives whole and in
// order, and batches in the order they were emitted; concurrent Emits lose
// nothing, duplicate nothing and keep each caller's order; an empty batch
// delivers nothing; an Emit with a cancelled context either delivers the batch
// or says so with an error wrapping context.Canceled; event payloads survive
// intact (line separators, quotes, Unicode, nesting); and, through
// internal/events' publisher, everything still queued at shutdown reaches the sink
// before its Close.
package sinktest
