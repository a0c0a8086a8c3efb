package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSession runs a go-sdk server with one blocking tool ("wait", released
// by closing release) on a LineTransport over pipes, initialized; the test
// holds the client ends.
type stdioSession struct {
	in    *io.PipeWriter
	lines <-chan []byte // every line the server writes
}

func startStdioSession(t *testing.T, release <-chan struct{}) *stdioSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv := mcp.NewServer(&mcp.Implementation{Name: "ids", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil, nil
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Run(ctx, &LineTransport{In: inR, Out: outW})
		_ = outW.Close()
	}()
	t.Cleanup(func() { cancel(); _ = inW.Close(); _ = outR.Close(); <-done })
	lines := make(chan []byte, 1024)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	s := &stdioSession{in: inW, lines: lines}
	s.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.next(t)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdioSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatalf("writing %q: %v", line, err)
	}
}

// answer is one line the server wrote, its id kept as raw text.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// next returns the next answer; a request left unanswered fails the test
// after a safety net (not a speed assertion).
func (s *stdioSession) next(t *testing.T) answer {
	t.Helper()
	var line []byte
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatal("stdout ended")
		}
		line = l
	case <-time.After(10 * time.Second):
		t.Fatal("no answer: a request was left unanswered")
	}
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	return a
}

// TestLineTransportAnswersWithTheRequestID sends ping with ids of every kind,
// on the fast decoder (a plain method) and on the go-sdk's (an escaped one):
// each answer carries the request's id exactly, or the request is rejected as
// invalid with id null. Never another id (issue 16, item 15).
func TestLineTransportAnswersWithTheRequestID(t *testing.T) {
	tests := []struct {
		name, id string
		valid    bool
	}{
		{"small integer", `1`, true},
		{"zero", `0`, true},
		{"negative", `-42`, true},
		{"15 digits", `999999999999999`, true},
		{"2^53", `9007199254740992`, true},
		{"-2^53", `-9007199254740992`, true},
		{"string", `"req-1"`, true},
		{"unicode string", `"é"`, true},
		{"string of digits", `"1.5"`, true},
		{"fraction", `1.5`, false},
		{"integral fraction", `1.0`, false},
		{"exponent", `1e3`, false},
		{"minus zero", `-0`, false},
		{"2^53+1", `9007199254740993`, false},
		{"int64 max", `9223372036854775807`, false},
		{"30 digits", `123456789012345678901234567890`, false},
		{"negative 30 digits", `-123456789012345678901234567890`, false},
		{"beyond float64", `1e400`, false},
		{"boolean", `true`, false},
	}
	s := startStdioSession(t, nil)
	for _, tt := range tests {
		for _, method := range []string{`"ping"`, `"p\u0069ng"`} {
			t.Run(tt.name+" "+method, func(t *testing.T) {
				s.send(t, `{"jsonrpc":"2.0","id":`+tt.id+`,"method":`+method+`}`)
				a := s.next(t)
				if tt.valid {
					if string(a.ID) != tt.id || a.Error != nil {
						t.Errorf("got id %s error %+v, want id %s and a result", a.ID, a.Error, tt.id)
					}
					return
				}
				if string(a.ID) != "null" || a.Error == nil || a.Error.Code != -32600 {
					t.Errorf("got id %s error %+v, want id null and code -32600", a.ID, a.Error)
				}
			})
		}
	}
	t.Run("id given twice", func(t *testing.T) {
		s.send(t, `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`)
		if a := s.next(t); string(a.ID) != "null" || a.Error == nil || a.Error.Code != -32600 {
			t.Errorf("got id %s error %+v, want id null and code -32600", a.ID, a.Error)
		}
	})
}

// TestLineTransportAnswersDuplicateIDsInFlight sends a second request with
// the id of one still running: it gets an error with that id at once, the
// first still gets its result, and the id is free again once answered. Every
// request gets exactly one answer (issue 16, item 14).
func TestLineTransportAnswersDuplicateIDsInFlight(t *testing.T) {
	for _, tt := range []struct{ name, id, method string }{
		{"integer id, fast decoder", `7`, `"tools/call"`},
		{"string id, go-sdk decoder", `"x"`, `"tools\/call"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			s := startStdioSession(t, release)
			call := `{"jsonrpc":"2.0","id":` + tt.id + `,"method":` + tt.method + `,"params":{"name":"wait","arguments":{}}}`
			s.send(t, call)
			s.send(t, call)
			a := s.next(t)
			if string(a.ID) != tt.id || a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "in flight") {
				t.Fatalf("duplicate: got id %s error %+v, want id %s with code -32600 naming the request in flight", a.ID, a.Error, tt.id)
			}
			close(release)
			if a := s.next(t); string(a.ID) != tt.id || a.Error != nil || !strings.Contains(string(a.Result), "released") {
				t.Fatalf("first call: got id %s error %+v result %s, want its result", a.ID, a.Error, a.Result)
			}
			s.send(t, call)
			if a := s.next(t); string(a.ID) != tt.id || a.Error != nil {
				t.Errorf("the id reused after its answer: got id %s error %+v, want a result", a.ID, a.Error)
			}
		})
	}
}

// TestLineTransportAnswersEveryPipedDuplicate pipes the same id many times
// without waiting: every line gets exactly one answer.
func TestLineTransportAnswersEveryPipedDuplicate(t *testing.T) {
	const n = 200
	s := startStdioSession(t, nil)
	var batch strings.Builder
	for range n {
		batch.WriteString(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}` + "\n")
	}
	go func() { _, _ = io.WriteString(s.in, batch.String()) }()
	for i := range n {
		if a := s.next(t); string(a.ID) != "5" {
			t.Fatalf("answer %d: got id %s, want 5", i, a.ID)
		}
	}
}

// TestLineTransportFreesCancelledIDs: a request the client cancels is still
// answered once its handler returns, and that frees its id.
func TestLineTransportFreesCancelledIDs(t *testing.T) {
	s := startStdioSession(t, nil)
	s.send(t, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`)
	if a := s.next(t); string(a.ID) != "9" {
		t.Fatalf("cancelled call: got an answer with id %s, want 9", a.ID)
	}
	s.send(t, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	if a := s.next(t); string(a.ID) != "9" || a.Error != nil {
		t.Errorf("the id reused after the cancelled call's answer: got id %s error %+v, want a result", a.ID, a.Error)
	}
}

// FuzzCheckID: whatever line CheckID lets through to the go-sdk's decoder
// decodes to a message whose id, encoded again, is the line's id exactly
// (the same string, the same integer text, or null).
func FuzzCheckID(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\u0041","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","ID":1e3,"method":"ping"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if !json.Valid(line) || CheckID(line) != "" {
			return
		}
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			return
		}
		var id jsonrpc.ID
		switch m := msg.(type) {
		case *jsonrpc.Request:
			id = m.ID
		case *jsonrpc.Response:
			id = m.ID
		}
		ids := idMembers(line)
		want := json.RawMessage("null")
		if len(ids) == 1 {
			want = ids[0]
		}
		got, err := json.Marshal(id.Raw())
		if err != nil {
			t.Fatal(err)
		}
		var wantStr, gotStr string
		if json.Unmarshal(want, &wantStr) == nil && json.Unmarshal(got, &gotStr) == nil {
			if wantStr != gotStr {
				t.Fatalf("line %q: id %s answered as %s", line, want, got)
			}
			return
		}
		if string(bytes.TrimSpace(want)) != string(got) {
			t.Fatalf("line %q: id %s answered as %s", line, want, got)
		}
	})
}
