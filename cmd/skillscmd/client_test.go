package skillscmd

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// startExamplesHTTP starts `skills-mcp serve --http 127.0.0.1:0` with extra
// arguments on the example skills and returns its /mcp endpoint.
func startExamplesHTTP(t *testing.T, args ...string) string {
	t.Helper()
	cmd := serverCmd(t)
	cmd.Args = append([]string{binPath, "serve", "--http", "127.0.0.1:0"}, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	logs := &testlog.Buffer{}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			logs.Write([]byte(line + "\n"))
			if i := strings.Index(line, "url=http://"); i >= 0 {
				url <- strings.Fields(line[i+len("url="):])[0]
			}
		}
		close(url)
	}()
	select {
	case u, ok := <-url:
		if !ok {
			t.Fatalf("server exited before listening:\n%s", logs.String())
		}
		return u
	case <-time.After(60 * time.Second):
		t.Fatalf("no url= line on stderr:\n%s", logs.String())
	}
	return ""
}

// binaryClients connects the go-sdk client to the binary over stdio, over
// HTTP with sessions and over stateless HTTP; extraArgs go to `serve`.
func binaryClients(t *testing.T, extraArgs ...string) map[string]*mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	out := map[string]*mcp.ClientSession{}
	client := mcp.NewClient(&mcp.Implementation{Name: "client-test", Version: "1"}, nil)
	stdio := serverCmd(t)
	stdio.Args = append([]string{binPath, "serve"}, extraArgs...)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: stdio}, nil)
	if err != nil {
		t.Fatalf("stdio: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	out["stdio"] = cs
	for name, args := range map[string][]string{"http": nil, "stateless": {"--stateless"}} {
		endpoint := startExamplesHTTP(t, append(args, extraArgs...)...)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		out[name] = cs
	}
	return out
}

// TestBinaryStructuredResults: over the real binary on stdio and HTTP every
// listed tool declares an output schema its answers match, get_skill answers
// to skill_path alone, and run_script is listed on stdio only.
func TestBinaryStructuredResults(t *testing.T) {
	t.Parallel()
	for name, cs := range binaryClients(t, "--tools", "core,skill,sk") {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			schemas := map[string]*jsonschema.Resolved{}
			for _, tool := range tools.Tools {
				b, _ := json.Marshal(tool.OutputSchema)
				var s jsonschema.Schema
				if tool.OutputSchema == nil || json.Unmarshal(b, &s) != nil {
					t.Errorf("%s: output schema %s", tool.Name, b)
					continue
				}
				r, err := s.Resolve(nil)
				if err != nil {
					t.Fatalf("%s: %v", tool.Name, err)
				}
				schemas[tool.Name] = r
			}
			if _, ok := schemas["run_script"]; ok != (name == "stdio") {
				t.Errorf("run_script listed: %v, want only on stdio", ok)
			}
			for _, call := range []struct {
				tool string
				args map[string]any
			}{
				{"get_skill", map[string]any{"skill_path": "api/rest"}},
				{"get_skill", map[string]any{"context": "REST pagination endpoint"}},
				{"list_skills", nil},
				{"skill", map[string]any{"name": "commit-messages"}},
				{"skills_list", nil},
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
				if err != nil || res.IsError {
					t.Fatalf("%s: %v %+v", call.tool, err, res)
				}
				if err := schemas[call.tool].Validate(res.StructuredContent); err != nil {
					t.Errorf("%s: structuredContent does not match its schema: %v", call.tool, err)
				}
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill_path": "api/rest", "extra": 1}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "unknown argument(s): extra") {
				t.Errorf("an undeclared argument: got %v %+v, want an error naming it", err, res)
			}
		})
	}
}

// answer reads stdout lines until the response with id, returning it.
func (r *rawServer) answer(t *testing.T, id int) map[string]any {
	t.Helper()
	for r.lines.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(r.lines.Bytes(), &msg); err != nil {
			t.Fatalf("stdout line is not JSON: %q", r.lines.Text())
		}
		if got, ok := msg["id"].(float64); ok && int(got) == id {
			return msg
		}
	}
	t.Fatalf("stdout ended before the answer to %d: %v\nstderr: %s", id, r.lines.Err(), r.stderr.String())
	return nil
}

// errorCode is the code of a JSON-RPC error answer, 0 for a result.
func errorCode(msg map[string]any) int {
	e, ok := msg["error"].(map[string]any)
	if !ok {
		return 0
	}
	code, _ := e["code"].(float64)
	return int(code)
}

// TestBinaryPromptsAndCapabilities: over the binary's stdio at protocol
// 2025-11-25, the capabilities are those served; a method of one not
// advertised is -32601; prompts and completion answer.
func TestBinaryPromptsAndCapabilities(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	initMsg := r.answer(t, 1)
	caps, _ := initMsg["result"].(map[string]any)["capabilities"].(map[string]any)
	for _, want := range []string{"tools", "prompts", "resources", "completions"} {
		if caps[want] == nil {
			t.Errorf("capabilities %v: no %s", caps, want)
		}
	}
	if caps["logging"] != nil {
		t.Errorf("capabilities %v: logging advertised", caps)
	}
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"skill://commit-messages/SKILL.md"}}`,
	} {
		r.send(t, line)
		if got := errorCode(r.answer(t, i+2)); got != -32601 {
			t.Errorf("%s: got code %d, want -32601", line, got)
		}
	}
	r.send(t, `{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"a"}}}`)
	if msg := r.answer(t, 4); errorCode(msg) != 0 || len(msg["result"].(map[string]any)["completion"].(map[string]any)["values"].([]any)) != 0 {
		t.Errorf("completion of an unknown prompt: got %v, want an empty completion", msg)
	}

	for name, cs := range binaryClients(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			list, err := cs.ListPrompts(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, p := range list.Prompts {
				names[p.Name] = true
			}
			for _, want := range []string{"commit-messages", "api_rest", "get_skill", "release-notes"} {
				if !names[want] {
					t.Errorf("prompts/list: no %s in %v", want, names)
				}
			}
			res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "commit-messages", Arguments: map[string]string{"request": "squash my branch"}})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Messages[0].Content.(*mcp.TextContent).Text
			if !strings.Contains(text, "Conventional Commits") && !strings.Contains(text, "type(scope)") || !strings.Contains(text, "squash my branch") {
				t.Errorf("prompts/get commit-messages: got %q", text)
			}
			done, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "get_skill"},
				Argument: mcp.CompleteParamsArgument{Name: "skill_path", Value: "api/"}})
			if err != nil || !strings.Contains(strings.Join(done.Completion.Values, ","), "api/rest") {
				t.Errorf("completion of get_skill's skill_path: got %+v %v", done, err)
			}
		})
	}
}

// TestBinaryRequestBeforeInitialize: on stdio a request before initialize
// gets -32600 with its id, not the go-sdk's code 0.
func TestBinaryRequestBeforeInitialize(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	r.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
	msg := r.answer(t, 7)
	if got := errorCode(msg); got != -32600 {
		t.Errorf("tools/list before initialize: got %v, want -32600", msg)
	}
}

// TestBinaryPromptsListCacheScope: at protocol 2026-07-28 prompts/list, which
// the server answers itself, carries a valid cacheScope.
func TestBinaryPromptsListCacheScope(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
		`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`)
	msg := r.answer(t, 1)
	res, _ := msg["result"].(map[string]any)
	if res == nil || res["cacheScope"] != "public" || len(res["prompts"].([]any)) == 0 {
		t.Errorf("prompts/list at 2026-07-28: got %v, want prompts with cacheScope public", msg)
	}
}
