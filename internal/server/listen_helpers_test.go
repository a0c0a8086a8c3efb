package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// awaitListen prepares c, made with opts, so that the func it returns waits,
// once c is connected as cs, until the server can deliver cs the list_changed
// notifications opts handles. At 2026-07-28 the go-sdk client opens
// subscriptions/listen in the background after Connect returns, and the
// server notifies only sessions listening: a rebuild before the server
// acknowledged the listen loses its notifications. Older protocols get them
// on the session itself, at once.
func awaitListen(c *mcp.Client, opts *mcp.ClientOptions) func(t *testing.T, cs *mcp.ClientSession) {
	acked := make(chan struct{}, 1)
	c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "notifications/subscriptions/acknowledged" {
				select {
				case acked <- struct{}{}:
				default:
				}
			}
			return res, err
		}
	})
	return func(t *testing.T, cs *mcp.ClientSession) {
		t.Helper()
		init := cs.InitializeResult()
		if opts == nil || init.ProtocolVersion < "2026-07-28" || init.Capabilities == nil {
			return
		}
		caps := init.Capabilities
		if !(opts.ToolListChangedHandler != nil && caps.Tools != nil && caps.Tools.ListChanged ||
			opts.PromptListChangedHandler != nil && caps.Prompts != nil && caps.Prompts.ListChanged ||
			opts.ResourceListChangedHandler != nil && caps.Resources != nil && caps.Resources.ListChanged) {
			return // the client opens no listen
		}
		select {
		case <-acked:
		case <-time.After(60 * time.Second): // a safety net
			t.Fatal("no notifications/subscriptions/acknowledged within 60 s")
		}
	}
}
