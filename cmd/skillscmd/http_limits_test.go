package skillscmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// httpBinary is the built binary serving a small skills tree over HTTP on
// 127.0.0.1 with the given config.yaml http section.
type httpBinary struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:PORT
	logs *testlog.Buffer
}

// startHTTPBinary starts the binary with config.yaml holding httpConfig (the
// lines under "http:") and waits for its URL.
func startHTTPBinary(t *testing.T, httpConfig string, args ...string) *httpBinary {
	t.Helper()
	return startHTTPBinaryFiles(t, httpConfig, nil, args...)
}

// startHTTPBinaryFiles is startHTTPBinary with extra files in the skill's
// folder, by name.
func startHTTPBinaryFiles(t *testing.T, httpConfig string, extra map[string]string, args ...string) *httpBinary {
	t.Helper()
	root := t.TempDir()
	skill := filepath.Join(root, "skills", "ops", "deploy")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(root, "config.yaml"): "http:\n" + httpConfig,
		filepath.Join(skill, "SKILL.md"): "---\nname: deploy\ndescription: Deploy the service to staging and production.\n" +
			"keywords: [deploy, release, rollout]\n---\n# Deploy\n\nRun the pipeline, then watch the dashboards.\n",
	}
	for name, content := range extra {
		files[filepath.Join(skill, name)] = content
	}
	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(binPath, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_DIR=" + filepath.Join(root, "skills")}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &httpBinary{cmd: cmd, logs: &testlog.Buffer{}}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			b.logs.Write([]byte(line + "\n"))
			if i := strings.Index(line, "url=http://"); i >= 0 {
				url <- strings.TrimSuffix(strings.Fields(line[i+len("url="):])[0], "/mcp")
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	select {
	case b.base = <-url:
	case err := <-exited:
		t.Fatalf("server exited before listening: %v\n%s", err, b.logs.String())
	case <-time.After(60 * time.Second): // a safety net, not a speed assertion
		t.Fatalf("no url= line on stderr:\n%s", b.logs.String())
	}
	return b
}

// addr is the listener's HOST:PORT.
func (b *httpBinary) addr() string { return strings.TrimPrefix(b.base, "http://") }

// sockets counts the server process's open sockets.
func (b *httpBinary) sockets(t *testing.T) int {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", b.cmd.Process.Pid)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("no %s: %v", dir, err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(target, "socket:") {
			n++
		}
	}
	return n
}

