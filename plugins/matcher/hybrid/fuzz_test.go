package hybrid

import (
	"math"
	"reflect"
	"testing"
)

// FuzzDecodeResponse: whatever the endpoint answers, the decoder returns
// either an error or exactly n vectors of one length, every value finite.
func FuzzDecodeResponse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		vecs, err := decodeResponse(data, int(n))
		if err != nil {
			return
		}
		if len(vecs) != int(n) {
			t.Fatalf("%d vectors for %d inputs", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) == 0 || len(v) != len(vecs[0]) || len(v) > maxDimension {
				t.Fatalf("vector of %d values among vectors of %d", len(v), len(vecs[0]))
			}
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatalf("value %v is not finite", x)
				}
			}
		}
	})
}

// FuzzDecodeVector: a cache file either decodes to finite values that encode
// back to the same bytes, or is a miss.
func FuzzDecodeVector(f *testing.F) {
	f.Add(encodeVector([]float32{1, -0.5, 0}))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decodeVector(data)
		if err != nil {
			return
		}
		if got := encodeVector(v); !reflect.DeepEqual(got, data) {
			t.Fatalf("decode then encode changed %x into %x", data, got)
		}
	})
}
