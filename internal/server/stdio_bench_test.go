package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/stdio"
)

// stdioBenchSizes are the corpus sizes the stdio benchmark drives.
var stdioBenchSizes = []int{100, 10000}

// stdioClient is the client end of a LineTransport over two io.Pipes: it
// writes raw JSON lines and reads the server's lines back.
type stdioClient struct {
	in    *io.PipeWriter
	out   *io.PipeReader
	lines *bufio.Reader
	done  chan error
}

// startStdio runs srv on a LineTransport over pipes until the benchmark ends.
func startStdio(b testing.TB, srv *Server) *stdioClient {
	b.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &stdioClient{in: inW, out: outR, lines: bufio.NewReaderSize(outR, 8<<20), done: make(chan error, 1)}
	go func() { c.done <- srv.Run(stdio.WithDeferredResults(ctx), &stdio.LineTransport{In: inR, Out: outW}) }()
	b.Cleanup(func() {
		_ = outR.Close()
		_ = inW.Close()
		cancel()
		<-c.done
	})
	return c
}

func (c *stdioClient) send(b testing.TB, line []byte) {
	if _, err := c.in.Write(line); err != nil {
		b.Fatalf("writing a line: %v", err)
	}
}

// answer reads lines up to the answer (a line with an id and no method) and
// returns it; the slice is valid until the next read.
func (c *stdioClient) answer(b testing.TB) []byte {
	for {
		line, err := c.lines.ReadSlice('\n')
		if err != nil {
			b.Fatalf("reading an answer: %v", err)
		}
		if !bytes.Contains(line, []byte(`"method":`)) {
			return line
		}
	}
}

// BenchmarkGetSkillStdio times get_skill through the stdio transport: raw JSON
// lines written into the LineTransport over io.Pipe, the go-sdk session, the
// handler, and the answer line read back; the client side is only the pipe.
func BenchmarkGetSkillStdio(b *testing.B) {
	for _, n := range stdioBenchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServer(b, n)
			benchToolStdio(b, bs.srv, "get_skill", map[string]any{"context": bs.ctxs.Single})
		})
	}
}

// benchToolStdio times tools/call of tool with args on srv through the stdio
// transport: initialize, then the call in a loop, each answer held to a
// successful result.
func benchToolStdio(b *testing.B, srv *Server, tool string, args map[string]any) {
	b.Helper()
	c := startStdio(b, srv)
	c.send(b, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"))
	if got := c.answer(b); !bytes.HasPrefix(got, []byte(`{"jsonrpc":"2.0","id":1,"result":`)) {
		b.Fatalf("initialize: got %s, want a result", got)
	}
	c.send(b, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"))
	params, err := json.Marshal(map[string]any{"name": tool, "arguments": args})
	if err != nil {
		b.Fatal(err)
	}
	call := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":%s}`+"\n", params)
	want := []byte(`{"jsonrpc":"2.0","id":2,"result":`)
	b.ReportAllocs()
	for b.Loop() {
		c.send(b, call)
		got := c.answer(b)
		if !bytes.HasPrefix(got, want) || bytes.Contains(got, []byte(`"isError":true`)) {
			b.Fatalf("%s: got %.300s, want a successful result", tool, got)
		}
	}
}

// BenchmarkListSkillsStdio times a whole-tree list_skills through the stdio
// transport: the largest answer of the core tool set (about 2.5 MB at 10,000
// skills), where the encoding of the result weighs most.
func BenchmarkListSkillsStdio(b *testing.B) {
	for _, n := range stdioBenchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			benchToolStdio(b, newBenchServer(b, n).srv, "list_skills", map[string]any{})
		})
	}
}
