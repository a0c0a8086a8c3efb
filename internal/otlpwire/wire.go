package otlpwire

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// buf appends protobuf fields. Nested messages are written into a scratch
// buffer and appended with their length.
type buf []byte

func (b buf) str(field protowire.Number, s string) buf {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func (b buf) bytes(field protowire.Number, p []byte) buf {
	if len(p) == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, p)
}

// msg appends a nested message, even an empty one (an empty AnyValue means null).
func (b buf) msg(field protowire.Number, body []byte) buf {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

func (b buf) varint(field protowire.Number, v uint64) buf {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func (b buf) fixed64(field protowire.Number, v uint64) buf {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func (b buf) fixed32(field protowire.Number, v uint32) buf {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, field, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, v)
}

// double appends a double even when it is zero (for optional fields).
func (b buf) double(field protowire.Number, v float64) buf {
	b = protowire.AppendTag(b, field, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(v))
}

// packedFixed64 appends a packed repeated fixed64 or double field.
func (b buf) packedFixed64(field protowire.Number, vs []uint64) buf {
	if len(vs) == 0 {
		return b
	}
	var inner []byte
	for _, v := range vs {
		inner = protowire.AppendFixed64(inner, v)
	}
	return b.msg(field, inner)
}

func appendTagVarint(b buf, field int) buf {
	return protowire.AppendTag(b, protowire.Number(field), protowire.VarintType)
}

func appendRawVarint(b buf, v uint64) buf { return protowire.AppendVarint(b, v) }

// appendTagFixed64 appends a fixed64 field even when it is zero.
func appendTagFixed64(b buf, field int, v uint64) buf {
	b = protowire.AppendTag(b, protowire.Number(field), protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}
