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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
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
	return "http://" + ln.Addr().String() + "/skills.git"
}
