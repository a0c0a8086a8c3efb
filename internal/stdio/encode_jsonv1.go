//go:build !goexperiment.jsonv2

package stdio

// rawVerbatim reports whether encoding/json writes a compact json.RawMessage
// back byte for byte (with HTML escaping off), which appendFastHead relies on. It
// does in the classic implementation; see stdio_encode_jsonv2.go.
const rawVerbatim = true
