package httpguard

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
)

// checkBodyIDs applies the stdio transport's id rule (stdio.CheckID) to a POSTed
// body, a message or a batch of them: the go-sdk's HTTP transport also decodes
// a numeric id through a float64, so 1.5 would be answered as 1. It reports
// why the body cannot be answered with its own ids, or "". A body that is not
// valid JSON is left to the go-sdk's errors.
func checkBodyIDs(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return ""
	}
	if body[0] != '[' {
		return stdio.CheckID(body)
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(body, &batch); err != nil {
		return ""
	}
	for _, msg := range batch {
		if reason := stdio.CheckID(msg); reason != "" {
			return reason
		}
	}
	return ""
}

// invalidRequest answers a POST with a JSON-RPC invalid-request error, id null.
func invalidRequest(w http.ResponseWriter, message string) {
	writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, message)
}
