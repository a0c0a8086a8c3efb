// Command skills-mcp-git runs one sync of git mode's content repo for
// skills-mcp, which starts it for each sync (internal/gitsync): the request as
// JSON on stdin, the result as JSON on stdout. It is the only executable that
// links go-git, so a skills-mcp serving a local directory does not carry it.
// Install it next to skills-mcp (make build and make install do).
package main

import (
	"os"

	"github.com/skills-mcp/skills-mcp/internal/gitsync/engine"
)

func main() {
	hideSecrets() // the request holds GITHUB_TOKEN
	os.Exit(engine.Host(os.Stdin, os.Stdout, os.Stderr))
}
