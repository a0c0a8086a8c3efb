package skillscmd

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// version and commit are set at build time:
// go build -ldflags "-X github.com/skills-mcp/skills-mcp/cmd.version=v1.2.3 -X github.com/skills-mcp/skills-mcp/cmd.commit=$(git rev-parse --short HEAD)".
var (
	version = "dev"
	commit  = ""
)

// versionString says what this binary is: its version and commit, the go-sdk
// it was built with and the MCP protocol versions it speaks, newest first.
func versionString() string {
	sdk, rev := "unknown", commit
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/modelcontextprotocol/go-sdk" {
				sdk = dep.Version
			}
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && rev == "" && len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
		}
	}
	if rev == "" {
		rev = "unknown"
	}
	return fmt.Sprintf("skills-mcp %s (commit %s)\ngo-sdk %s\nMCP protocol versions: %s",
		version, rev, sdk, strings.Join(mcp.SupportedProtocolVersions(), ", "))
}
