package server

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolCaller calls a server's tools the way a session's tools/call reaches
// it: every receiving middleware, the go-sdk's checking and encoding of the
// tool's input and output, the handler; without a transport or a client.
type toolCaller struct {
	next mcp.MethodHandler
	ss   *mcp.ServerSession
}

// toolCallers holds one toolCaller per server, for the whole process: a
// benchmark server serves many benchmarks.
var toolCallers sync.Map // *Server → *toolCaller

// callerFor returns s's toolCaller, connecting an in-memory client to s the
// first time.
func callerFor(tb testing.TB, s *Server) *toolCaller {
	tb.Helper()
	if c, ok := toolCallers.Load(s); ok {
		return c.(*toolCaller)
	}
	c := &toolCaller{}
	// Added last, this middleware is the outermost: next is the whole chain.
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		c.next = next
		return next
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(ctx, st, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "caller"}, nil).Connect(ctx, ct, nil); err != nil {
		tb.Fatal(err)
	}
	c.ss = ss
	actual, _ := toolCallers.LoadOrStore(s, c)
	return actual.(*toolCaller)
}

// call calls tool name with the JSON arguments.
func (c *toolCaller) call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	res, err := c.next(ctx, "tools/call", &mcp.CallToolRequest{Session: c.ss, Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args}})
	if err != nil {
		return nil, err
	}
	return res.(*mcp.CallToolResult), nil
}
