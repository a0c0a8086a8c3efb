package server

import (
	"context"
	"fmt"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/search"
)

// BenchmarkSkillsSearchHandlerRanked times the skills_search handler with the
// ranked matcher (issue 19: ≤ 100 µs p50 at 10,000 skills, no body read per
// query but the shown hits' excerpts): the word index is built before the
// timed calls, as the first search of a snapshot builds it.
func BenchmarkSkillsSearchHandlerRanked(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServerWith(b, n, true)
		srv := New(Options{Index: bs.srv.opts.Index, Config: bs.srv.opts.Config, ToolSets: []string{ToolSetCore, ToolSetSk}})
		warmSearch(b, srv) // built once per snapshot, before the timed calls
		for _, kind := range []struct{ name, query string }{
			{"single", bs.ctxs.Single}, {"no-match", bs.ctxs.NoMatch},
			{"task", "add a login form with validation to the react app and deploy it"},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				loopTool(b, srv, "skills_search", map[string]any{"query": kind.query})
			})
		}
	}
}

// BenchmarkSkillToolHandlerRanked times the `skill` tool's handler loading the
// single-match skill by path.
func BenchmarkSkillToolHandlerRanked(b *testing.B) {
	for _, n := range benchSizes {
		bs := newBenchServerWith(b, n, true)
		srv := New(Options{Index: bs.srv.opts.Index, Config: bs.srv.opts.Config, ToolSets: []string{ToolSetCore, ToolSetSkill}})
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			loopTool(b, srv, "skill", map[string]any{"name": bs.ctxs.SinglePath})
		})
	}
}

// BenchmarkSkillsSearchStdio times skills_search (ranked, the single-match
// query) through the stdio transport, as BenchmarkGetSkillStdio does
// get_skill: the JSON-RPC layer and the encoding of the result included.
func BenchmarkSkillsSearchStdio(b *testing.B) {
	for _, n := range stdioBenchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServerWith(b, n, true)
			srv := New(Options{Index: bs.srv.opts.Index, Config: bs.srv.opts.Config, ToolSets: []string{ToolSetCore, ToolSetSk}})
			warmSearch(b, srv) // built once per snapshot, before the timed calls
			benchToolStdio(b, srv, "skills_search", map[string]any{"query": bs.ctxs.Single})
		})
	}
}

// warmSearch builds skills_search's word index of srv's snapshot, as the
// first search of a snapshot does.
func warmSearch(b *testing.B, srv *Server) {
	b.Helper()
	if _, _, err := srv.search.Search(context.Background(), srv.snapshot(), "warm", search.Tokens("warm"), 1); err != nil {
		b.Fatal(err)
	}
}
