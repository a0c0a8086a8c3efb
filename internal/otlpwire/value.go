package otlpwire

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"

	"go.opentelemetry.io/otel/attribute"
	"google.golang.org/protobuf/encoding/protowire"
)

// AnyValue field numbers (opentelemetry/proto/common/v1).
const (
	anyString = 1
	anyBool   = 2
	anyInt    = 3
	anyDouble = 4
	anyArray  = 5
	anyKVList = 6
	anyBytes  = 7
)

// KeyValue is an attribute whose value is any JSON-like Go value: nil, a
// string, a bool, an integer, a float, []any, map[string]any, or a slice or
// map of those; other values are written as their fmt form.
type KeyValue struct {
	Key   string
	Value any
}

// appendKV appends a KeyValue message as field.
func (b buf) kv(field protowire.Number, key string, value any) buf {
	var inner buf
	inner = inner.str(1, key)
	inner = inner.msg(2, anyValue(value))
	return b.msg(field, inner)
}

// anyValue encodes an AnyValue. nil is the empty AnyValue (null).
func anyValue(v any) []byte {
	var b buf
	switch x := v.(type) {
	case nil:
		return []byte{}
	case string:
		b = appendString(b, x)
	case bool:
		b = appendBool(b, x)
	case int:
		b = appendInt(b, int64(x))
	case int64:
		b = appendInt(b, x)
	case int32:
		b = appendInt(b, int64(x))
	case uint32:
		b = appendInt(b, int64(x))
	case float64:
		b = appendDouble(b, x)
	case float32:
		b = appendDouble(b, float64(x))
	case json.Number:
		if i, err := x.Int64(); err == nil {
			b = appendInt(b, i)
		} else if f, err := x.Float64(); err == nil {
			b = appendDouble(b, f)
		} else {
			b = appendString(b, x.String())
		}
	case []byte:
		b = b.msg(anyBytes, x)
	case []any:
		var arr buf
		for _, e := range x {
			arr = arr.msg(1, anyValue(e))
		}
		b = b.msg(anyArray, arr)
	case map[string]any:
		b = b.msg(anyKVList, kvList(x))
	case []string:
		var arr buf
		for _, e := range x {
			arr = arr.msg(1, anyValue(e))
		}
		b = b.msg(anyArray, arr)
	case attribute.Value:
		return attrValue(x)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array:
			var arr buf
			for i := range rv.Len() {
				arr = arr.msg(1, anyValue(rv.Index(i).Interface()))
			}
			b = b.msg(anyArray, arr)
		case reflect.Map:
			if rv.Type().Key().Kind() == reflect.String {
				m := make(map[string]any, rv.Len())
				for it := rv.MapRange(); it.Next(); {
					m[it.Key().String()] = it.Value().Interface()
				}
				b = b.msg(anyKVList, kvList(m))
				break
			}
			b = appendString(b, fmt.Sprint(v))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			b = appendInt(b, rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			u := rv.Uint()
			if u > math.MaxInt64 {
				b = appendDouble(b, float64(u))
			} else {
				b = appendInt(b, int64(u))
			}
		case reflect.Pointer, reflect.Interface:
			if rv.IsNil() {
				return []byte{}
			}
			return anyValue(rv.Elem().Interface())
		default:
			b = appendString(b, fmt.Sprint(v))
		}
	}
	return b
}

// kvList encodes a KeyValueList, keys sorted so the bytes are stable.
func kvList(m map[string]any) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b buf
	for _, k := range keys {
		b = b.kv(1, k, m[k])
	}
	return b
}

// attrValue encodes an OpenTelemetry attribute value.
func attrValue(v attribute.Value) []byte {
	var b buf
	switch v.Type() {
	case attribute.BOOL:
		b = appendBool(b, v.AsBool())
	case attribute.INT64:
		b = appendInt(b, v.AsInt64())
	case attribute.FLOAT64:
		b = appendDouble(b, v.AsFloat64())
	case attribute.STRING:
		b = appendString(b, v.AsString())
	case attribute.BOOLSLICE:
		return anyValue(toAny(v.AsBoolSlice()))
	case attribute.INT64SLICE:
		return anyValue(toAny(v.AsInt64Slice()))
	case attribute.FLOAT64SLICE:
		return anyValue(toAny(v.AsFloat64Slice()))
	case attribute.STRINGSLICE:
		return anyValue(toAny(v.AsStringSlice()))
	default:
		b = appendString(b, v.String())
	}
	return b
}

func toAny[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// attrs appends OpenTelemetry attributes as repeated KeyValue field.
func (b buf) attrs(field protowire.Number, kvs []attribute.KeyValue) buf {
	for _, kv := range kvs {
		var inner buf
		inner = inner.str(1, string(kv.Key))
		inner = inner.msg(2, attrValue(kv.Value))
		b = b.msg(field, inner)
	}
	return b
}

// The scalar AnyValue cases write their field even for zero values: an
// AnyValue of "" or false or 0 is not null.
func appendString(b buf, s string) buf {
	return b.msg(anyString, []byte(s))
}

func appendBool(b buf, v bool) buf {
	b = appendTagVarint(b, anyBool)
	if v {
		return appendRawVarint(b, 1)
	}
	return appendRawVarint(b, 0)
}

func appendInt(b buf, v int64) buf {
	b = appendTagVarint(b, anyInt)
	return appendRawVarint(b, uint64(v))
}

func appendDouble(b buf, v float64) buf { return b.double(anyDouble, v) }
