package search

import (
	"encoding/binary"
)

// postings are the skills holding each word of a wordIndex, compressed:
// a word's skills are the deltas of their positions as uvarints, or, when
// that is larger (a word of more than about one skill in eight), a bitset
// of every position. At 10,000 skills this is about a quarter of the four
// bytes per skill and word of a plain list, and a common word, of which a
// query such as "a" touches thousands, is a few hundred words to OR.
type postings struct {
	data  []byte   // word w's run: data[at[w]:at[w+1]]
	at    []int32  // one per word plus one
	dense []uint64 // the bitsets, each of size words apiece
	size  int      // uint64 words of a bitset
}

// newPostings compresses lists (per word, the positions of the skills
// holding it, ascending) over n skills. A dense word's run is a 0 (no
// uvarint of a delta, which is at least 1, starts so) and the uvarint of its
// bitset's index.
func newPostings(lists [][]int32, n int) postings {
	ps := postings{at: make([]int32, 0, len(lists)+1), size: (n + 63) / 64}
	var bitsets int
	for _, l := range lists {
		ps.at = append(ps.at, int32(len(ps.data)))
		if sparse := uvarintDeltas(l); sparse <= ps.size*8 {
			prev := int32(-1)
			for _, p := range l {
				ps.data = binary.AppendUvarint(ps.data, uint64(p-prev))
				prev = p
			}
			continue
		}
		ps.data = append(ps.data, 0)
		ps.data = binary.AppendUvarint(ps.data, uint64(bitsets))
		bitsets++
		b := make(bitset, ps.size)
		for _, p := range l {
			b.set(p)
		}
		ps.dense = append(ps.dense, b...)
	}
	ps.at = append(ps.at, int32(len(ps.data)))
	ps.data = append(make([]byte, 0, len(ps.data)), ps.data...)
	ps.dense = append(make([]uint64, 0, len(ps.dense)), ps.dense...)
	return ps
}

// uvarintDeltas is the size of l as uvarints of its deltas.
func uvarintDeltas(l []int32) int {
	size, prev := 0, int32(-1)
	for _, p := range l {
		d := uint64(p - prev)
		prev = p
		size++
		for d >= 0x80 {
			d >>= 7
			size++
		}
	}
	return size
}

// addTo adds the skills of word w to h.
func (ps *postings) addTo(h bitset, w int32) {
	run := ps.data[ps.at[w]:ps.at[w+1]]
	if len(run) > 0 && run[0] == 0 {
		k, _ := binary.Uvarint(run[1:])
		for i, x := range ps.dense[int(k)*ps.size : (int(k)+1)*ps.size] {
			h[i] |= x
		}
		return
	}
	p := int32(-1)
	for len(run) > 0 {
		d, n := binary.Uvarint(run)
		run = run[n:]
		p += int32(d)
		h.set(p)
	}
}

// bytes is the memory ps holds, for reports.
func (ps *postings) bytes() int { return len(ps.data) + 4*len(ps.at) + 8*len(ps.dense) }
