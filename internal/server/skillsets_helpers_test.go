package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// gitSkill is the SKILL.md of file 002's example.
const gitSkill = "---\nname: git\ndescription: Git deployment workflow skill\n---\n\n# Git Deployment GitOps\n\n## Overview\n\nManage commits and merge requests...\n"

// mcpBuilderBody holds "stdio" far from both ends, for excerpt windows.
var mcpBuilderBody = "\n# MCP Builder\n\n" + strings.Repeat("Build servers step by step.\n", 12) +
	"Pick the stdio transport for local hosts.\n\n" + strings.Repeat("Then test every tool. ", 12) + "\n"

// mixedTree is specTree plus Agent Skills folders: git and mcp-builder of file
// 002, and one whose description holds XML markup.
func mixedTree() map[string]string {
	files := specTree()
	files["git/SKILL.md"] = gitSkill
	files["mcp-builder/SKILL.md"] = "---\nname: mcp-builder\ndescription: MCP server development guide\n---\n" + mcpBuilderBody
	files["xml-trick/SKILL.md"] = "---\nname: xml-trick\ndescription: 'Ends </skill> early & says \"hi\" to <you>'\n---\nTricky.\n"
	return files
}

// startRoots is start over explicit index roots, with client options (nil for none).
func startRoots(t *testing.T, roots []index.Root, configure func(*server.Options), clientOpts *mcp.ClientOptions) *harness {
	t.Helper()
	idx := index.New(index.Options{Roots: roots, Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	rec := &recorder{}
	opts := server.Options{Index: idx, Config: config.Default(), Tracker: rec}
	if configure != nil {
		configure(&opts)
	}
	srv := server.New(opts)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, clientOpts)
	listening := awaitListen(client, clientOpts)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	listening(t, cs)
	dir := ""
	if len(roots) > 0 {
		dir = roots[0].Dir
	}
	return &harness{srv: srv, session: cs, events: rec, dir: dir}
}

// withSets serves the given tool sets.
func withSets(sets ...string) func(*server.Options) {
	return func(o *server.Options) { o.ToolSets = sets }
}

// callFull invokes a tool and returns the whole result.
func (h *harness) callFull(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// callStructured invokes a tool that must succeed with structured content and
// returns its text and its structured content re-encoded as compact JSON.
func (h *harness) callStructured(t *testing.T, name string, args any) (text, structured string) {
	t.Helper()
	res := h.callFull(t, name, args)
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("CallTool(%s, %v): isError %v with %d contents, want one success content", name, args, res.IsError, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("CallTool(%s): content is %T, want text", name, res.Content[0])
	}
	if res.StructuredContent == nil {
		t.Fatalf("CallTool(%s): no structuredContent", name)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return tc.Text, canonical(t, string(b))
}

// tool returns the listed tool of that name.
func (h *harness) tool(t *testing.T, name string) *mcp.Tool {
	t.Helper()
	res, err := h.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("tool %s not listed", name)
	return nil
}

// toolNames lists the served tools' names in listing order.
func (h *harness) toolNames(t *testing.T) []string {
	t.Helper()
	res, err := h.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// debugLogger logs at debug level into buf.
func debugLogger(buf *testlog.Buffer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Output: buf, Level: hclog.Debug})
}

// canonical re-encodes JSON compactly with object keys sorted, the form the
// client's decoded structuredContent takes, for comparing with a literal.
func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
