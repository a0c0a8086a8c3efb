package keyword

import "math"

// scoreBucket maps scores to bucket numbers for one search: an open-addressing
// table keyed by the bits of the score, cheaper than a map for the thousands
// of lookups of a broad query. Keys follow cmp.Compare equality: -0 is 0 and
// every NaN is one key.
type scoreBucket struct {
	keys []uint64
	vals []int32 // bucket + 1; 0 marks a free slot
	mask uint64
}

// canonicalNaN is the key of every NaN score.
var canonicalNaN = math.Float64bits(math.NaN())

// reset empties the table and sizes it for up to n distinct scores.
func (t *scoreBucket) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if size > len(t.keys) {
		t.keys, t.vals = make([]uint64, size), make([]int32, size)
	} else {
		t.keys, t.vals = t.keys[:size], t.vals[:size]
		clear(t.vals)
	}
	t.mask = uint64(size - 1)
}

// find returns the bucket of score; when the score is new it records next as
// its bucket and reports added.
func (t *scoreBucket) find(score float64, next int32) (bucket int32, added bool) {
	key := math.Float64bits(score)
	switch {
	case score != score:
		key = canonicalNaN
	case score == 0:
		key = 0 // -0 and 0 compare equal
	}
	for i := (key * 0x9E3779B97F4A7C15 >> 32) & t.mask; ; i = (i + 1) & t.mask {
		switch {
		case t.vals[i] == 0:
			t.keys[i], t.vals[i] = key, next+1
			return next, true
		case t.keys[i] == key:
			return t.vals[i] - 1, false
		}
	}
}
