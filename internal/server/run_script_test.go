package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// scriptTree has one skill with scripts exercising each step of the §8.4 cascade.
func scriptTree() map[string]string {
	return map[string]string{
		"tools/_index.md":           "---\ndescription: Tools\nkeywords: [tools]\nscripts:\n  - file: inherited.sh\n    execution: server\n---\nTools\n",
		"tools/_index/inherited.sh": "echo from the parent\n",
		"tools/deploy.md": "---\ndescription: Deploy\nkeywords: [deploy]\nscripts:\n" +
			"  - file: scripts/deploy.sh\n    execution: server\n    args:\n      - name: env\n      - name: region\n      - name: dry_run\n        required: false\n" +
			"  - file: scripts/local.sh\n" +
			"  - file: scripts/tool.rb\n    execution: server\n" +
			"  - file: scripts/gone.sh\n    execution: server\n" +
			"  - file: scripts/hello.py\n    execution: server\n" +
			"  - file: scripts/env.sh\n    execution: server\n    args:\n      - name: who\n        required: false\n" +
			"  - file: scripts/slow.sh\n    execution: server\n" +
			"  - file: scripts/pwd.sh\n    execution: server\n" +
			"assets:\n  - file: notes.txt\n---\nDeploy\n",
		"tools/deploy/scripts/deploy.sh": "echo \"deploying to $SKILL_ARG_ENV in $SKILL_ARG_REGION\"\necho oops >&2\nexit 3\n",
		"tools/deploy/scripts/local.sh":  "echo local\n",
		"tools/deploy/scripts/tool.rb":   "puts 1\n",
		"tools/deploy/scripts/hello.py":  "print('hello from python')\n",
		"tools/deploy/scripts/env.sh":    "env\n",
		"tools/deploy/scripts/slow.sh":   "echo started\nsleep 30\n",
		"tools/deploy/scripts/pwd.sh":    "pwd\n",
		"tools/deploy/notes.txt":         "notes\n",
		"tools/deploy/sub/.keep":         "",
	}
}

