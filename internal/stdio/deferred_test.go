package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestDeferredResultWritesWhatTheSDKEncodes: a response whose result is a
// Deferred's placeholder is written as the go-sdk writes the response with
// the deferred bytes as its result, whatever the id and the size.
func TestDeferredResultWritesWhatTheSDKEncodes(t *testing.T) {
	ctx := WithDeferredResults(context.Background())
	if !CanDefer(ctx) || CanDefer(context.Background()) {
		t.Fatal("CanDefer: want true only under WithDeferredResults")
	}
	if NewDeferred(context.Background(), func(*bufio.Writer) {}) != nil {
		t.Fatal("NewDeferred without a store: want nil")
	}
	p := connectPipesWith(t, ctx)
	for _, tt := range []struct {
		name string
		id   any
		size int
	}{
		{"small, integer id", float64(12), 10},
		{"large, integer id", float64(13), 3*deferredBuffer + 7},
		{"large, string id", "req-1", 2 * deferredBuffer},
		{"large, id the fast path does not take", "é\"", deferredBuffer + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			result := `{"content":[{"type":"text","text":"` + strings.Repeat("a<b>&", tt.size/5) + `"}]}`
			d := NewDeferred(ctx, func(w *bufio.Writer) { _, _ = w.WriteString(result) })
			ph, err := d.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := d.MarshalJSON(); !bytes.Equal(again, ph) || !json.Valid(ph) {
				t.Fatalf("placeholder %s then %s; want one valid JSON value", ph, again)
			}
			id := mustID(t, tt.id)
			want, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: json.RawMessage(result)})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- p.conn.Write(context.Background(), &jsonrpc.Response{ID: id, Result: ph}) }()
			if got := p.readLine(t); got != string(want)+"\n" {
				t.Errorf("got %d bytes %.80q…, want %d bytes %.80q…", len(got), got, len(want)+1, want)
			}
			if err := <-done; err != nil {
				t.Errorf("Write: %v", err)
			}
		})
	}
	t.Run("another store's placeholder is an ordinary result", func(t *testing.T) {
		other := NewDeferred(WithDeferredResults(context.Background()), func(w *bufio.Writer) { _, _ = w.WriteString(`{}`) })
		ph, _ := other.MarshalJSON()
		msg := &jsonrpc.Response{ID: mustID(t, float64(14)), Result: ph}
		want, _ := jsonrpc.EncodeMessage(msg)
		go func() { _ = p.conn.Write(context.Background(), msg) }()
		if got := p.readLine(t); got != string(want)+"\n" {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}
