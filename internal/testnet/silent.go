// Package testnet holds network peers that tests of several packages need.
// Only tests import it.
package testnet

import (
	"net"
	"sync"
	"testing"
)

// SilentRemote is a TCP listener on loopback that accepts every connection and
// never writes a byte (a git remote that hangs); it returns an http URL to a
// repository on it. The listener and its connections close when t ends.
func SilentRemote(t testing.TB) string {
	t.Helper()
	url, _ := SilentRemoteAfter(t, 0)
	return url
}

// SilentRemoteAfter is SilentRemote whose first refused connections are closed
// as soon as accepted (a remote failing at once), the later ones held silent.
// Each held connection is reported on the returned channel (buffered: a test
// may ignore it), so that a test knows a client is hanging on the remote
// without sleeping.
func SilentRemoteAfter(t testing.TB, refused int) (url string, held <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	heldc := make(chan struct{}, 1024)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for n := 0; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if n < refused {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			select {
			case heldc <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/skills.git", heldc
}
