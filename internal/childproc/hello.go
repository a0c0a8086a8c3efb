package childproc

import (
	"errors"
	"fmt"

	"github.com/skills-mcp/skills-mcp/internal/buildinfo"
)

// Hello is what the server and a helper tell each other before any work:
// the helper's protocol version and the build both come from
// (buildinfo.String). A helper serves only a server of its own build, and
// the server uses only a helper of its own build, so that a helper left
// over from another install is refused with both versions named rather
// than misread.
type Hello struct {
	// Protocol is the version of one helper's protocol (its requests and
	// answers), raised whenever they change.
	Protocol int `json:"protocol"`
	// Version is the build: its version and commit (buildinfo.String).
	Version string `json:"version"`
}

// ErrMismatch is wrapped by the error of a helper and a server of different
// builds or protocols.
var ErrMismatch = errors.New("skills-mcp and its helper are of different builds")

// NewHello is this executable's Hello for a helper speaking protocol.
func NewHello(protocol int) Hello {
	return Hello{Protocol: protocol, Version: buildinfo.String()}
}

// String is the build and the protocol: `"v1.2.3 (commit abc)", protocol 2`.
func (h Hello) String() string { return fmt.Sprintf("%q, protocol %d", h.Version, h.Protocol) }

// CheckHelper is the server's side of the handshake: nil when got, the
// Hello of the helper name found at path, is want, this server's; else an
// error wrapping ErrMismatch naming both and where the helper was found. A
// nil got is a helper that said nothing of itself: one older than the
// handshake.
func CheckHelper(name, path string, want Hello, got *Hello) error {
	const fix = "install the helpers built with this skills-mcp next to it (make build or make install builds the three together)"
	switch {
	case got == nil:
		return fmt.Errorf("%w: %s at %s did not say its version (it is older than the version handshake); this skills-mcp is %s: %s",
			ErrMismatch, name, path, want, fix)
	case *got != want:
		return fmt.Errorf("%w: %s at %s is %s; this skills-mcp is %s: %s", ErrMismatch, name, path, got, want, fix)
	}
	return nil
}

// CheckServer is a helper's side of the handshake: nil when got, the
// server's Hello, is own, the helper's; else an error wrapping ErrMismatch
// naming both. A nil got is a server that said nothing of itself.
func CheckServer(name string, own Hello, got *Hello) error {
	switch {
	case got == nil:
		return fmt.Errorf("%w: %s, %s, refuses a server that did not say its version (older than the version handshake)", ErrMismatch, name, own)
	case *got != own:
		return fmt.Errorf("%w: %s, %s, refuses a server of %s", ErrMismatch, name, own, got)
	}
	return nil
}
