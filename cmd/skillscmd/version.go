package skillscmd

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/buildinfo"
)

// version is the build's version, set by the linker in internal/buildinfo
// for skills-mcp and its helpers alike (see there).
var version = buildinfo.Version()

// versionString says what this binary is: its version and commit, the go-sdk
// it was built with and the MCP protocol versions it speaks, newest first.
func versionString() string {
	sdk, rev := "unknown", buildinfo.Commit()
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
