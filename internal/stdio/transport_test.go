package stdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pipeConn is a LineTransport connection over two io.Pipes, with the test
// holding the client ends.
type pipeConn struct {
	conn mcp.Connection
	in   *io.PipeWriter
	out  *bufio.Reader
}

func connectPipes(t *testing.T) *pipeConn {
	t.Helper()
	return connectPipesWith(t, context.Background())
}

// connectPipesWith is connectPipes connecting with ctx.
func connectPipesWith(t *testing.T, ctx context.Context) *pipeConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn, err := (&LineTransport{In: inR, Out: outW}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		_ = outR.Close()
		_ = inW.Close()
	})
	return &pipeConn{conn: conn, in: inW, out: bufio.NewReader(outR)}
}

func (p *pipeConn) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("writing %q: %v", line, err)
	}
}

func (p *pipeConn) readLine(t *testing.T) string {
	t.Helper()
	line, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading a line: %v", err)
	}
	return line
}

func (p *pipeConn) read(t *testing.T) jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a safety net, not a speed assertion
	defer cancel()
	msg, err := p.conn.Read(ctx)
	if err != nil {
		t.Fatalf("reading a message: %v", err)
	}
	return msg
}

func TestLineTransportAnswersMalformedLines(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"garbage", "this is not json",
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"}}`},
		{"truncated object", `{"jsonrpc":"2.0","id":7,"method":"tools/list"`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"}}`},
		{"trailing garbage", `{"jsonrpc":"2.0","id":7,"method":"ping"} x`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"}}`},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are not supported"}}`},
		{"not a message", `{"hello":"world","id":9}`,
			`{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: invalid message version tag \"\"; expected \"2.0\""}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":"a","method":"ping"}`,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: invalid message version tag \"1.0\"; expected \"2.0\""}}`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id {\"a\":1} cannot be answered exactly: an id is a string, null, or an integer between -2^53 and 2^53"}}`},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: invalid request"}}`},
		{"nested too deep", nested(1001),
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: unmarshaling jsonrpc message: json: exceeded maximum nesting depth of 1000"}}`},
	}
	p := connectPipes(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.send(t, tt.line)
			if got := p.readLine(t); got != tt.want+"\n" {
				t.Errorf("got %q, want %q", got, tt.want+"\n")
			}
			// The session goes on: the next valid line is delivered (each
			// with its own id: nothing answers them, so they stay in flight).
			p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
			if req, ok := p.read(t).(*jsonrpc.Request); !ok || req.Method != "ping" {
				t.Errorf("after the rejected line got %#v, want the ping request", req)
			}
		})
	}
}

func TestLineTransportDeliversWhatTheSDKDecodes(t *testing.T) {
	lines := []struct{ name, line string }{
		{"call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_skill","arguments":{"context":"x"}}}`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"surrounding whitespace", " \t{ \"jsonrpc\" : \"2.0\", \"id\" : \"s\", \"method\" : \"ping\" }\r"},
		{"response", `{"jsonrpc":"2.0","id":4,"result":{"roots":[]}}`},
		{"error response", `{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"no"}}`},
		{"id of 2^53", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`},
		{"capitalised member", `{"jsonrpc":"2.0","id":1,"Method":"ping"}`},
		{"escaped method", `{"jsonrpc":"2.0","id":6,"method":"tools\/list"}`},
	}
	p := connectPipes(t)
	for _, tt := range lines {
		t.Run(tt.name, func(t *testing.T) {
			want, err := jsonrpc.DecodeMessage([]byte(strings.TrimSpace(tt.line)))
			if err != nil {
				t.Fatal(err)
			}
			p.send(t, tt.line)
			if got := p.read(t); !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
		})
	}
}

