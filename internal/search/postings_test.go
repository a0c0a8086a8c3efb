package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPostingsRoundTrip checks that every word's skills come back from the
// compressed postings, sparse (deltas from position 0 and of more than one
// uvarint byte) and dense alike.
func TestPostingsRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 63, 64, 65, 300, 20000} {
		var lists [][]int32
		for range 60 {
			var l []int32
			share := []int{0, 1, 50, 400, 1000}[rng.IntN(5)] // per thousand
			for p := range int32(n) {
				if rng.IntN(1000) < share {
					l = append(l, p)
				}
			}
			lists = append(lists, l)
		}
		lists = append(lists, []int32{0}, []int32{int32(n - 1)})
		if n > 1 {
			lists = append(lists, []int32{0, int32(n - 1)})
		}
		ps := newPostings(lists, n)
		dense := 0
		for w, l := range lists {
			h := newBitset(n)
			ps.addTo(h, int32(w))
			var got []int32
			h.each(func(p int32) bool { got = append(got, p); return true })
			if !slices.Equal(got, l) {
				t.Fatalf("n=%d word %d: got %v, want %v", n, w, got, l)
			}
			if run := ps.data[ps.at[w]:ps.at[w+1]]; len(run) > 0 && run[0] == 0 {
				dense++
			}
		}
		if n >= 300 && (dense == 0 || dense == len(lists)) {
			t.Errorf("n=%d: %d of %d words dense, want some of each", n, dense, len(lists))
		}
	}
}
