package httpguard

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// initializeFirst answers, on an endpoint with sessions, a POSTed request
// that carries no Mcp-Session-Id and is not initialize with 400 and a
// JSON-RPC -32600 naming the fix (the Streamable HTTP transport: a server
// that requires a session ID SHOULD answer such requests with 400). The
// go-sdk would open a session for it and answer 200 with an error of code 0.
// server/discover gets -32601: protocol 2026-07-28 has no sessions, and an
// endpoint with sessions does not serve it (the go-sdk would list it as
// supported, then refuse every request at it with -32022); a client falls
// back to initialize. Notifications, responses and batches are left to the
// go-sdk. The body was
// read by limitBody, which leaves it in memory.
func initializeFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		msg, ok, err := peekMessage(r)
		var method string
		if err != nil || !ok || json.Unmarshal(msg.Method, &method) != nil ||
			method == "" || method == "initialize" || len(msg.ID) == 0 || string(msg.ID) == "null" {
			next.ServeHTTP(w, r)
			return
		}
		if method == "server/discover" {
			// Protocol 2026-07-28 is sessionless: an endpoint with sessions
			// does not serve it, and says so the way a client falls back from
			// to initialize.
			writeRPCError(w, http.StatusOK, msg.ID, jsonrpc.CodeMethodNotFound,
				"Method not found: server/discover (protocol 2026-07-28) is served by a stateless endpoint (serve --stateless); this one has sessions: use initialize")
			return
		}
		writeRPCError(w, http.StatusBadRequest, msg.ID, jsonrpc.CodeInvalidRequest,
			"Bad Request: no Mcp-Session-Id: send initialize first, then use the session it opens")
	})
}

// writeRPCError answers with one JSON-RPC error for the request id (null
// when id is empty).
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int64, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	answer, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(answer, '\n'))
}
