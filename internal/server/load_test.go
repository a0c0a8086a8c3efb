package server_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// pendingServer is a server made with Options.IndexPending over roots and a
// go-sdk client connected to it (initialize answered).
type pendingServer struct {
	srv     *server.Server
	session *mcp.ClientSession
}

func startPending(t *testing.T, roots []index.Root) *pendingServer {
	t.Helper()
	idx := index.New(index.Options{Roots: roots, Matcher: keyword.New()})
	p := &pendingServer{}
	p.srv = server.New(server.Options{Index: idx, Config: config.Default(), IndexPending: true})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := p.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	if p.session, err = client.Connect(ctx, ct, nil); err != nil {
		t.Fatalf("initialize before the index is built: %v", err)
	}
	t.Cleanup(func() { _ = p.session.Close(); _ = ss.Wait() })
	return p
}

// TestIndexPendingAnswersInitializeFirst: the handshake (the go-sdk client's
// server/discover included) and ping are answered before the index is built;
// a tool call waits for it and answers from it.
func TestIndexPendingAnswersInitializeFirst(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, specTree())
	p := startPending(t, []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}})
	if err := p.session.Ping(context.Background(), nil); err != nil {
		t.Fatalf("ping before the index is built: %v", err)
	}
	waitCtx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err := p.session.CallTool(waitCtx, &mcp.CallToolParams{Name: "list_skills", Arguments: map[string]any{}})
	cancel()
	if err == nil {
		t.Fatal("list_skills answered before the index was built")
	}
	waitCtx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err = p.session.ListResources(waitCtx, nil)
	cancel()
	if err == nil {
		t.Fatal("resources/list answered before the index was built")
	}

	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	early := make(chan answer, 1)
	go func() {
		res, err := p.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "React login with auth"}})
		early <- answer{res, err}
	}()
	snap, err := p.srv.LoadIndex(context.Background())
	if err != nil || snap.Len() == 0 {
		t.Fatalf("LoadIndex: got %d skills, %v", snap.Len(), err)
	}
	a := <-early
	if a.err != nil || a.res.IsError || !strings.Contains(a.res.Content[0].(*mcp.TextContent).Text, `"skill_path":"ui/react/auth"`) {
		t.Fatalf("get_skill sent while loading: got %+v, %v; want ui/react/auth", a.res, a.err)
	}
	if _, err := p.srv.LoadIndex(context.Background()); err == nil {
		t.Error("a second LoadIndex succeeded")
	}
	if res, err := p.session.ListResources(context.Background(), nil); err != nil || len(res.Resources) == 0 {
		t.Errorf("resources/list after the build: got %v, %v; want the skills' resources", res, err)
	}

}

// TestIndexPendingLoadSendsNoListChanged: a client of the 2025 protocol
// (notifications on the session, no subscription) that initialized before the
// index was built gets no list_changed for the build: it could not have
// listed anything yet. A change afterwards notifies it.
func TestIndexPendingLoadSendsNoListChanged(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, specTree())
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	srv := server.New(server.Options{Index: idx, Config: config.Default(), IndexPending: true})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = srv.Run(stdio.WithDeferredResults(context.Background()), &stdio.LineTransport{In: inR, Out: outW})
	}()
	t.Cleanup(func() { _ = inW.Close() })
	lines := bufio.NewReader(outR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	// until reads lines up to the answer of id, returning the notifications before it.
	until := func(id string) []string {
		t.Helper()
		var notes []string
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(line, `"id":`+id+`,`) {
				return notes
			}
			notes = append(notes, strings.TrimSpace(line))
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	until("1")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if _, err := srv.LoadIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // past the go-sdk's 10 ms notification delay
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if notes := until("2"); len(notes) != 0 {
		t.Errorf("got %q before the tools/list answer, want no notification for building the index", notes)
	}
	if err := os.WriteFile(filepath.Join(dir, "ui", "new.md"), []byte("---\ndescription: new\nkeywords: [new]\n---\nnew\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A new skill is a new resource and a new prompt: one notification of
	// each, which the go-sdk sends after a short delay (a timer, late on a
	// loaded machine); pings until both came, for at most 30 s (a safety net).
	var notes []string
	deadline := time.Now().Add(30 * time.Second)
	for id := 3; time.Now().Before(deadline) && !(hasNote(notes, "resources") && hasNote(notes, "prompts")); id++ {
		time.Sleep(10 * time.Millisecond)
		send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"ping"}`)
		notes = append(notes, until(strconv.Itoa(id))...)
	}
	if len(notes) != 2 || !hasNote(notes, "resources") || !hasNote(notes, "prompts") {
		t.Errorf("got %q after a change, want one resources/list_changed and one prompts/list_changed", notes)
	}
}

// TestIndexPendingLoadFails: when the first build fails, waiting and later
// requests get an internal error naming the reason; initialize was answered.
func TestIndexPendingLoadFails(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPending(t, []index.Root{{Dir: file, Source: index.SourceSkillsDir, Required: true}})
	if _, err := p.srv.LoadIndex(context.Background()); err == nil {
		t.Fatal("LoadIndex of a root that is a file succeeded")
	}
	_, err := p.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_skills", Arguments: map[string]any{}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError || !strings.Contains(rpcErr.Message, "the skills index could not be built") {
		t.Fatalf("got %v, want a -32603 error saying the index could not be built", err)
	}
}

// TestCanLoadLater: only tool sets whose descriptions do not list skills may
// answer initialize before the index is built.
func TestCanLoadLater(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sets []string
		want bool
	}{
		{nil, true},
		{[]string{server.ToolSetCore}, true},
		{[]string{server.ToolSetSkill}, false},
		{[]string{server.ToolSetCore, server.ToolSetSk}, false},
	}
	for _, tt := range tests {
		if got := server.CanLoadLater(tt.sets); got != tt.want {
			t.Errorf("CanLoadLater(%q): got %v, want %v", tt.sets, got, tt.want)
		}
	}
}

// TestIndexPendingPipedRequestsOutwaitTheDrain: a client that pipes its
// requests and closes stdin at once gets every answer even when the index
// takes longer than DrainTimeout to build (LineTransport.DrainAfter).
func TestIndexPendingPipedRequestsOutwaitTheDrain(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, specTree())
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	srv := server.New(server.Options{Index: idx, Config: config.Default(), IndexPending: true})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_skill","arguments":{"context":"React login with auth"}}}` + "\n")
	outR, outW := io.Pipe()
	go func() {
		_ = srv.Run(stdio.WithDeferredResults(context.Background()), &stdio.LineTransport{In: io.NopCloser(in), Out: outW, DrainAfter: srv.Loaded()})
		_ = outW.Close()
	}()
	go func() {
		time.Sleep(stdio.DrainTimeout + 250*time.Millisecond) // a build slower than the drain
		_, _ = srv.LoadIndex(context.Background())
	}()
	var answers []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		answers = append(answers, sc.Text())
	}
	if len(answers) != 2 || !strings.Contains(answers[1], `"id":2`) || !strings.Contains(answers[1], `ui/react/auth`) {
		t.Errorf("got answers %q, want initialize's and get_skill's", answers)
	}
}

// hasNote reports whether one of notes is notifications/<kind>/list_changed.
func hasNote(notes []string, kind string) bool {
	for _, n := range notes {
		if strings.Contains(n, "notifications/"+kind+"/list_changed") {
			return true
		}
	}
	return false
}
