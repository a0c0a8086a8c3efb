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
	// 2026-07-28 is sessionless: served over stdio and a --stateless HTTP
	// endpoint; an HTTP endpoint with sessions answers its server/discover
	// with -32601 and negotiates the others at initialize.
	versions := mcp.SupportedProtocolVersions()
	for i, v := range versions {
		if v >= "2026-07-28" {
			versions[i] = v + " (stdio and --stateless HTTP)"
		}
	}
	return fmt.Sprintf("skills-mcp %s (commit %s)\ngo-sdk %s\nMCP protocol versions: %s",
		version, rev, sdk, strings.Join(versions, ", "))
}
