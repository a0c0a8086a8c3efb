package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

var promptNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// TestSkillsAsPrompts: every skill is a prompt whose name is safe, and
// prompts/get answers its instructions with what it inherits, then the request.
func TestSkillsAsPrompts(t *testing.T) {
	t.Parallel()
	files := mixedTree()
	files["odd/Name with.dots/SKILL.md"] = "---\nname: Name with.dots\ndescription: An odd name\n---\nOdd.\n"
	files["at/@21risk/SKILL.md"] = "---\nname: '@21risk'\ndescription: A name starting with @\n---\nAt.\n"
	files["api_auth/SKILL.md"] = "---\nname: api_auth\ndescription: Clashes with api/auth once made safe\n---\nClash.\n"
	h := start(t, writeTree(t, files), nil)
	ctx := context.Background()
	caps := h.session.InitializeResult().Capabilities
	capsJSON, _ := json.Marshal(caps)
	if caps.Prompts == nil || !caps.Prompts.ListChanged || caps.Completions == nil || strings.Contains(string(capsJSON), `"logging"`) {
		t.Errorf("capabilities %s: want prompts with listChanged, completions, no logging", capsJSON)
	}
	list, err := h.session.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Prompt{}
	for _, p := range list.Prompts {
		if !promptNameRE.MatchString(p.Name) {
			t.Errorf("prompt name %q is not ^[A-Za-z0-9_-]+$", p.Name)
		}
		got[p.Name] = p
	}
	for name, title := range map[string]string{
		"get_skill": "Load a skill", "git": "git", "mcp-builder": "mcp-builder", "ui_react_auth": "ui/react/auth",
		"api_auth": "api/auth", "api_auth-2": "api_auth", "Name-with-dots": "Name with.dots", "21risk": "@21risk",
	} {
		p, ok := got[name]
		if !ok {
			t.Errorf("no prompt %q among %d", name, len(got))
			continue
		}
		if p.Title != title {
			t.Errorf("%s: title %q, want %q", name, p.Title, title)
		}
	}
	// Categories are what skills inherit, not slash commands (issue 29); a
	// skill's prompt name stays what it was.
	for name := range got {
		if name == "_root" || strings.HasSuffix(name, "__index") {
			t.Errorf("category %q is a prompt", name)
		}
	}
	if len(got) != 10 {
		t.Errorf("got %d prompts, want get_skill and the 9 skills: %v", len(got), list.Prompts)
	}
	if p := got["git"]; p == nil || p.Description != "Git deployment workflow skill" || len(p.Arguments) != 1 || p.Arguments[0].Name != "request" || p.Arguments[0].Required {
		t.Errorf("git: got %+v, want the skill's description and one optional request argument", p)
	}

	res, err := h.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "ui_react_auth", Arguments: map[string]string{"request": "add a logout button"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("got %+v, want one user message", res.Messages)
	}
	text := res.Messages[0].Content.(*mcp.TextContent).Text
	mustContain(t, text, "Global rules", "UI rules", "React rules", "Auth rules", "Apply this skill to: add a logout button")
	if res.Description != "React authentication components and patterns" {
		t.Errorf("description %q", res.Description)
	}
	res, err = h.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "get_skill", Arguments: map[string]string{"skill_path": "git"}})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, res.Messages[0].Content.(*mcp.TextContent).Text, "Git Deployment GitOps")
	res, err = h.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "get_skill", Arguments: map[string]string{"skill_path": "ui/_index"}})
	if err != nil {
		t.Fatalf("get_skill of a category: %v", err)
	}
	mustContain(t, res.Messages[0].Content.(*mcp.TextContent).Text, "UI rules")
	if _, err := h.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no-such-prompt"}); err == nil {
		t.Error("an unknown prompt: got no error")
	}
	if _, err := h.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "get_skill", Arguments: map[string]string{"skill_path": "nope"}}); err == nil || !strings.Contains(err.Error(), "skill not found: nope") {
		t.Errorf("get_skill of an unknown path: got %v", err)
	}
}

