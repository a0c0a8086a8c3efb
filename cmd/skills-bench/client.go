package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// client speaks MCP to one server process as raw newline-delimited JSON-RPC:
// no SDK on the client side, so the round trips measured are the server's and
// the pipe's, with as little client overhead as a few bytes of encoding.
type client struct {
	w       io.WriteCloser
	writeMu sync.Mutex
	nextID  atomic.Int64

	mu      sync.Mutex
	pending map[int64]chan response
	readErr error
	done    chan struct{}
}

// response is one JSON-RPC response, its result kept raw.
type response struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// errClosed: the server closed its stdout before answering.
var errClosed = errors.New("server closed the connection")

// newClient reads responses from r (the server's stdout) and writes requests to w.
func newClient(r io.Reader, w io.WriteCloser) *client {
	c := &client{w: w, pending: map[int64]chan response{}, done: make(chan struct{})}
	go c.readLoop(r)
	return c
}

func (c *client) readLoop(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20) // a 10,000-skill list_skills answer is megabytes long
	for sc.Scan() {
		var resp response
		if err := json.Unmarshal(sc.Bytes(), &resp); err != nil || resp.ID == 0 {
			continue // a notification, or noise
		}
		c.mu.Lock()
		ch := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
	c.mu.Lock()
	c.readErr = sc.Err()
	if c.readErr == nil {
		c.readErr = errClosed
	}
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.done)
}

// call sends one request and waits for its response; an error response is an error.
func (c *client) call(method string, params any) (json.RawMessage, error) {
	id := c.nextID.Add(1)
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", method, err)
	}
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("calling %s: %w", method, c.readErr)
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.send(body); err != nil {
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	resp, ok := <-ch
	if !ok {
		return nil, fmt.Errorf("calling %s: %w", method, errClosed)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("calling %s: error %d: %s", method, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result, nil
}

// notify sends a notification (no response).
func (c *client) notify(method string) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	if err != nil {
		return err
	}
	return c.send(body)
}

func (c *client) send(body []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(append(body, '\n'))
	return err
}

// toolResult is the part of a tools/call result the benchmark checks.
type toolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
}

// callTool calls a tool and returns its text; a tool error is an error.
func (c *client) callTool(name string, args map[string]any) (string, error) {
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return "", err
	}
	var res toolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", fmt.Errorf("decoding the %s result: %w", name, err)
	}
	text := ""
	if len(res.Content) > 0 {
		text = res.Content[0].Text
	}
	if res.IsError {
		return "", fmt.Errorf("tool %s failed: %s", name, text)
	}
	return text, nil
}

// initializeParams is what an MCP client sends first.
var initializeParams = map[string]any{
	"protocolVersion": "2025-06-18",
	"capabilities":    map[string]any{},
	"clientInfo":      map[string]any{"name": "skills-bench", "version": "1"},
}
