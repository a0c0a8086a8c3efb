package stdio

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxExactID is the largest integer id magnitude kept exactly: every integer
// up to 2^53 is exact as a float64, which is what the go-sdk decodes it into.
const maxExactID = 1 << 53

// exactID returns the id a response will carry for the raw JSON id v, when it
// is v itself: null, a string, or an integer the go-sdk keeps exactly (it
// decodes a number into a float64 and truncates it to an int64, so 1.5 would
// come back as 1 and a 30-digit id as the int64 minimum). A fraction, an
// exponent, -0, or an integer beyond ±maxExactID reports false:
// such a request is invalid (-32600, id null), never answered with another id.
func exactID(v json.RawMessage) (jsonrpc.ID, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return jsonrpc.ID{}, false
	}
	switch c := v[0]; {
	case c == 'n':
		return jsonrpc.ID{}, string(v) == "null"
	case c == '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(s)
		return id, err == nil
	case c == '-' || (c >= '0' && c <= '9'):
		if string(v) == "-0" {
			return jsonrpc.ID{}, false
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || n > maxExactID || n < -maxExactID {
			return jsonrpc.ID{}, false
		}
		id, err := jsonrpc.MakeID(float64(n))
		return id, err == nil
	}
	return jsonrpc.ID{}, false
}

// idMembers returns the raw values of every top-level "id" member of the JSON
// object line (valid JSON), in order; nil when line is not an object.
func idMembers(line []byte) []json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var ids []json.RawMessage
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ids
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ids
		}
		if key == "id" {
			ids = append(ids, v)
		}
	}
	return ids
}

// CheckID reports why the message line cannot be answered with its own id,
// or "" when it can: an id given twice, or one exactID does not keep.
func CheckID(line []byte) string {
	ids := idMembers(line)
	switch {
	case len(ids) > 1:
		return "Invalid Request: the id member appears more than once"
	case len(ids) == 1:
		if _, ok := exactID(ids[0]); !ok {
			return "Invalid Request: id " + clip(string(ids[0]), 40) +
				" cannot be answered exactly: an id is a string, null, or an integer between -2^53 and 2^53"
		}
	}
	return ""
}

// clip shortens s to n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
