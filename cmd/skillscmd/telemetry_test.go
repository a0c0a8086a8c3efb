package skillscmd

import (
	"bufio"
	"context"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/otlptest"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// runningServer is a started binary serving HTTP, its command given by the test.
type runningServer struct {
	cmd      *exec.Cmd
	endpoint string // http://127.0.0.1:PORT/mcp
	exited   chan error
	logs     *testlog.Buffer
}

// startServing starts cmd (a serve --http command on 127.0.0.1:0) and
// waits for the url= line of its log.
func startServing(t *testing.T, ctx context.Context, cmd *exec.Cmd) *runningServer {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &runningServer{cmd: cmd, exited: make(chan error, 1), logs: &testlog.Buffer{}}
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			b.logs.Write([]byte(line + "\n"))
			if i := strings.Index(line, "url=http://"); i >= 0 {
				url <- strings.Fields(line[i+len("url="):])[0]
			}
		}
		b.exited <- cmd.Wait()
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	select {
	case b.endpoint = <-url:
	case err := <-b.exited:
		t.Fatalf("server exited before listening: %v\n%s", err, b.logs.String())
	case <-ctx.Done():
		t.Fatalf("no url= line on stderr:\n%s", b.logs.String())
	}
	return b
}

// stop sends SIGTERM and waits for a clean exit.
func (b *runningServer) stop(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-b.exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, b.logs.String())
		}
	case <-ctx.Done():
		t.Fatalf("no exit after SIGTERM:\n%s", b.logs.String())
	}
}

// TestTelemetryTraceOverHTTP is issue 20's done-when: the trace of a
// get_skill call over HTTP arrives at an OTLP receiver with the names and
// attributes of the MCP conventions, parented to the client's trace.
func TestTelemetryTraceOverHTTP(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	recv := otlptest.Start(t)
	cmd := serverCmd(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+recv.URL, "OTEL_SERVICE_NAME=skills-under-test")
	cmd.Args = []string{binPath, "serve", "--http", "127.0.0.1:0", "--stateless"}
	b := startServing(t, ctx, cmd)

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "otel-client", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: b.endpoint, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, b.logs.String())
	}
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Meta: mcp.Meta{"traceparent": "00-" + traceID + "-" + parentID + "-01"},
		Name: "get_skill", Arguments: map[string]any{"context": "REST pagination endpoint"},
	})
	if err != nil || res.IsError {
		t.Fatalf("get_skill: %v %+v", err, res)
	}
	_ = cs.Close()
	b.stop(t, ctx) // the exporters flush at shutdown

	var call otlptest.Span
	for _, sp := range recv.Spans() {
		if sp.Name == "tools/call get_skill" {
			call = sp
		}
	}
	if call.Span == nil {
		t.Fatalf("no span named %q among %v\n%s", "tools/call get_skill", spanNames(recv.Spans()), b.logs.String())
	}
	if got := hex.EncodeToString(call.TraceId); got != traceID {
		t.Errorf("trace id: got %s, want the client's %s", got, traceID)
	}
	if got := hex.EncodeToString(call.ParentSpanId); got != parentID {
		t.Errorf("parent span id: got %s, want the client's %s", got, parentID)
	}
	if call.Kind.String() != "SPAN_KIND_SERVER" {
		t.Errorf("kind: got %s, want SERVER", call.Kind)
	}
	attrs := otlptest.Attrs(call.Attributes)
	for key, want := range map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "get_skill", "gen_ai.operation.name": "execute_tool",
		"network.transport": "tcp", "network.protocol.name": "http",
	} {
		if attrs[key] != want {
			t.Errorf("attribute %s: got %q, want %q (all: %v)", key, attrs[key], want, attrs)
		}
	}
	if _, err := strconv.Atoi(attrs["jsonrpc.request.id"]); err != nil {
		t.Errorf("jsonrpc.request.id %q, want the go-sdk client's integer id", attrs["jsonrpc.request.id"])
	}
	if attrs["mcp.protocol.version"] == "" {
		t.Errorf("no mcp.protocol.version among %v", attrs)
	}
	if _, ok := attrs["error.type"]; ok {
		t.Errorf("error.type set on a successful call: %v", attrs)
	}
	if call.Resource["service.name"] != "skills-under-test" {
		t.Errorf("service.name: got %q, want OTEL_SERVICE_NAME's skills-under-test", call.Resource["service.name"])
	}
	var search bool
	for _, sp := range recv.Spans() {
		if sp.Name == "skills.index.search" && string(sp.ParentSpanId) == string(call.SpanId) {
			search = true
		}
	}
	if !search {
		t.Errorf("no skills.index.search child span of the call among %v", spanNames(recv.Spans()))
	}
	names := strings.Join(recv.MetricNames(), " ")
	for _, want := range []string{"mcp.server.operation.duration", "mcp.server.session.duration"} {
		if !strings.Contains(names, want) {
			t.Errorf("metric %s not received; got %s", want, names)
		}
	}
	var toolPoint bool
	for _, dp := range recv.Histogram("mcp.server.operation.duration") {
		a := otlptest.Attrs(dp.Attributes)
		if a["mcp.method.name"] == "tools/call" && a["gen_ai.tool.name"] == "get_skill" && dp.Count >= 1 {
			toolPoint = true
		}
	}
	if !toolPoint {
		t.Errorf("no mcp.server.operation.duration point for tools/call get_skill")
	}
}

