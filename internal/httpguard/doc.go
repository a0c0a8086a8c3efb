// Package httpguard owns the Streamable HTTP endpoint of skills-mcp and the
// guards in front of the go-sdk's handler: the DNS-rebinding Host and Origin
// checks, the static bearer token, the body limit and the budget of bodies
// held at once, write deadlines, the session cap, initialize first on an
// endpoint with sessions, JSON-RPC ids an answer can carry exactly, request
// ids for telemetry, the readiness probe, and what a stateless endpoint can
// promise at initialize.
//
// It knows nothing of skills: the MCP binding (internal/server) hands it the
// go-sdk server and the values it reports (Endpoint), and asks it whether a
// request came over HTTP (OverHTTP).
package httpguard
