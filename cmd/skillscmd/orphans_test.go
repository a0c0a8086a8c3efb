package skillscmd

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestEscapedProcessesDieWithTheRun runs, through the built binary, scripts
// whose background processes leave the run every way the issue lists (issue
// 16, item 9): a double fork into a new session, and the same with a cleared
// environment (`env -i`), which the SKILLS_RUN_ID scan cannot see. Before,
// the `env -i` one outlived the run (reparented to init); now the server is
// the subreaper of its scripts' processes and kills and reaps every one not
// claimed by a run in progress when the run ends.
func TestEscapedProcessesDieWithTheRun(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("PR_SET_CHILD_SUBREAPER is linux")
	}
	for _, tool := range []string{"sh", "setsid", "env", "sleep"} {
		testenv.RequireTool(t, tool)
	}
	scripts := map[string]string{
		"setsid":     `setsid sh -c 'sleep 300 >/dev/null 2>&1 & echo $!'`,
		"env-i":      `setsid env -i sh -c 'sleep 300 >/dev/null 2>&1 & echo $!'`,
		"env-i-deep": `env -i sh -c '(setsid sh -c "sleep 300 >/dev/null 2>&1 & echo \$!" &) ; sleep 0.2'`,
	}
	dir := t.TempDir()
	files := map[string]string{"config.yaml": "scripts:\n  enabled: true\n  allowed_extensions: [\".sh\"]\n"}
	var decl strings.Builder
	for name, body := range scripts {
		files["escape/scripts/"+name+".sh"] = "#!/bin/sh\n" + body + "\n"
		decl.WriteString("  - file: scripts/" + name + ".sh\n    description: Escapes\n    execution: server\n")
	}
	files["escape/SKILL.md"] = "---\nname: escape\ndescription: Starts processes that try to outlive the run.\nscripts:\n" + decl.String() + "---\n# Escape\n"
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := serverCmd(t, "SKILLS_STATE_DIR="+t.TempDir(), "SKILLS_DIR="+dir)
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "orphans-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	for name := range scripts {
		t.Run(name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
				"skill_path": "escape", "file": "scripts/" + name + ".sh", "args": map[string]any{},
			}})
			if err != nil || res.IsError {
				t.Fatalf("run_script: %v %+v\n%s", err, res, stderr.String())
			}
			var out struct {
				Stdout string `json:"stdout"`
			}
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(out.Stdout))
			if err != nil || pid <= 0 {
				t.Fatalf("the script printed %q, not the pid of its escaped process", out.Stdout)
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			// The run has returned: the process must be dead, and reaped if it
			// is the server's (a zombie of another parent is that parent's).
			server := cmd.Process.Pid
			if !waitFor(30*time.Second, func() bool { return deadOrOthersZombie(pid, server) }) { // a safety net
				stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
				t.Errorf("process %d outlived the run (or is an unreaped zombie of the server): %s\n%s", pid, stat, stderr.String())
			}
		})
	}
}

// deadOrOthersZombie reports whether pid is gone, or a zombie whose parent
// is not server.
func deadOrOthersZombie(pid, server int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	end := strings.LastIndexByte(string(stat), ')')
	fields := strings.Fields(string(stat[end+1:]))
	return len(fields) > 1 && fields[0] == "Z" && fields[1] != strconv.Itoa(server)
}

// TestPID1ReapsZombies runs the built binary as PID 1 of a new PID namespace
// (a container's init) and a script that leaves an orphan which exits while
// the run goes on (issue 16, item 9): the orphan's zombie is the server's to
// reap. Before, it stayed a zombie; now the server reaps it when it ends
// (SIGCHLD). The script waits for the orphan to be gone (at most 30 s, a
// safety net), then counts the zombies of PID 1.
func TestPID1ReapsZombies(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("PID namespaces are linux")
	}
	for _, tool := range []string{"unshare", "sh", "sleep"} {
		testenv.RequireTool(t, tool)
	}
	if err := exec.Command("unshare", "--pid", "--fork", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("cannot make a PID namespace here (unshare: %v)", err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml": "scripts:\n  enabled: true\n  allowed_extensions: [\".sh\"]\n",
		"init/SKILL.md": "---\nname: init\ndescription: Leaves a zombie to its init.\nscripts:\n" +
			"  - file: scripts/zombie.sh\n    description: Orphan that exits\n    execution: server\n---\n# Init\n",
		"init/scripts/zombie.sh": `#!/bin/sh
echo "pid of the server: $PPID"
orphan=$( (sh -c 'sleep 0.1' >/dev/null 2>&1 & echo $!) )
i=0
while [ -e "/proc/$orphan" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
n=0
for s in /proc/[0-9]*/stat; do
  read -r line < "$s" 2>/dev/null || continue
  case "$line" in *") Z 1 "*) n=$((n+1));; esac
done
echo "zombies of PID 1: $n"
`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command("unshare", "--pid", "--fork", "--kill-child", "--mount-proc", binPath)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SKILLS_DIR=" + dir, "SKILLS_STATE_DIR=" + t.TempDir()}
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pid1-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{
		"skill_path": "init", "file": "scripts/zombie.sh", "args": map[string]any{},
	}})
	if err != nil || res.IsError {
		t.Fatalf("run_script: %v %+v\n%s", err, res, stderr.String())
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `pid of the server: 1\n`) {
		t.Fatalf("the server is not PID 1: %s", text)
	}
	if !strings.Contains(text, "zombies of PID 1: 0") {
		t.Errorf("the orphan's zombie was not reaped by PID 1: %s", text)
	}
}
