// Package log owns the debugging analytics sink: it writes every event to an
// hclog.Logger (stderr in the server) at Info level instead of sending it
// anywhere.
package log
