package skillscmd

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// rawAnswers reads the binary's stdout lines into a channel, so a request
// left unanswered fails the test instead of hanging it.
func rawAnswers(s *rawServer) <-chan []byte {
	lines := make(chan []byte, 1024)
	go func() {
		defer close(lines)
		for s.lines.Scan() {
			lines <- append([]byte(nil), s.lines.Bytes()...)
		}
	}()
	return lines
}

// nextAnswer returns the next answer's raw id and error code (0 for a result).
func nextAnswer(t *testing.T, lines <-chan []byte) (id string, code int64) {
	t.Helper()
	var line []byte
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("stdout ended")
		}
		line = l
	case <-time.After(20 * time.Second): // a safety net, not a speed assertion
		t.Fatal("no answer: a request was left unanswered")
	}
	var a struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("stdout line %q: %v", line, err)
	}
	if a.Error != nil {
		code = a.Error.Code
	}
	return string(a.ID), code
}

// TestStdioRequestIDsThroughTheBinary: every request gets exactly one answer,
// with its own id or, for an id that cannot be echoed exactly, -32600 with id
// null (issue 16, items 14 and 15).
func TestStdioRequestIDsThroughTheBinary(t *testing.T) {
	t.Parallel()
	s := startRaw(t)
	lines := rawAnswers(s)
	s.send(t, initializeLine)
	if id, code := nextAnswer(t, lines); id != "1" || code != 0 {
		t.Fatalf("initialize: got id %s code %d, want id 1 and a result", id, code)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tt := range []struct{ id, wantID string }{
		{`1.5`, "null"},
		{`123456789012345678901234567890`, "null"},
		{`9007199254740993`, "null"},
		{`9007199254740992`, "9007199254740992"},
		{`"1.5"`, `"1.5"`},
	} {
		s.send(t, `{"jsonrpc":"2.0","id":`+tt.id+`,"method":"ping"}`)
		id, code := nextAnswer(t, lines)
		if id != tt.wantID || (tt.wantID == "null") != (code == -32600) {
			t.Errorf("ping with id %s: got id %s code %d, want id %s", tt.id, id, code, tt.wantID)
		}
	}

	// The same id piped many times: exactly one answer per line.
	const n = 100
	var batch strings.Builder
	for range n {
		batch.WriteString(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_skills","arguments":{}}}` + "\n")
	}
	if _, err := io.WriteString(s.stdin, batch.String()); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if id, _ := nextAnswer(t, lines); id != "5" {
			t.Fatalf("answer %d: got id %s, want 5", i, id)
		}
	}
	s.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if id, code := nextAnswer(t, lines); id != "6" || code != 0 {
		t.Errorf("after the duplicates: got id %s code %d, want the answer to 6 and nothing left over", id, code)
	}
}
