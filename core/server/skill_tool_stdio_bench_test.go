package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkSkillToolStdio times the skill tool through the stdio transport,
// as BenchmarkGetSkillStdio times get_skill.
func BenchmarkSkillToolStdio(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServerWith(b, n, true)
			srv := New(Options{Index: bs.srv.opts.Index, Config: bs.srv.opts.Config, ToolSets: []string{ToolSetCore, ToolSetSkill}})
			c := startStdio(b, srv)
			c.send(b, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"))
			if got := c.answer(b); !bytes.HasPrefix(got, []byte(`{"jsonrpc":"2.0","id":1,"result":`)) {
				b.Fatalf("initialize: got %s, want a result", got)
			}
			c.send(b, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"))
			args, err := json.Marshal(map[string]any{"name": "skill", "arguments": map[string]any{"name": bs.c.Skills[len(bs.c.Skills)/2].Path}})
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
					b.Fatalf("skill: got %.300s, want a successful result", got)
				}
			}
		})
	}
}
