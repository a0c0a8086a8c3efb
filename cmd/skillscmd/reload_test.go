package skillscmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// reloadServer is the binary serving a temp skills dir, with a client that
// reports tools/list_changed on a channel.
type reloadServer struct {
	dir     string
	ctx     context.Context
	cs      *mcp.ClientSession
	changed chan struct{}
	stderr  *testlog.Buffer
}

// startReload writes git/SKILL.md into a temp dir and serves it with tools.
func startReload(t *testing.T, tools string) *reloadServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	r := &reloadServer{dir: t.TempDir(), ctx: ctx, changed: make(chan struct{}, 16), stderr: &testlog.Buffer{}}
	r.write(t, "git/SKILL.md", "---\nname: git\ndescription: Git workflow\n---\nUse rebase.\n")
	client := mcp.NewClient(&mcp.Implementation{Name: "reload-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { r.changed <- struct{}{} },
	})
	// At 2026-07-28 the client opens subscriptions/listen in the background
	// after Connect returns, and the server notifies only sessions listening:
	// a reload before the acknowledgement would lose its notification.
	acked := make(chan struct{}, 1)
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "notifications/subscriptions/acknowledged" {
				select {
				case acked <- struct{}{}:
				default:
				}
			}
			return res, err
		}
	})
	cmd := serverCmd(t, "SKILLS_DIR="+r.dir, "SKILLS_TOOLS="+tools)
	cmd.Stderr = r.stderr
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, r.stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	if init := cs.InitializeResult(); init.ProtocolVersion >= "2026-07-28" && init.Capabilities.Tools != nil && init.Capabilities.Tools.ListChanged {
		select {
		case <-acked:
		case <-ctx.Done():
			t.Fatalf("no notifications/subscriptions/acknowledged\n%s", r.stderr.String())
		}
	}
	r.cs = cs
	return r
}

func (r *reloadServer) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitChanged waits for a tools/list_changed notification.
func (r *reloadServer) waitChanged(t *testing.T) {
	t.Helper()
	select {
	case <-r.changed:
	case <-r.ctx.Done():
		t.Fatalf("no tools/list_changed after adding a skill\n%s", r.stderr.String())
	}
}

func (r *reloadServer) text(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	res, err := r.cs.CallTool(r.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", name, err, res)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestLiveReload: a skill written to disk is served without a restart, and the
// client hears tools/list_changed because the skill tool's catalogue changed.
func TestLiveReload(t *testing.T) {
	t.Parallel()
	r := startReload(t, "core,skill,sk")
	res, err := r.cs.CallTool(r.ctx, &mcp.CallToolParams{Name: "skill", Arguments: map[string]any{"name": "postgres"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "Skill 'postgres' not found.") {
		t.Fatalf("before: %v %+v", err, res)
	}
	r.write(t, "postgres/SKILL.md", "---\nname: postgres\ndescription: PostgreSQL operations and query tuning\n---\nUse EXPLAIN ANALYZE.\n")
	r.waitChanged(t)
	if got := r.text(t, "skill", map[string]any{"name": "Postgres"}); !strings.HasPrefix(got, "Loading: postgres\nBase directory: "+filepath.Join(r.dir, "postgres")) {
		t.Errorf("after: %s", got)
	}
	if got := r.text(t, "get_skill", map[string]any{"context": "postgresql query tuning"}); !strings.Contains(got, `"skill_path":"postgres"`) {
		t.Errorf("get_skill after reload: %s", got)
	}
	tools, err := r.cs.ListTools(r.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "skill" && !strings.Contains(tool.Description, "<name>postgres</name>") {
			t.Errorf("skill description does not list the new skill:\n%s", tool.Description)
		}
	}
}

// TestLiveReloadSkOnly: with only the sk tools served (file 001), a change on
// disk still reaches the client as tools/list_changed.
func TestLiveReloadSkOnly(t *testing.T) {
	t.Parallel()
	r := startReload(t, "sk")
	r.write(t, "postgres/SKILL.md", "---\nname: postgres\ndescription: PostgreSQL tuning\n---\nEXPLAIN.\n")
	r.waitChanged(t)
	if got := r.text(t, "skills_show", map[string]any{"name": "postgres"}); !strings.Contains(got, "EXPLAIN.") {
		t.Errorf("skills_show = %q", got)
	}
}

func TestUnknownToolSet(t *testing.T) {
	t.Parallel()
	_, stderr, code := runCLI(t, map[string]string{"SKILLS_DIR": examplesDir(t), "SKILLS_TOOLS": "core,bogus"}, "serve")
	if code != exitUsage || !strings.Contains(stderr, `unknown tool set "bogus"`) || !strings.Contains(stderr, "core, sk, skill") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestLiveReloadWatchesWhatTheBuildRead: the watches are placed by the index
// build as it reads each folder (no walk of the watcher's own): an edit in a
// folder the first build read, a folder created since, and an edit there after
// the reload that found it are each served without a restart.
func TestLiveReloadWatchesWhatTheBuildRead(t *testing.T) {
	t.Parallel()
	r := startReload(t, "core,skill,sk")
	steps := []struct {
		rel, description string
	}{
		{"git/SKILL.md", "Git history surgery"},
		{"team/ops/deploy/SKILL.md", "Blue green deployments"},
		{"team/ops/deploy/SKILL.md", "Canary deployments with rollback"},
	}
	for _, st := range steps {
		name := filepath.Base(filepath.Dir(st.rel))
		r.write(t, st.rel, "---\nname: "+name+"\ndescription: "+st.description+"\n---\n"+st.description+".\n")
		// A reload of an earlier step may still notify (one that read a file
		// half written, then another): wait until the answer shows this step.
		for {
			r.waitChanged(t)
			if got := r.text(t, "get_skill", map[string]any{"context": strings.ToLower(st.description)}); strings.Contains(got, st.description) {
				break
			}
		}
	}
}
