package server

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/cursor"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// listPage is one page of skills_list or list_skills as its structured content says.
type listPage struct {
	Skills     []json.RawMessage `json:"skills"`
	NextCursor string            `json:"nextCursor"`
}

// callTool calls a tool of s as a session's call reaches it (toolCaller) and
// returns its result, failing on a Go error.
func callTool(t *testing.T, s *Server, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := callArgs(context.Background(), t, s, name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// callArgs calls a tool of s with args under ctx (toolCaller).
func callArgs(ctx context.Context, t testing.TB, s *Server, name string, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return callerFor(t, s).call(ctx, name, raw)
}

// resultText is the text of a one-text result.
func resultText(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

// structuredBytes is the JSON of a result's structured content.
func structuredBytes(t *testing.T, res *mcp.CallToolResult) []byte {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent) // HTML escaped: the longest of the encoders' forms
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// walkSkillsList calls skills_list with args page after page and returns the
// pages' structured contents, checking each page's size.
func walkSkillsList(t *testing.T, s *Server, args map[string]any) [][]byte {
	t.Helper()
	var pages [][]byte
	for cursor := ""; ; {
		a := map[string]any{}
		for k, v := range args {
			a[k] = v
		}
		if cursor != "" {
			a["cursor"] = cursor
		}
		res := callTool(t, s, "skills_list", a)
		if res.IsError {
			t.Fatalf("skills_list %v: %s", a, resultText(res))
		}
		raw := structuredBytes(t, res)
		var p listPage
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		if len(raw) > s.pageBytes && len(p.Skills) > 1 {
			t.Fatalf("page %d of %d skills is %d bytes, over %d", len(pages), len(p.Skills), len(raw), s.pageBytes)
		}
		if text := resultText(res); len(text) > s.pageBytes {
			t.Fatalf("page %d: text of %d bytes, over %d", len(pages), len(text), s.pageBytes)
		}
		if p.NextCursor != "" && !strings.Contains(resultText(res), p.NextCursor) {
			t.Errorf("page %d: the text does not give the cursor", len(pages))
		}
		pages = append(pages, raw)
		if p.NextCursor == "" {
			return pages
		}
		cursor = p.NextCursor
	}
}

// skillsOfPages concatenates the skills of pages.
func skillsOfPages(t *testing.T, pages [][]byte) []string {
	t.Helper()
	var out []string
	for _, raw := range pages {
		var p listPage
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		for _, sk := range p.Skills {
			out = append(out, string(sk))
		}
	}
	return out
}

// fullSkillsList is skills_list's whole listing built from the snapshot, the
// reference the pages are held to: every matching summary by install name.
func fullSkillsList(t *testing.T, s *Server, query string, withBody bool) ([]string, int) {
	t.Helper()
	snap := s.snapshot()
	skills := snap.Skills()
	sortByInstallName(skills)
	var out []string
	size := 0
	for _, sk := range skills {
		if query != "" && !listMatches(sk, fold(query)) {
			continue
		}
		summary, err := summarize(snap, sk, withBody)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(summary)
		if err != nil {
			t.Fatal(err)
		}
		out, size = append(out, string(b)), size+len(b)
	}
	return out, size
}

// testSkillsListPages: skills_list comes in pages of at most MaxPageBytes;
// the pages concatenated are the whole listing; a cursor that is not one the
// server gave, or given for another query, is an isError naming the problem.
func testSkillsListPages(t *testing.T, s *Server) {
	for _, tt := range []struct {
		name     string
		args     map[string]any
		minPages int
	}{
		{"with bodies", map[string]any{"includeBody": true}, 3},
		{"with bodies and a query", map[string]any{"includeBody": true, "query": "data"}, 1},
		{"without bodies", map[string]any{}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pages := walkSkillsList(t, s, tt.args)
			query, _ := tt.args["query"].(string)
			withBody, _ := tt.args["includeBody"].(bool)
			want, size := fullSkillsList(t, s, query, withBody)
			if got := skillsOfPages(t, pages); !reflect.DeepEqual(got, want) {
				t.Fatalf("the %d pages hold %d skills, want the %d of the whole listing, in its order", len(pages), len(got), len(want))
			}
			if len(pages) < tt.minPages || size > MaxPageBytes && len(pages) < 2 || len(want) == 0 {
				t.Errorf("%d pages for %d skills (%d bytes), want at least %d", len(pages), len(want), size, tt.minPages)
			}
			t.Logf("%d skills, %d bytes, %d pages", len(want), size, len(pages))
		})
	}
	first := callTool(t, s, "skills_list", map[string]any{"includeBody": true})
	var p listPage
	if err := json.Unmarshal(structuredBytes(t, first), &p); err != nil || p.NextCursor == "" {
		t.Fatalf("no second page: %v", err)
	}
	flipped := []byte(p.NextCursor)
	flipped[len(flipped)/2] ^= 1
	for _, tt := range []struct {
		name, cursor, query, want string
	}{
		{"not base64", "not a cursor!", "", "invalid cursor"},
		{"one character changed", string(flipped), "", "invalid cursor"},
		{"cut short", p.NextCursor[:len(p.NextCursor)-3], "", "invalid cursor"},
		{"made up", cursor.Key(skillsListKind, "zzz"), "", "invalid cursor"},
		{"another tool's", cursor.Position{Index: 1}.Cursor(listSkillsKind, ""), "", "invalid cursor"},
		{"another query's", p.NextCursor, "react", "given for another listing"},
		{"past the end", cursor.Position{Index: 1 << 20}.Cursor(skillsListKind, ""), "", "the skills changed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, s, "skills_list", map[string]any{"includeBody": true, "cursor": tt.cursor, "query": tt.query})
			if !res.IsError || !strings.Contains(resultText(res), tt.want) {
				t.Errorf("got isError %v %q, want an error holding %q", res.IsError, clipText(resultText(res)), tt.want)
			}
		})
	}
}

// testSkillsListStopsWhenCancelled: a cancelled skills_list returns the
// context's error instead of reading bodies on.
func testSkillsListStopsWhenCancelled(t *testing.T, s *Server) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.handleSkillsList(ctx, nil, skillsListArgs{IncludeBody: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// testListSkillsUnchangedWhenItFits: a tree that fits in one page is spec
// 000's answer, byte for byte: the tree array as the text, {"skills": tree}
// structured.
func testListSkillsUnchangedWhenItFits(t *testing.T, s *Server) {
	for _, path := range []string{"", s.snapshot().Paths()[3], "nope"} {
		var want strings.Builder
		s.snapshot().WriteTreeJSON(&want, path)
		if want.Len() > MaxPageBytes/2 && path == "" {
			t.Logf("the tree is %d bytes", want.Len())
		}
		res := callTool(t, s, "list_skills", map[string]any{"path": path})
		if res.IsError || resultText(res) != want.String() {
			t.Fatalf("path %q: got %d bytes of text (isError %v), want the tree's %d", path, len(resultText(res)), res.IsError, want.Len())
		}
		if m, ok := res.StructuredContent.(memberJSON); !ok || m.key != "skills" || m.value != want.String() {
			t.Errorf("path %q: structured content %T is not {\"skills\": tree}", path, res.StructuredContent)
		}
	}
}

// testListSkillsPages: a tree larger than a page comes in pages of at most
// the page size, each {"skills": [...], "nextCursor": ...} as text and
// structured content; the pages grafted by their nodes' paths are the tree.
// A server over the same index with pages of 64 KiB stands for a catalogue
// larger than MaxPageBytes.
func testListSkillsPages(t *testing.T, s *Server) {
	small := New(s.opts)
	small.pageBytes = 64 << 10
	snap := small.snapshot()
	top := snap.Tree("")
	if len(top) == 0 || len(top[0].Children) == 0 {
		t.Fatal("the corpus has no category under its root")
	}
	for _, filter := range []string{"", top[0].Children[0].Path} {
		var tree []*index.TreeNode
		byPath := map[string]*index.TreeNode{}
		pages := 0
		for cursor := ""; ; pages++ {
			res := callTool(t, small, "list_skills", map[string]any{"path": filter, "cursor": cursor})
			text := resultText(res)
			if res.IsError {
				t.Fatalf("page %d: %s", pages, text)
			}
			if raw, ok := res.StructuredContent.(json.RawMessage); ok && string(raw) != text {
				t.Fatalf("page %d: the structured content is not the text", pages)
			}
			if len(text) > small.pageBytes {
				t.Fatalf("page %d is %d bytes, over %d", pages, len(text), small.pageBytes)
			}
			var p struct {
				Skills     []*index.TreeNode `json:"skills"`
				NextCursor string            `json:"nextCursor"`
			}
			if err := json.Unmarshal([]byte(text), &p); err != nil {
				if pages == 0 && filter != "" {
					break // a subtree that fits: the array of spec 000
				}
				t.Fatalf("page %d is not {skills, nextCursor}: %v", pages, err)
			}
			for _, n := range p.Skills {
				var place func(n *index.TreeNode)
				place = func(n *index.TreeNode) {
					byPath[n.Path] = n
					for _, c := range n.Children {
						place(c)
					}
				}
				place(n)
				sk, _ := snap.Get(n.Path)
				if parent, ok := byPath[sk.Parent]; ok && sk.Parent != "" && sk.Path != filter {
					parent.Children = append(parent.Children, n)
				} else {
					tree = append(tree, n)
				}
			}
			if p.NextCursor == "" {
				break
			}
			cursor = p.NextCursor
		}
		if filter == "" && pages < 3 {
			t.Errorf("the whole tree in %d pages of %d bytes, want more", pages+1, small.pageBytes)
		}
		if want := snap.Tree(filter); tree != nil && !reflect.DeepEqual(tree, want) {
			t.Errorf("filter %q: the %d pages grafted are not the tree", filter, pages+1)
		}
	}
	res := callTool(t, small, "list_skills", map[string]any{"cursor": cursor.Position{Index: 5}.Cursor(listSkillsKind, "")})
	if !res.IsError || !strings.Contains(resultText(res), "the skills changed") {
		t.Errorf("a cursor whose node is not there: got %q, want the skills changed", resultText(res))
	}
	res = callTool(t, small, "list_skills", map[string]any{"cursor": "Zm9v"})
	if !res.IsError || !strings.Contains(resultText(res), "invalid cursor") {
		t.Errorf("a made-up cursor: got %q, want invalid cursor", resultText(res))
	}
}

// testPagesBoundMemoryUnderConcurrency: 16 clients walking skills_list with
// bodies at once allocate, per page asked for, a small multiple of a page:
// what a request holds does not grow with the catalogue. Before, each answer
// was the whole listing (4.9 MB here, 24.9 MB at 10,000 skills; 16 at once
// peaked at 443 MB of heap here, 2.4 GB at 10,000 skills).
func testPagesBoundMemoryUnderConcurrency(t *testing.T, s *Server) {
	_, listing := fullSkillsList(t, s, "", true)
	var requests sync.WaitGroup
	var mu sync.Mutex
	asked := 0
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 16 {
		requests.Go(func() {
			for cursor := ""; ; {
				res, err := callArgs(context.Background(), t, s, "skills_list", map[string]any{"includeBody": true, "cursor": cursor})
				if err != nil || res.IsError {
					t.Errorf("skills_list: %v %v", err, res)
					return
				}
				mu.Lock()
				asked++
				mu.Unlock()
				var p struct{ NextCursor string } // the skills are not copied out
				if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &p); err != nil {
					t.Error(err)
					return
				}
				if p.NextCursor == "" {
					return
				}
				cursor = p.NextCursor
			}
		})
	}
	requests.Wait()
	runtime.ReadMemStats(&after)
	perPage := float64(after.TotalAlloc-before.TotalAlloc) / float64(asked)
	t.Logf("%d pages asked, %.0f bytes allocated per page (page at most %d, listing %d)", asked, perPage, MaxPageBytes, listing)
	// A page's buffer, the bodies read into it and the lines of the text:
	// about 2.4 pages measured; 4 leaves room for the runtime's own. Under
	// the race detector, whose sync.Pool drops items at random, 5.2 measured.
	pages := 4.0
	if raceDetector {
		pages = 8
	}
	if perPage > pages*MaxPageBytes {
		t.Errorf("%.0f bytes allocated per page, want at most %.0f pages' worth (%.0f)", perPage, pages, pages*MaxPageBytes)
	}
}

// TestSkillsListCursorAfterARebuild: a cursor given before a rebuild that
// added a skill before it gets an error saying the skills changed, not a page
// that repeats or skips a skill.
func TestSkillsListCursorAfterARebuild(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"bb", "cc", "dd", "ee"} {
		writeFile(t, dir, name+"/SKILL.md", "---\nname: "+name+"\ndescription: Skill "+name+" "+strings.Repeat("x", 100)+"\n---\nBody\n")
	}
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Index: idx, Config: config.Default(), ToolSets: []string{"sk"}})
	s.pageBytes = 700
	var p listPage
	if err := json.Unmarshal(structuredBytes(t, callTool(t, s, "skills_list", map[string]any{})), &p); err != nil || p.NextCursor == "" || len(p.Skills) != 2 {
		t.Fatalf("first page: %d skills, cursor %q, %v; want 2 and a cursor", len(p.Skills), p.NextCursor, err)
	}
	writeFile(t, dir, "aa/SKILL.md", "---\nname: aa\ndescription: Skill aa\n---\nBody\n")
	if _, err := s.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := callTool(t, s, "skills_list", map[string]any{"cursor": p.NextCursor})
	if !res.IsError || !strings.Contains(resultText(res), "the skills changed since the previous page") {
		t.Errorf("got %q, want the skills changed", resultText(res))
	}
}

// writeFile writes content at rel under dir.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
