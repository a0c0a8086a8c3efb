package stdio

import (
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// appendFastHead appends to dst the bytes jsonrpc.EncodeMessage(msg) returns
// before the raw Params or Result (which it returns, nil when there is none),
// so that the line is head, raw, then "}", when it can prove them equal
// without marshaling: for a *jsonrpc.Response with no error and a Result, and
// for a *jsonrpc.Request, whose id is an integer or a plain string (printable
// ASCII, no quote or backslash), whose method is a plain string, and whose
// raw Params or Result compactRawJSON accepts.
//
// EncodeMessage marshals {jsonrpc, id, method, params, result, error} in that
// order, omitting empty ones, without HTML escaping; encoding/json compacts a
// json.RawMessage (and, with HTML escaping off, changes nothing else in it), so
// a raw value that is already compact is written as it is. Anything else
// reports false, and the caller calls EncodeMessage.
func appendFastHead(dst []byte, msg jsonrpc.Message) ([]byte, json.RawMessage, bool) {
	var (
		id     jsonrpc.ID
		method string
		name   string
		raw    json.RawMessage
	)
	if !rawVerbatim {
		return dst, nil, false
	}
	switch m := msg.(type) {
	case *jsonrpc.Response:
		if m.Error != nil || len(m.Result) == 0 || !m.ID.IsValid() {
			return dst, nil, false
		}
		id, name, raw = m.ID, `,"result":`, m.Result
	case *jsonrpc.Request:
		id, method, name, raw = m.ID, m.Method, `,"params":`, m.Params
		if method != "" && !plain(method) {
			return dst, nil, false
		}
	default:
		return dst, nil, false
	}
	switch v := id.Raw().(type) {
	case nil, int64:
	case string:
		if !plain(v) {
			return dst, nil, false
		}
	default:
		return dst, nil, false
	}
	if len(raw) > 0 && !compactRawJSON(raw) {
		return dst, nil, false
	}
	dst = append(dst, `{"jsonrpc":"2.0"`...)
	switch v := id.Raw().(type) {
	case int64:
		dst = strconv.AppendInt(append(dst, `,"id":`...), v, 10)
	case string:
		dst = append(append(append(dst, `,"id":"`...), v...), '"')
	}
	if method != "" {
		dst = append(append(append(dst, `,"method":"`...), method...), '"')
	}
	if len(raw) > 0 {
		return append(dst, name...), raw, true
	}
	return dst, nil, true
}
