package exec_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/runners/exec"
)

// A third party adds a runner for its own extension next to the built-in ones:
// one exec.Runner per configured runner string, registered by extension.
func Example_registry() {
	reg := core.NewRegistry[core.Runner]("runner")
	for ext, command := range map[string]string{".sh": "bash", ".py": "python3 -u", ".rb": "ruby --disable-gems"} {
		r, err := exec.New(command)
		if err != nil {
			fmt.Println(err)
			return
		}
		reg.Register(ext, r)
	}
	fmt.Println(reg.Names())

	if _, err := reg.Lookup(".pl"); err != nil {
		fmt.Println(err)
	}

	dir, err := os.MkdirTemp("", "skill")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "hello.sh")
	if err := os.WriteFile(script, []byte("echo \"hello, $SKILL_ARG_NAME\"\n"), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	runner, err := reg.Lookup(filepath.Ext(script))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := runner.Run(context.Background(), core.RunRequest{
		ScriptPath: script,
		File:       "hello.sh",
		SkillDir:   dir,
		Dir:        dir,
		Args:       map[string]string{"name": "$(whoami); world"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Stdout)
	fmt.Println("exit code", res.ExitCode)
	// Output:
	// [.py .rb .sh]
	// runner ".pl": not found (known: .py, .rb, .sh)
	// hello, $(whoami); world
	// exit code 0
}