// TestTelemetryBadProtocol: an OTLP protocol this build cannot speak stops
// start-up with a usage error naming the variable.
func TestTelemetryBadProtocol(t *testing.T) {
	t.Parallel()
	_, stderr, code := runCLI(t, map[string]string{"SKILLS_DIR": examplesDir(t), "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, "serve")
	if code != exitUsage || !strings.Contains(stderr, "OTEL_EXPORTER_OTLP_PROTOCOL=grpc") {
		t.Errorf("got exit %d, stderr %q; want exit %d naming OTEL_EXPORTER_OTLP_PROTOCOL=grpc", code, stderr, exitUsage)
	}
}

func spanNames(spans []otlptest.Span) []string {
	var out []string
	for _, sp := range spans {
		out = append(out, sp.Name)
	}
	return out
}

// TestOTLPSinkOverStdio selects the otlp sink as a user would (config.yaml
// enables analytics, SKILLS_ANALYTICS_SINK names the sink) and finds the
// skill_served event of a get_skill call at the receiver after shutdown.
func TestOTLPSinkOverStdio(t *testing.T) {
	t.Parallel()
	recv := otlptest.Start(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"config.yaml": "analytics:\n  enabled: true\n",
		"skills/ops/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy the service to staging and production.\n" +
			"keywords: [deploy, release, rollout]\n---\n# Deploy\n\nRun the pipeline.\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_DIR="+filepath.Join(root, "skills"), "SKILLS_STATE_DIR="+t.TempDir(), "USER=carol",
		"SKILLS_ANALYTICS_SINK=otlp", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT="+recv.URL+"/v1/logs")
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "otlp-sink", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"context": "deploy to production"}}); err != nil {
		t.Fatal(err)
	}
	_ = cs.Close()
	var served bool
	for _, lr := range recv.Logs() {
		a := otlptest.Attrs(lr.Attributes)
		if lr.EventName == "skill_served" && a["skill_path"] == "ops/deploy" && a["skills_mcp.server_id"] == "dev-carol" {
			served = true
		}
	}
	if !served {
		t.Errorf("no skill_served record for ops/deploy at the receiver (%d records)\n%s", len(recv.Logs()), stderr.String())
	}
	if len(recv.Spans()) != 0 {
		t.Errorf("spans exported although only the logs endpoint is set")
	}
}
