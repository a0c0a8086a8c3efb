package search

import "sync"

// bitsets hands out the bitsets of one query from pooled memory (a query
// needs a few per token: the skills and the vocabulary words holding it, 5 KB
// at 10,000 skills), so that a search allocates none once warm; free hands
// the memory back once the query's bitsets are no longer used.
type bitsets struct{ buf []uint64 }

var bitsetPool = sync.Pool{New: func() any { return new(bitsets) }}

// maxPooledBitsets bounds the memory a pooled bitsets keeps (1 MB).
const maxPooledBitsets = 1 << 17

func getBitsets() *bitsets { return bitsetPool.Get().(*bitsets) }

// get returns an empty bitset of n members.
func (a *bitsets) get(n int) bitset {
	k := (n + 63) / 64
	if len(a.buf)+k > cap(a.buf) {
		// The bitsets handed out so far keep the old memory.
		a.buf = make([]uint64, 0, max(2*cap(a.buf), k, 1024))
	}
	b := a.buf[len(a.buf) : len(a.buf)+k : len(a.buf)+k]
	a.buf = a.buf[:len(a.buf)+k]
	clear(b)
	return b
}

// free returns a to the pool; no bitset it handed out may be used after.
func (a *bitsets) free() {
	if cap(a.buf) > maxPooledBitsets {
		return
	}
	a.buf = a.buf[:0]
	bitsetPool.Put(a)
}
