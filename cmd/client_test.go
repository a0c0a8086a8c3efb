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
	if testing.Short() {
		t.Skip("starts the binary")
	}
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
