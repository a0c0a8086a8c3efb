package stdio

import (
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// notInitialized is how the go-sdk words its refusal of a request that
// arrives before the session is initialized.
const notInitialized = "invalid during session initialization"

// StandardError gives an answer's error a standard JSON-RPC code when it has
// none: the go-sdk answers a request before initialize, and any handler
// error that is not a jsonrpc.Error, with code 0, which no client can act
// on. A request before initialize becomes -32600 (invalid request), any
// other error without a code -32603 (internal error). The message is kept.
func StandardError(err error) error {
	if err == nil {
		return nil
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && wire.Code != 0 {
		return err
	}
	code := int64(jsonrpc.CodeInternalError)
	msg := err.Error()
	if strings.Contains(msg, notInitialized) {
		code = jsonrpc.CodeInvalidRequest
		msg += ": send initialize, then notifications/initialized, first"
	}
	return &jsonrpc.Error{Code: code, Message: msg}
}
