// Package buildinfo is what the build stamped into this executable: its
// version and commit, set by the linker for skills-mcp and its helpers alike
// (make build, make install and deploy/Dockerfile set the same values on
// all three):
//
//	go build -ldflags "-X github.com/skills-mcp/skills-mcp/internal/buildinfo.version=v1.2.3 -X github.com/skills-mcp/skills-mcp/internal/buildinfo.commit=$(git rev-parse --short=12 HEAD)"
//
// The server and a helper compare String in their handshake
// (internal/childproc): a helper of another build is refused.
package buildinfo

// version and commit are set by the linker (-X); unset, the build is "dev"
// of no known commit.
var (
	version = "dev"
	commit  = ""
)

// Version is the version the build was given, "dev" when none.
func Version() string { return version }

// Commit is the commit the build was given, "" when none.
func Commit() string { return commit }

// String is the version and, when the build gave one, the commit:
// "v1.2.3 (commit 0123456789ab)", or "dev".
func String() string {
	if commit == "" {
		return version
	}
	return version + " (commit " + commit + ")"
}
