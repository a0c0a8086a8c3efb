package core_test

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// upperRunner is a third-party runner: it "executes" a script by printing its
// arguments in upper case. A real one would run a program or an interpreter.
type upperRunner struct{}

var _ core.Runner = upperRunner{}

func (upperRunner) Run(_ context.Context, req core.RunRequest) (core.RunResult, error) {
	names := make([]string, 0, len(req.Args))
	for n := range req.Args {
		names = append(names, n)
	}
	sort.Strings(names)
	var out strings.Builder
	for _, n := range names {
		fmt.Fprintf(&out, "%s=%s\n", strings.ToUpper(n), strings.ToUpper(req.Args[n]))
	}
	return core.RunResult{ExitCode: 0, Stdout: out.String()}, nil
}

// A third party adds a runner by implementing core.Runner and registering it,
// by extension, in a registry (cmd/skillscmd builds the built-in ones the
// same way; a custom build hands its own to skillscmd.Options.Runners). run_script then dispatches ".upper" scripts to it
// once scripts.allowed_extensions lists ".upper".
func Example_customRunner() {
	runners := core.NewRegistry[core.Runner]("runner")
	runners.Register(".upper", upperRunner{})

	r, err := runners.Lookup(".upper")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := r.Run(context.Background(), core.RunRequest{File: "scripts/shout.upper", Args: map[string]string{"greeting": "hello"}})
	fmt.Print(res.Stdout)
	_, err = runners.Lookup(".rb")
	fmt.Println(err)
	// Output:
	// GREETING=HELLO
	// runner ".rb": not found (known: .upper)
}
