package stdio

import (
	"errors"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestStandardError(t *testing.T) {
	coded := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}
	tests := []struct {
		name string
		err  error
		code int64
	}{
		{"before initialize", errors.New(`method "tools/list" is invalid during session initialization`), jsonrpc.CodeInvalidRequest},
		{"no code", errors.New("boom"), jsonrpc.CodeInternalError},
		{"code zero", &jsonrpc.Error{Message: "zero"}, jsonrpc.CodeInternalError},
		{"coded", coded, jsonrpc.CodeInvalidParams},
		{"wrapped coded", fmt.Errorf("ctx: %w", coded), jsonrpc.CodeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *jsonrpc.Error
			if !errors.As(StandardError(tt.err), &got) || got.Code != tt.code {
				t.Errorf("got %v, want code %d", StandardError(tt.err), tt.code)
			}
		})
	}
	if StandardError(nil) != nil {
		t.Error("nil: got an error")
	}
}
