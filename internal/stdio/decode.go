package stdio

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxExactIDDigits is the longest integer id decoded on the fast path: every
// integer of up to 15 digits is exact as a float64, which is what the go-sdk
// decodes a numeric id into before it truncates it to an int64.
const maxExactIDDigits = 15

// The members of a JSON-RPC message the fast decoder reads, as bits of a set.
const (
	memberJSONRPC = 1 << iota
	memberID
	memberMethod
	memberParams
	memberResult
)

// decodeFast returns the message jsonrpc.DecodeMessage(line) returns, without
// its two passes of a reflective decoder, when it is certain to: line is one
// JSON object (valid as json.Valid checks it, nested at most maxScanDepth
// deep) whose member names are matched exactly, as the go-sdk matches them,
// with "jsonrpc":"2.0", no member of the message twice, no "error", an id that
// is null, a plain string or an integer of at most 15 digits, a plain-string
// method, and either a method or a valid id. Anything else reports false and
// the caller takes the go-sdk path, so answers and error texts do not change.
// Params and Result alias line.
func decodeFast(line []byte) (jsonrpc.Message, bool) {
	s := jsonScan{b: line}
	i := s.space(0)
	if i >= len(line) || line[i] != '{' {
		return nil, false
	}
	var (
		seen           int
		id             jsonrpc.ID
		method         []byte
		params, result json.RawMessage
	)
	i = s.space(i + 1)
	if i < len(line) && line[i] == '}' {
		return nil, false // no "jsonrpc": the go-sdk's error
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return nil, false
		}
		keyEnd, ok := s.str(i)
		if !ok {
			return nil, false
		}
		key := line[i+1 : keyEnd-1]
		if !plain(key) {
			return nil, false
		}
		i = s.space(keyEnd)
		if i >= len(line) || line[i] != ':' {
			return nil, false
		}
		start := s.space(i + 1)
		end, ok := s.value(start, 1)
		if !ok {
			return nil, false
		}
		v := line[start:end]
		var member int
		switch string(key) {
		case "jsonrpc":
			member = memberJSONRPC
			if string(v) != `"2.0"` {
				return nil, false
			}
		case "id":
			member = memberID
			if id, ok = fastID(v); !ok {
				return nil, false
			}
		case "method":
			member = memberMethod
			if v[0] != '"' || !plain(v[1:len(v)-1]) {
				return nil, false
			}
			method = v[1 : len(v)-1]
		case "params":
			member, params = memberParams, v
		case "result":
			member, result = memberResult, v
		case "error":
			return nil, false
		}
		if seen&member != 0 {
			return nil, false // a duplicate: leave its semantics to the go-sdk
		}
		seen |= member
		i = s.space(end)
		if i >= len(line) {
			return nil, false
		}
		if line[i] == '}' {
			i++
			break
		}
		if line[i] != ',' {
			return nil, false
		}
		i = s.space(i + 1)
	}
	if s.space(i) != len(line) || seen&memberJSONRPC == 0 {
		return nil, false
	}
	if seen&memberMethod != 0 {
		return &jsonrpc.Request{ID: id, Method: string(method), Params: params}, true
	}
	if !id.IsValid() {
		return nil, false // the go-sdk's invalid-request error
	}
	return &jsonrpc.Response{ID: id, Result: result}, true
}

// fastID returns the id jsonrpc.MakeID makes of the value the go-sdk decodes
// from v (a float64 for a number), for null, a plain string, or an integer of
// at most maxExactIDDigits digits other than -0 (answered as 0, so left to
// the caller's checks); v is valid JSON.
func fastID(v []byte) (jsonrpc.ID, bool) {
	switch c := v[0]; {
	case c == 'n':
		return jsonrpc.ID{}, true
	case c == '"':
		if !plain(v[1 : len(v)-1]) {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(string(v[1 : len(v)-1]))
		return id, err == nil
	case c == '-' || (c >= '0' && c <= '9'):
		digits := v
		if c == '-' {
			digits = v[1:]
		}
		if len(digits) > maxExactIDDigits || string(v) == "-0" {
			return jsonrpc.ID{}, false
		}
		var n int64
		for _, d := range digits {
			if d < '0' || d > '9' {
				return jsonrpc.ID{}, false // a fraction or an exponent
			}
			n = n*10 + int64(d-'0')
		}
		if c == '-' {
			n = -n
		}
		id, err := jsonrpc.MakeID(float64(n))
		return id, err == nil
	}
	return jsonrpc.ID{}, false
}
