//go:build goexperiment.jsonv2

package stdio

// rawVerbatim is false when encoding/json is built on encoding/json/v2: that
// implementation rewrites raw values (it escapes U+2028 and U+2029, for one),
// so appendFastHead leaves every message to jsonrpc.EncodeMessage.
const rawVerbatim = false
