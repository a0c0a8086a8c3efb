package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
func startStdio(b *testing.B, srv *Server) *stdioClient {
	b.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &stdioClient{in: inW, out: outR, lines: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() { c.done <- srv.Run(ctx, &LineTransport{In: inR, Out: outW}) }()
	b.Cleanup(func() {
		_ = outR.Close()
		_ = inW.Close()
		cancel()
		<-c.done
	})
	return c
}

func (c *stdioClient) send(b *testing.B, line []byte) {
	if _, err := c.in.Write(line); err != nil {
		b.Fatalf("writing a line: %v", err)
	}
}

// answer reads lines up to the answer (a line with an id and no method) and
// returns it; the slice is valid until the next read.
func (c *stdioClient) answer(b *testing.B) []byte {
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
			c := startStdio(b, bs.srv)
			c.send(b, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"))
			if got := c.answer(b); !bytes.HasPrefix(got, []byte(`{"jsonrpc":"2.0","id":1,"result":`)) {
				b.Fatalf("initialize: got %s, want a result", got)
			}
			c.send(b, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"))
			args, err := json.Marshal(map[string]any{"name": "get_skill", "arguments": map[string]any{"context": bs.ctxs.Single}})
			if err != nil {
				b.Fatal(err)
			}
			call := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":%s}`+"\n", args)
			want := []byte(`{"jsonrpc":"2.0","id":2,"result":`)
			b.ReportAllocs()
			for b.Loop() {
				c.send(b, call)
				got := c.answer(b)
				if !bytes.HasPrefix(got, want) || bytes.Contains(got, []byte(`"isError":true`)) {
					b.Fatalf("get_skill: got %.300s, want a successful result", got)
				}
			}
		})
	}
}

// getSkillLines returns a real get_skill tools/call line and the answer the
// server builds for it, over the corpus of 100 skills.
func getSkillLines(b *testing.B) (call []byte, answer *jsonrpc.Response) {
	b.Helper()
	bs := newBenchServer(b, 100)
	args := map[string]any{"context": bs.ctxs.Single}
	res, err := bs.srv.handleGetSkill(context.Background(), toolRequest(b, "get_skill", args))
	if err != nil || res.IsError {
		b.Fatalf("get_skill: got error %v, result %+v", err, res)
	}
	result, err := json.Marshal(res)
	if err != nil {
		b.Fatal(err)
	}
	params, err := json.Marshal(map[string]any{"name": "get_skill", "arguments": args})
	if err != nil {
		b.Fatal(err)
	}
	call = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":%s}`, params)
	id, err := jsonrpc.MakeID(float64(2))
	if err != nil {
		b.Fatal(err)
	}
	return call, &jsonrpc.Response{ID: id, Result: result}
}

// BenchmarkStdioDecode compares the transport's two ways of reading a
// get_skill call: json.Valid plus the go-sdk's DecodeMessage, and decodeFast.
func BenchmarkStdioDecode(b *testing.B) {
	call, _ := getSkillLines(b)
	b.Run("go-sdk", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(call)))
		for b.Loop() {
			if !json.Valid(call) {
				b.Fatal("invalid")
			}
			if _, err := jsonrpc.DecodeMessage(call); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(call)))
		for b.Loop() {
			if _, ok := decodeFast(call); !ok {
				b.Fatal("not taken")
			}
		}
	})
}

// BenchmarkStdioEncode compares the transport's two ways of writing a
// get_skill answer line: EncodeMessage plus the newline, and appendFast into
// a reused buffer.
func BenchmarkStdioEncode(b *testing.B) {
	_, answer := getSkillLines(b)
	b.Run("go-sdk", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer.Result)))
		for b.Loop() {
			data, err := jsonrpc.EncodeMessage(answer)
			if err != nil {
				b.Fatal(err)
			}
			_ = append(data, '\n')
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(answer.Result)))
		var buf []byte
		for b.Loop() {
			var ok bool
			if buf, ok = appendFast(buf[:0], answer); !ok {
				b.Fatal("not taken")
			}
			buf = append(buf, '\n')
		}
	})
}