func TestLineTransportWritesWhatTheSDKEncodes(t *testing.T) {
	id := mustID(t, float64(12))
	msgs := []struct {
		name string
		msg  jsonrpc.Message
	}{
		{"result", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"text":"<a>&\u2028"}`)}},
		{"result to compact", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{ "a": 1 }`)}},
		{"error", &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32602, Message: "bad <args>"}}},
		{"notification", &jsonrpc.Request{Method: "notifications/tools/list_changed", Params: json.RawMessage(`{}`)}},
		{"call with a unicode id", &jsonrpc.Request{ID: mustID(t, "é"), Method: "roots/list"}},
		{"large result, written in parts", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"text":"` + strings.Repeat("a<b>", largeRaw/4) + `"}`)}},
		{"large result to compact", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{ "text" : "` + strings.Repeat("x", largeRaw) + `" }`)}},
	}
	p := connectPipes(t)
	for _, tt := range msgs {
		t.Run(tt.name, func(t *testing.T) {
			want, err := jsonrpc.EncodeMessage(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- p.conn.Write(context.Background(), tt.msg) }()
			if got := p.readLine(t); got != string(want)+"\n" {
				t.Errorf("got %q, want %q", got, string(want)+"\n")
			}
			if err := <-done; err != nil {
				t.Errorf("Write: %v", err)
			}
		})
	}
	t.Run("large results written concurrently stay whole lines", func(t *testing.T) {
		var want []string
		for i := range 4 {
			msg := &jsonrpc.Response{ID: mustID(t, float64(i)), Result: json.RawMessage(`{"text":"` + strings.Repeat(string(rune('a'+i)), largeRaw+i) + `"}`)}
			data, err := jsonrpc.EncodeMessage(msg)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, string(data)+"\n")
			go func() { _ = p.conn.Write(context.Background(), msg) }()
		}
		var got []string
		for range want {
			got = append(got, p.readLine(t))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("got %d lines not equal to the %d encoded", len(got), len(want))
		}
	})
	// An answer that cannot be encoded is still an answer to its request: a
	// -32603 (or the error's own code without its data), never a session
	// ended with the request unanswered.
	for _, tt := range []struct {
		name string
		msg  *jsonrpc.Response
		want string
	}{
		{"invalid raw result", &jsonrpc.Response{ID: id, Result: json.RawMessage(`{`)},
			`{"jsonrpc":"2.0","id":12,"error":{"code":-32603,"message":"internal error: the answer could not be encoded as JSON"}}`},
		{"error data quoted by Go, not JSON", &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32602, Message: "Resource not found",
			Data: json.RawMessage(fmt.Sprintf(`{"uri":%q}`, "skill://x\x01"))}},
			`{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"Resource not found"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			line := make(chan string, 1)
			go func() {
				got, _ := p.out.ReadString('\n')
				line <- got
			}()
			if err := p.conn.Write(context.Background(), tt.msg); err != nil {
				t.Fatalf("Write: %v (nothing answered the request)", err)
			}
			if got := <-line; got != tt.want+"\n" {
				t.Errorf("got %q, want %q", got, tt.want+"\n")
			}
		})
	}
	t.Run("a notification that cannot be encoded is an error", func(t *testing.T) {
		err := p.conn.Write(context.Background(), &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{`)})
		if err == nil || !strings.HasPrefix(err.Error(), "encoding message: ") {
			t.Errorf("got %v, want the encoding error", err)
		}
	})
}

// TestLineTransportAnswersPipedRequests runs a go-sdk server on the transport
// and closes stdin right after the requests: every one is answered, including
// an integer and a string id that print alike.
func TestLineTransportAnswersPipedRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a safety net, not a speed assertion
	defer cancel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":"2","method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "\n")
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := srv.Run(ctx, &LineTransport{In: io.NopCloser(in), Out: outW})
		_ = outW.Close()
		done <- err
	}()
	var ids []string
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		var msg struct {
			ID    json.RawMessage `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.Error != nil {
			t.Fatalf("answer %q: %v", sc.Text(), err)
		}
		ids = append(ids, string(msg.ID))
	}
	if err := <-done; err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("Run: %v", err)
	}
	slices.Sort(ids)
	if got := fmt.Sprint(ids); got != `["2" 1 2 3]` {
		t.Errorf("answered ids %s, want [\"2\" 1 2 3]", got)
	}
}