func startScripts(t *testing.T, configure func(*server.Options)) *harness {
	t.Helper()
	testenv.RequireTool(t, strings.Fields(config.Default().Scripts.Runners[".sh"])[0])
	return start(t, writeTree(t, scriptTree()), func(o *server.Options) {
		reg := core.NewRegistry[core.Runner]("runner")
		for _, ext := range []string{".sh", ".py"} {
			r, err := exec.New(o.Config.Scripts.Runners[ext], exec.WithGrace(200*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			reg.Register(ext, r)
		}
		o.Runners = reg
		o.Config.Scripts.AllowedExtensions = append(o.Config.Scripts.AllowedExtensions, ".rb")
		if configure != nil {
			configure(o)
		}
	})
}

func TestRunScriptCascade(t *testing.T) {
	t.Parallel()
	h := startScripts(t, nil)
	disabled := startScripts(t, func(o *server.Options) { o.Config.Scripts.Enabled = false })
	noPy := startScripts(t, func(o *server.Options) { o.Config.Scripts.AllowedExtensions = []string{".sh", ".rb"} })
	args := func(skill, file string, a map[string]any) map[string]any {
		return map[string]any{"skill_path": skill, "file": file, "args": a}
	}
	ok := map[string]any{"env": "prod", "region": "eu"}
	tests := []struct {
		name string
		h    *harness
		args map[string]any
		want []string
	}{
		{"1 disabled globally", disabled, args("tools/deploy", "scripts/deploy.sh", ok), []string{"disabled", "scripts.enabled"}},
		{"2 skill not found", h, args("tools/nope", "scripts/deploy.sh", ok), []string{"Skill not found: tools/nope"}},
		{"3 path traversal", h, args("tools/deploy", "../deploy.md", ok), []string{"Path traversal", "../deploy.md"}},
		{"3 absolute path", h, args("tools/deploy", "/bin/sh", ok), []string{"Path traversal"}},
		{"4 not declared", h, args("tools/deploy", "scripts/other.sh", ok), []string{"Script not declared", "scripts/other.sh", "tools/deploy"}},
		{"4 an asset is not a script", h, args("tools/deploy", "notes.txt", ok), []string{"Script not declared", "notes.txt"}},
		{"5 execution claude", h, args("tools/deploy", "scripts/local.sh", ok), []string{`execution "claude"`, "get_asset"}},
		{"6 missing args listed", h, args("tools/deploy", "scripts/deploy.sh", map[string]any{}), []string{"missing required args: env, region."}},
		{"6 a misspelled arg is named beside the missing one", h, args("tools/deploy", "scripts/deploy.sh", map[string]any{"env": "x", "regoin": "eu"}),
			[]string{`missing required args: region; argument(s) "regoin" not declared (it declares env (required), region (required), dry_run)`}},
		{"6 bad arg name", h, args("tools/deploy", "scripts/deploy.sh", map[string]any{"env": "x", "region": "y", "bad name": "z"}), []string{`"bad name"`}},
		{"7 extension not allowed", noPy, args("tools/deploy", "scripts/hello.py", map[string]any{}), []string{"Extension not allowed", ".py"}},
		{"8 file missing", h, args("tools/deploy", "scripts/gone.sh", map[string]any{}), []string{"Script file missing", "scripts/gone.sh"}},
		{"9 no runner", h, args("tools/deploy", "scripts/tool.rb", map[string]any{}), []string{"No runner configured for .rb", "known: .py, .sh"}},
		{"cwd escapes", h, map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh", "args": map[string]any{}, "cwd": "../.."}, []string{"cwd", "SKILLS_SCRIPTS_WRITE_ROOTS"}},
		{"cwd missing", h, map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh", "args": map[string]any{}, "cwd": "/nonexistent/dir"}, []string{"cwd", "/nonexistent/dir", "SKILLS_SCRIPTS_WRITE_ROOTS"}},
		{"cwd relative to the skill", h, map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh", "args": map[string]any{}, "cwd": "sub"}, []string{"cwd", "SKILLS_SCRIPTS_WRITE_ROOTS"}},
		{"unknown argument", h, map[string]any{"skill_path": "tools/deploy", "file": "scripts/pwd.sh", "argz": map[string]any{}}, []string{"unknown argument(s): argz", "allowed: args, cwd, file, skill_path"}},
		{"args must be strings", h, args("tools/deploy", "scripts/pwd.sh", map[string]any{"n": 1}), []string{`argument "args" must be an object whose values are strings`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { mustContain(t, tt.h.callError(t, "run_script", tt.args), tt.want...) })
	}
}

// TestRunScriptResults runs scripts to their end under the default timeout
// (60 s, far above what they need even where python3 is a slow shim on a
// loaded machine), and slow.sh (sleep 30) under a 1 s timeout on a server of
// its own.
func TestRunScriptResults(t *testing.T) {
	h := startScripts(t, nil)
	short := startScripts(t, func(o *server.Options) { o.Config.Scripts.TimeoutSeconds = 1 })
	t.Run("failure with args as env", func(t *testing.T) {
		out := h.callJSON(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/deploy.sh", "args": map[string]any{"env": "prod", "region": "$(touch pwned)"}})
		if out["success"] != false || out["exit_code"] != float64(3) || out["stdout"] != "deploying to prod in $(touch pwned)\n" ||
			out["stderr"] != "oops\n" || out["script"] != "scripts/deploy.sh" {
			t.Errorf("got %v", out)
		}
		if _, ok := out["duration_ms"].(float64); !ok {
			t.Errorf("duration_ms missing: %v", out)
		}
		if _, err := os.Stat(filepath.Join(h.dir, "tools/deploy/pwned")); err == nil {
			t.Error("an argument was interpreted by a shell")
		}
		ev := h.events.last(t)
		if ev.Type != core.EventScriptExecuted || ev.Data["exit_code"] != 3 || ev.Data["execution_mode"] != "server" ||
			strings.Join(ev.Data["args_provided"].([]string), ",") != "env,region" {
			t.Errorf("event = %+v", ev)
		}
	})
	t.Run("python success", func(t *testing.T) {
		testenv.RequireTool(t, "python3")
		out := h.callJSON(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/hello.py", "args": map[string]any{}})
		if out["success"] != true || out["exit_code"] != float64(0) || out["stdout"] != "hello from python\n" {
			t.Errorf("got %v", out)
		}
	})
	t.Run("inherited script runs in its owner's directory", func(t *testing.T) {
		out := h.callJSON(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "inherited.sh", "args": map[string]any{}})
		if out["stdout"] != "from the parent\n" {
			t.Errorf("got %v", out)
		}
	})
	t.Run("environment is minimal", func(t *testing.T) {
		t.Setenv("GITHUB_TOKEN", "ghp_leak")
		t.Setenv("ANALYTICS_ENDPOINT", "http://127.0.0.1:1/secret")
		out := h.callJSON(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/env.sh", "args": map[string]any{"who": "me"}})
		env := out["stdout"].(string)
		mustContain(t, env, "SKILL_ARG_WHO=me", "SKILL_DIR=", "PATH=")
		if strings.Contains(env, "ghp_leak") || strings.Contains(env, "ANALYTICS_ENDPOINT") {
			t.Errorf("server secrets leaked into the script's environment:\n%s", env)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		out := short.callJSON(t, "run_script", map[string]any{"skill_path": "tools/deploy", "file": "scripts/slow.sh", "args": map[string]any{}})
		if out["success"] != false || out["exit_code"] != float64(137) || out["stdout"] != "started\n" ||
			!strings.HasSuffix(out["stderr"].(string), core.TimeoutMarker) {
			t.Errorf("got %v", out)
		}
	})
}
