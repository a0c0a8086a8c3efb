package skillscmd

import (
	"net"
	"sync"
)

// capListener accepts at most max connections at a time: while that many are
// open, Accept waits, and further clients wait in the kernel's backlog
// without costing the process a file descriptor.
type capListener struct {
	net.Listener
	slots chan struct{}
}

func limitConnections(ln net.Listener, max int) net.Listener {
	return &capListener{Listener: ln, slots: make(chan struct{}, max)}
}

// Accept implements net.Listener.
func (l *capListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &slotConn{Conn: c, release: func() { <-l.slots }}, nil
}

// slotConn gives its slot back when closed, once.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close implements net.Conn.
func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