// peakRSS is the server process's peak resident set (VmHWM), in bytes.
func (b *httpBinary) peakRSS(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", b.cmd.Process.Pid))
	if err != nil {
		t.Skipf("no /proc status: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

// initialize posts an initialize request and returns the status, the session
// id and the body.
func (b *httpBinary) initialize(t *testing.T, client *http.Client) (int, string, string) {
	t.Helper()
	return b.post(t, client, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
}

func (b *httpBinary) post(t *testing.T, client *http.Client, session, body string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a safety net, not a speed assertion
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST: %v\n%s", err, b.logs.String())
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(data)
}

// waitClosed reads from each connection until the server closes it; a
// connection still open after the safety net fails the test.
func waitClosed(t *testing.T, what string, conns []net.Conn) {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetReadDeadline(time.Now().Add(30 * time.Second)) // a safety net, not a speed assertion
			_, err := io.Copy(io.Discard, c)
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if open > 0 {
		t.Errorf("%s: %d of %d connections still open, want the server to close every one", what, open, len(conns))
	}
}

// TestHTTPSlowClients attaches hundreds of slow clients to the binary (a head
// that never ends, a body that never ends, an idle keep-alive connection): a
// normal client is still served meanwhile, and the server closes every slow
// connection by its timeouts (issue 16, item 6).
func TestHTTPSlowClients(t *testing.T) {
	t.Parallel()
	const perKind = 100
	b := startHTTPBinary(t, "  read_timeout_seconds: 2\n  idle_timeout_seconds: 2\n")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", b.addr())
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	head := "POST /mcp HTTP/1.1\r\nHost: " + b.addr() + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	slow := map[string][]net.Conn{}
	for range perKind {
		c := dial()
		_, _ = io.WriteString(c, head) // the head never ends
		slow["slow head"] = append(slow["slow head"], c)

		c = dial()
		_, _ = io.WriteString(c, head+"Content-Length: 1000\r\n\r\n{\"jsonrpc\":") // the body never ends
		slow["slow body"] = append(slow["slow body"], c)

		c = dial()
		_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: "+b.addr()+"\r\n\r\n") // answered, then idle
		slow["idle keep-alive"] = append(slow["idle keep-alive"], c)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if status, _, body := b.initialize(t, client); status != http.StatusOK {
		t.Fatalf("a normal client among %d slow ones: got %d %s, want 200", 3*perKind, status, body)
	}
	for _, kind := range []string{"idle keep-alive", "slow body", "slow head"} {
		waitClosed(t, kind, slow[kind])
	}
	if status, _, body := b.initialize(t, client); status != http.StatusOK {
		t.Fatalf("a normal client after the slow ones: got %d %s, want 200", status, body)
	}
}

// TestHTTPConnectionCap opens more idle connections than max_connections: the
// server holds at most the cap (the rest wait unaccepted in the backlog) and
// still serves a normal client once the idle ones time out.
func TestHTTPConnectionCap(t *testing.T) {
	t.Parallel()
	const limit, extra = 20, 30
	b := startHTTPBinary(t, "  read_timeout_seconds: 2\n  max_connections: 20\n")
	base := b.sockets(t)
	for range limit + extra {
		c, err := net.Dial("tcp", b.addr())
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		t.Cleanup(func() { _ = c.Close() })
	}
	// Wait until the server has accepted what it will (a poll bounded by a
	// generous deadline: on a loaded machine accepting 20 takes a while).
	var got int
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = b.sockets(t) - base; got >= limit {
			break
		}
	}
	if got > limit {
		t.Errorf("sockets held by the server with %d clients connected: got %d, want at most %d", limit+extra, got, limit)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if status, _, body := b.initialize(t, client); status != http.StatusOK {
		t.Fatalf("a normal client after the idle ones: got %d %s, want 200", status, body)
	}
}

// TestHTTPSessionCap opens more sessions than max_sessions: the least recently
// used are closed and their ids get 404 (as the MCP spec says for a session
// the server no longer knows), the others still work; a session idle past
// session_idle_seconds gets 404 too (issue 16, item 12). The cap is checked
// on a server whose sessions never idle out during the test (the default 30
// minutes), the idle timeout on another with 1 s.
func TestHTTPSessionCap(t *testing.T) {
	t.Parallel()
	const limit, total = 10, 25
	b := startHTTPBinary(t, "  max_sessions: 10\n")
	client := &http.Client{}
	var ids []string
	for i := range total {
		status, id, body := b.initialize(t, client)
		if status != http.StatusOK || id == "" {
			t.Fatalf("initialize %d: got %d, session %q, %s", i, status, id, body)
		}
		ids = append(ids, id)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	// The newest first: using a session makes it the most recently used.
	for i := total - 1; i >= 0; i-- {
		want := http.StatusOK
		if i < total-limit {
			want = http.StatusNotFound
		}
		if status, _, body := b.post(t, client, ids[i], ping); status != want {
			t.Errorf("ping on session %d of %d (cap %d): got %d %s, want %d", i+1, total, limit, status, body, want)
		}
	}
	// One more session evicts the least recently used: the newest one, pinged
	// first above.
	if status, _, _ := b.initialize(t, client); status != http.StatusOK {
		t.Fatalf("initialize after the cap: got %d, want 200", status)
	}
	if status, _, _ := b.post(t, client, ids[total-1], ping); status != http.StatusNotFound {
		t.Errorf("the least recently used session after one more initialize: got %d, want 404", status)
	}
	if status, _, _ := b.post(t, client, ids[total-limit], ping); status != http.StatusOK {
		t.Errorf("the most recently used session: got %d, want 200", status)
	}

	// Idle past session_idle_seconds: 404. Each request restarts the idle
	// clock, so the poll waits longer than the timeout between requests.
	short := startHTTPBinary(t, "  session_idle_seconds: 1\n")
	_, idle, _ := short.initialize(t, client)
	for range 10 {
		time.Sleep(2 * time.Second)
		if status, _, _ := short.post(t, client, idle, ping); status == http.StatusNotFound {
			return
		}
	}
	t.Error("a session idle past session_idle_seconds still answers, want 404")
}

// TestHTTPRequestIDsThroughTheBinary: over HTTP too, an answer carries the
// request's id exactly, or the request is rejected as invalid (-32600, id
// null) (issue 16, item 15).
func TestHTTPRequestIDsThroughTheBinary(t *testing.T) {
	t.Parallel()
	b := startHTTPBinary(t, "")
	client := &http.Client{}
	_, session, _ := b.initialize(t, client)
	b.post(t, client, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tt := range []struct{ id, want string }{
		{`1.5`, `"id":null`},
		{`123456789012345678901234567890`, `"id":null`},
		{`9007199254740993`, `"id":null`},
		{`-0`, `"id":null`},
		{`9007199254740992`, `"id":9007199254740992`},
		{`"1.5"`, `"id":"1.5"`},
	} {
		status, _, body := b.post(t, client, session, `{"jsonrpc":"2.0","id":`+tt.id+`,"method":"ping"}`)
		if !strings.Contains(body, tt.want) || (tt.want == `"id":null`) != (status == http.StatusBadRequest && strings.Contains(body, "-32600")) {
			t.Errorf("ping with id %s: got %d %s, want %s", tt.id, status, body, tt.want)
		}
	}
}

// TestHTTPWriteTimeout: a client that asks for a large answer and never reads
// it holds its connection only for write_timeout_seconds; the answer is cut
// there and the connection closed (issue 16, item 6).
func TestHTTPWriteTimeout(t *testing.T) {
	t.Parallel()
	const size = 24 << 20 // more than loopback socket buffers absorb
	b := startHTTPBinaryFiles(t, "  write_timeout_seconds: 1\nassets:\n  max_size_bytes: 67108864\n",
		map[string]string{"reference.md": strings.Repeat("x", size)}, "--stateless")
	listening := b.sockets(t) // the listener's: the connection below adds one
	c, err := net.Dial("tcp", b.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_asset","arguments":{"skill_path":"ops/deploy","file":"reference.md"}}}`
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s", b.addr(), len(call), call)
	// One byte proves the server is writing the answer (reading the asset may
	// take seconds on a loaded machine; a client reading from the start would
	// get the whole answer). From here on the client reads nothing, so the
	// server's writes stall until the write timeout closes the connection:
	// wait (bounded, a safety net) for its socket to go.
	_ = c.SetReadDeadline(time.Now().Add(60 * time.Second)) // a safety net
	if _, err := io.ReadFull(c, make([]byte, 1)); err != nil {
		t.Fatalf("no answer began: %v", err)
	}
	for deadline := time.Now().Add(30 * time.Second); b.sockets(t) > listening; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the connection is still open 30 s after the server began an answer the client does not read")
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second)) // a safety net
	n, err := io.Copy(io.Discard, c)
	n++ // the first byte
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection is still open after the write timeout (%d bytes read)", n)
	}
	if n >= size {
		t.Errorf("read %d bytes, the whole answer: want it cut at the write timeout", n)
	}
	t.Logf("the server wrote %d of at least %d bytes before the write timeout closed the connection", n, size)
}
