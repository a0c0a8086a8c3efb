//go:build !unix && !windows

package eventbuf

// lockFile has no cross-process lock on this platform: the buffer is safe
// between the goroutines of one process only (Buffer.mu).
func lockFile(string, bool) (func(), bool, error) { return func() {}, true, nil }