// TestCompletion: skill paths for get_skill's skill_path, nothing (and no
// error) for an unknown prompt or a free-text argument.
func TestCompletion(t *testing.T) {
	t.Parallel()
	h := start(t, writeTree(t, mixedTree()), nil)
	ctx := context.Background()
	complete := func(ref *mcp.CompleteReference, arg, value string) []string {
		t.Helper()
		res, err := h.session.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
		if err != nil {
			t.Fatalf("complete %+v %s=%q: %v", ref, arg, value, err)
		}
		return res.Completion.Values
	}
	prompt := func(name string) *mcp.CompleteReference {
		return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
	}
	tests := []struct {
		name  string
		ref   *mcp.CompleteReference
		arg   string
		value string
		want  []string
	}{
		{"paths by prefix", prompt("get_skill"), "skill_path", "ui/", []string{"ui/_index", "ui/react/_index", "ui/react/auth"}},
		{"prefix, then a segment, then inside", prompt("get_skill"), "skill_path", "auth", []string{"api/auth", "ui/react/auth"}},
		{"a segment before inside", prompt("get_skill"), "skill_path", "re", []string{"ui/react/_index", "ui/react/auth"}},
		{"case-insensitive", prompt("get_skill"), "skill_path", "GI", []string{"git"}},
		{"no match", prompt("get_skill"), "skill_path", "zzz", []string{}},
		{"unknown prompt", prompt("test_prompt_with_arguments"), "arg1", "x", []string{}},
		{"free text argument", prompt("git"), "request", "de", []string{}},
		{"resource template path", &mcp.CompleteReference{Type: "ref/resource", URI: "skill://{+path}"}, "path", "mcp", []string{"mcp-builder"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := complete(tt.ref, tt.arg, tt.value)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestUnadvertisedMethodsRefused: at protocol 2025-11-25 on the stdio
// transport a method of a capability the server does not advertise is -32601.
func TestUnadvertisedMethodsRefused(t *testing.T) {
	t.Parallel()
	idx := index.New(index.Options{Roots: []index.Root{{Dir: writeTree(t, specTree()), Source: index.SourceSkillsDir, Required: true}}, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Index: idx, Config: config.Default()})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = srv.Run(stdio.WithDeferredResults(context.Background()), &stdio.LineTransport{In: inR, Out: outW})
	}()
	t.Cleanup(func() { _ = inW.Close() })
	lines := bufio.NewReader(outR)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"skill://api/auth/SKILL.md"}}`,
	} {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	answers := map[string]string{} // by id: the requests are answered concurrently
	for range 3 {
		answer, err := lines.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"1", "2", "3"} {
			if strings.Contains(answer, `"id":`+id+`,`) {
				answers[id] = answer
			}
		}
	}
	for _, id := range []string{"2", "3"} {
		if !strings.Contains(answers[id], `"code":-32601`) {
			t.Errorf("request %s: got %q, want -32601", id, answers[id])
		}
	}
}

// TestPromptsFollowReloads: a skill added and rebuilt is a new prompt, and
// the client hears prompts/list_changed.
func TestPromptsFollowReloads(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, specTree())
	changed := make(chan struct{}, 4)
	h := startRoots(t, []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, nil, &mcp.ClientOptions{
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { changed <- struct{}{} },
	})
	if err := os.MkdirAll(filepath.Join(dir, "pdf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pdf", "SKILL.md"), []byte("---\nname: pdf\ndescription: Fill PDF forms\n---\nUse pdftk.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second): // a safety net; the notification follows within milliseconds
		t.Fatal("no prompts/list_changed after a skill was added")
	}
	res, err := h.session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "pdf"})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, res.Messages[0].Content.(*mcp.TextContent).Text, "Use pdftk.")
	// A rebuild that changes nothing announces nothing.
	if _, err := h.srv.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.session.ListPrompts(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
		t.Error("prompts/list_changed after a rebuild that changed nothing")
	case <-time.After(100 * time.Millisecond):
	}
}
