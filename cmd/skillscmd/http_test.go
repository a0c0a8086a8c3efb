package skillscmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

func TestCheckExposure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		addr     string
		token    string
		insecure bool
		wantErr  string // "" for accepted
	}{
		{"IPv4 loopback", "127.0.0.1:8080", "", false, ""},
		{"other 127/8 address", "127.0.0.2:8080", "", false, ""},
		{"IPv6 loopback", "[::1]:8080", "", false, ""},
		{"localhost", "localhost:8080", "", false, ""},
		{"every interface", "0.0.0.0:8080", "", false, "every network interface"},
		{"empty host", ":8080", "", false, "every network interface"},
		{"IPv6 any", "[::]:8080", "", false, "every network interface"},
		{"private address", "10.1.2.3:8080", "", false, "10.1.2.3:8080"},
		{"host name", "skills.example.com:443", "", false, "skills.example.com"},
		{"every interface with a token", "0.0.0.0:8080", "s3cret", false, ""},
		{"every interface with --insecure", "0.0.0.0:8080", "", true, ""},
		{"no port", "127.0.0.1", "", false, "want HOST:PORT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkExposure(tt.addr, tt.token, tt.insecure)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("checkExposure(%q): got %v, want nil", tt.addr, err)
				}
				return
			}
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("checkExposure(%q): got %v, want a usage error (exit 2)", tt.addr, err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got %q, want it to contain %q", err, tt.wantErr)
			}
			if tt.wantErr != "want HOST:PORT" && !strings.Contains(err.Error(), "SKILLS_HTTP_TOKEN") {
				t.Errorf("got %q, want it to name SKILLS_HTTP_TOKEN", err)
			}
		})
	}
}

func TestServeHTTPFlagErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"non-loopback without a token", nil, []string{"serve", "--http", "0.0.0.0:0"}, "refusing to serve HTTP on 0.0.0.0:0"},
		{"non-loopback from the environment", map[string]string{"SKILLS_HTTP_ADDR": ":0"}, []string{"serve"}, "without authentication"},
		{"--stateless without --http", nil, []string{"serve", "--stateless"}, "--stateless only applies with --http"},
		{"--insecure without --http", nil, []string{"serve", "--insecure"}, "--insecure only applies with --http"},
		{"bad address", nil, []string{"serve", "--http", "8080"}, "want HOST:PORT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.env, tt.args...)
			if code != exitUsage {
				t.Fatalf("exit code: got %d, want %d (stderr %s)", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr: got %q, want it to contain %q", stderr, tt.want)
			}
		})
	}
}

// TestHTTPSubprocess starts the binary on 127.0.0.1:0, reads the bound URL from
// its log, talks MCP to it over HTTP, and stops it with SIGTERM.
func TestHTTPSubprocess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		token string
	}{
		{"with sessions", nil, ""},
		{"stateless with a token", []string{"--stateless"}, "s3cret-token-0123456789"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := serverCmd(t, "SKILLS_HTTP_TOKEN="+tt.token)
			cmd.Args = append([]string{binPath, "serve", "--http", "127.0.0.1:0"}, tt.args...)
			stderrPipe, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			logs := &testlog.Buffer{}
			url := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(stderrPipe)
				for sc.Scan() {
					line := sc.Text()
					logs.Write([]byte(line + "\n"))
					if i := strings.Index(line, "url=http://"); i >= 0 {
						url <- strings.Fields(line[i+len("url="):])[0]
					}
				}
				exited <- cmd.Wait()
			}()
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			var endpoint string
			select {
			case endpoint = <-url:
			case err := <-exited:
				t.Fatalf("server exited before listening: %v\n%s", err, logs.String())
			case <-ctx.Done():
				t.Fatalf("no url= line on stderr:\n%s", logs.String())
			}
			if !strings.HasPrefix(endpoint, "http://127.0.0.1:") || !strings.HasSuffix(endpoint, "/mcp") {
				t.Fatalf("endpoint: got %q, want http://127.0.0.1:PORT/mcp", endpoint)
			}

			// A raw initialize, as any HTTP client would send it.
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"serverInfo":{"name":"skills-mcp"`) {
				t.Fatalf("initialize: got %d %s, want 200 with serverInfo skills-mcp", resp.StatusCode, body)
			}

			// The go-sdk client: tools and a get_skill call.
			httpClient := http.DefaultClient
			if tt.token != "" {
				httpClient = &http.Client{Transport: bearerTransport(tt.token)}
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-subprocess", Version: "1"}, nil).
				Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: httpClient, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, logs.String())
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "REST pagination endpoint"}})
			if err != nil || res.IsError {
				t.Fatalf("get_skill: %v %+v", err, res)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"skill_path":"api/rest"`) {
				t.Errorf("get_skill: got %s, want api/rest", text)
			}

			health := strings.TrimSuffix(endpoint, "/mcp") + "/healthz"
			hreq, _ := http.NewRequestWithContext(ctx, http.MethodGet, health, nil)
			hreq.Header.Set("Authorization", "Bearer "+tt.token)
			hresp, err := http.DefaultClient.Do(hreq)
			if err != nil {
				t.Fatal(err)
			}
			var h struct {
				Status string `json:"status"`
				Skills int    `json:"skills"`
			}
			err = json.NewDecoder(hresp.Body).Decode(&h)
			hresp.Body.Close()
			if err != nil || h.Status != "ok" || h.Skills == 0 {
				t.Errorf("/healthz: got %+v (%v), want status ok and a skill count", h, err)
			}

			// SIGTERM with the client still connected: a clean exit.
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				if err != nil {
					t.Fatalf("exit after SIGTERM: got %v, want 0\n%s", err, logs.String())
				}
			case <-ctx.Done():
				t.Fatalf("server did not stop after SIGTERM\n%s", logs.String())
			}
			_ = cs.Close()
			if !strings.Contains(logs.String(), "shutting down the HTTP server") {
				t.Errorf("stderr: got %s, want the shutdown logged", logs.String())
			}
		})
	}
}

// bearerTransport adds the bearer token to every request.
type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
