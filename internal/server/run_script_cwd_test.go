package server_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/confine"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// cwdTree is a skill whose scripts write into their working directory.
func cwdTree() map[string]string {
	return map[string]string{
		"work.md": "---\ndescription: Work\nkeywords: [work]\nscripts:\n" +
			"  - file: scripts/touch.sh\n    execution: server\n" +
			"  - file: scripts/pwd.sh\n    execution: server\n" +
			"  - file: scripts/check.ts\n    execution: server\n---\nWork\n",
		"work/scripts/touch.sh": "touch ./x && echo touched\n",
		"work/scripts/pwd.sh":   "pwd -P\ntouch ./left-behind\n",
		"work/scripts/check.ts": "console.log('the real tsx ran')\n",
	}
}

// TestRunScriptCwdIsConfinedToWriteRoots: run_script's cwd, which the agent
// chooses, is one rule for every runner, set by the operator (issue 26,
// item 1): under SKILLS_SCRIPTS_WRITE_ROOTS only, refused before anything
// runs; without a cwd, a fresh scratch directory removed after the run.
func TestRunScriptCwdIsConfinedToWriteRoots(t *testing.T) {
	t.Parallel()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "projects")
	home := filepath.Join(base, "home")                    // the server user's home, say
	planted := filepath.Join(base, "clone")                // a folder holding node_modules/.bin/tsx
	scratchBase := filepath.Join(base, "state", "scratch") // under the state directory, as cmd sets it
	marker := filepath.Join(base, "planted-tsx-ran")
	for _, d := range []string{filepath.Join(root, "app"), home, filepath.Join(planted, "node_modules", ".bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fakeTsx := "#!/bin/sh\ntouch '" + marker + "'\necho planted tsx ran\n"
	if err := os.WriteFile(filepath.Join(planted, "node_modules", ".bin", "tsx"), []byte(fakeTsx), 0o755); err != nil {
		t.Fatal(err)
	}
	skills := writeTree(t, cwdTree())
	work, err := confine.NewWorkDirs([]string{root}, scratchBase, []confine.Protected{{Dir: skills, What: "a skills directory"}})
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, skills, func(o *server.Options) {
		reg := core.NewRegistry[core.Runner]("runner")
		for _, ext := range []string{".sh", ".ts"} {
			r, err := exec.New(o.Config.Scripts.Runners[ext], exec.WithGrace(200*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			reg.Register(ext, r)
		}
		o.Runners = reg
		o.WorkDirs = work
	})
	call := func(file, cwd string) map[string]any {
		a := map[string]any{"skill_path": "work", "file": file, "args": map[string]any{}}
		if cwd != "" {
			a["cwd"] = cwd
		}
		return a
	}

	t.Run("a planted tsx in a cwd outside the write roots never runs", func(t *testing.T) {
		testenv.RequireTool(t, "npx") // the default .ts runner is npx tsx
		msg := h.callError(t, "run_script", call("scripts/check.ts", planted))
		mustContain(t, msg, "cwd", planted, confine.WriteRootsEnv)
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("the tsx planted in node_modules/.bin of the cwd ran")
		}
	})
	for _, tc := range []struct{ name, cwd string }{
		{"the home directory", home},
		{"the skill's own directory", filepath.Join(skills, "work")},
		{"relative, in the skill's directory", "."},
		{"a link from inside a write root to outside", linkTo(t, filepath.Join(root, "to-home"), home)},
	} {
		t.Run("touch ./x refused: "+tc.name, func(t *testing.T) {
			msg := h.callError(t, "run_script", call("scripts/touch.sh", tc.cwd))
			mustContain(t, msg, "cwd", confine.WriteRootsEnv)
			for _, dir := range []string{home, filepath.Join(skills, "work"), skills} {
				if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
					t.Fatalf("the script ran: %s/x was created", dir)
				}
			}
		})
	}
	t.Run("a cwd under a write root works", func(t *testing.T) {
		out := h.callJSON(t, "run_script", call("scripts/touch.sh", filepath.Join(root, "app")))
		if out["success"] != true || out["stdout"] != "touched\n" {
			t.Fatalf("got %v", out)
		}
		if _, err := os.Stat(filepath.Join(root, "app", "x")); err != nil {
			t.Errorf("x not created under the write root: %v", err)
		}
	})
	t.Run("without a cwd a fresh scratch directory, removed after the run", func(t *testing.T) {
		var dirs []string
		for range 2 {
			out := h.callJSON(t, "run_script", call("scripts/pwd.sh", ""))
			dir := strings.TrimSpace(out["stdout"].(string))
			if out["success"] != true || filepath.Dir(dir) != scratchBase {
				t.Fatalf("got %v, want a run in a directory of %s", out, scratchBase)
			}
			if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the scratch directory %s is still there after the run (%v)", dir, err)
			}
			dirs = append(dirs, dir)
		}
		if dirs[0] == dirs[1] {
			t.Errorf("two runs shared the scratch directory %s", dirs[0])
		}
		if _, err := os.Stat(filepath.Join(skills, "work", "left-behind")); err == nil {
			t.Error("the script ran in the skill's directory")
		}
	})
}

// linkTo makes link, a symlink to target, and returns link.
func linkTo(t *testing.T, link, target string) string {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
	return link
}
