// Package skillscmdtest owns the stdio protocol suite every skills-mcp binary
// passes, the stock one and any built with skillscmd.New and its own plugins:
// the MCP handshake and tools over a go-sdk client, malformed frames that do
// not end the session, answers to requests piped before stdin closes, and a
// clean exit on end of input and on SIGTERM and SIGINT. A build calls Protocol
// from a test with the path of its binary.
package skillscmdtest
