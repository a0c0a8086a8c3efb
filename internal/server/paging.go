package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
)

// MaxPageBytes bounds one page of the tools whose answer grows with the
// catalogue (skills_list, list_skills): the JSON of a page's structured
// content (its items, and nextCursor) is at most this long, and so is its
// text. A page holds at least one item, so an item alone larger than this
// (skills_list with includeBody and a body near index.max_skill_file_bytes)
// is a page of its own. README "Limits per request".
const MaxPageBytes = 1 << 20

// ctxCheckEvery is how many iterations of a loop over skills or candidates
// run between two checks of the request's context.
const ctxCheckEvery = 256

// Cursors are opaque to clients: base64url of a version byte, a payload and
// a check of both bound to the listing kind (the tool or method), so that a
// cursor the server did not give for that listing (made up, edited, cut,
// or given for another listing) is refused with a clear error instead of
// paging from a wrong place. The check is not keyed: stateless HTTP servers
// behind one load balancer, and a restarted server, must accept each other's
// cursors, and a cursor only says where a listing the client may read whole
// goes on (docs/RATIONALE.md, "Paging cursors").
const (
	cursorVersion   = 1
	cursorCheckSize = 8
	cursorHashSize  = 8
	cursorDomain    = "skills-mcp/cursor\x00"
)

// errInvalidCursor is the error of a cursor that is not one the server gave
// for the listing it is given to.
var errInvalidCursor = errors.New("invalid cursor: not one this server gave for this listing; call again without a cursor to start from the beginning")

// cursorCheck is the check of payload in a cursor of kind.
func cursorCheck(kind string, payload []byte) []byte {
	h := sha256.New()
	h.Write([]byte(cursorDomain))
	h.Write([]byte(kind))
	h.Write([]byte{0, cursorVersion})
	h.Write(payload)
	return h.Sum(nil)[:cursorCheckSize]
}

// sealCursor returns the cursor of kind carrying payload.
func sealCursor(kind string, payload []byte) string {
	b := make([]byte, 0, 1+len(payload)+cursorCheckSize)
	b = append(b, cursorVersion)
	b = append(b, payload...)
	b = append(b, cursorCheck(kind, payload)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// openCursor returns the payload of a cursor of kind, or errInvalidCursor.
func openCursor(kind, cursor string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) < 1+cursorCheckSize || b[0] != cursorVersion {
		return nil, errInvalidCursor
	}
	payload, check := b[1:len(b)-cursorCheckSize], b[len(b)-cursorCheckSize:]
	if !bytes.Equal(check, cursorCheck(kind, payload)) {
		return nil, errInvalidCursor
	}
	return payload, nil
}

// keyCursor is the cursor of a listing sorted by key that goes on after key
// (skills/list, resources/list, prompts/list, resources/directory/read).
func keyCursor(kind, key string) string { return sealCursor(kind, []byte(key)) }

// cursorKey returns the key a cursor of kind goes on after.
func cursorKey(kind, cursor string) (string, error) {
	payload, err := openCursor(kind, cursor)
	return string(payload), err
}

// shortHash is a short digest of s, to bind a cursor to a listing or an item
// without carrying them.
func shortHash(s string) [cursorHashSize]byte {
	sum := sha256.Sum256([]byte(s))
	return [cursorHashSize]byte(sum[:cursorHashSize])
}

// position is where the next page of a tool's listing starts: the index of
// its first item in the listing, and the hash of that item's key, so that a
// listing that changed under the cursor is told apart from one that did not.
type position struct {
	index int
	item  [cursorHashSize]byte
}

// errListingChanged is the error of a cursor whose listing changed since the
// page before was given (a rebuild added or removed items before it).
var errListingChanged = errors.New("the skills changed since the previous page was listed; call again without a cursor to start from the beginning")

// positionCursor is the cursor of kind for the listing of arguments args
// (what the listing is of: a filter, a query) going on at p.
func positionCursor(kind, args string, p position) string {
	listing := shortHash(args)
	payload := binary.AppendUvarint(append([]byte(nil), listing[:]...), uint64(p.index))
	payload = append(payload, p.item[:]...)
	return sealCursor(kind, payload)
}

// cursorPosition returns the position of a cursor of kind given for the
// listing of args.
func cursorPosition(kind, args, cursor string) (position, error) {
	payload, err := openCursor(kind, cursor)
	if err != nil {
		return position{}, err
	}
	listing := shortHash(args)
	if len(payload) < 2*cursorHashSize+1 || !bytes.Equal(payload[:cursorHashSize], listing[:]) {
		return position{}, fmt.Errorf("invalid cursor: it was given for another listing (other arguments); call again with the arguments of the first page, or without a cursor")
	}
	index, n := binary.Uvarint(payload[cursorHashSize:])
	if n <= 0 || index > 1<<31 || len(payload) != cursorHashSize+n+cursorHashSize {
		return position{}, errInvalidCursor
	}
	p := position{index: int(index)}
	copy(p.item[:], payload[cursorHashSize+n:])
	return p, nil
}

// at reports whether p is the position of item key at index i: the listing
// has not changed before it.
func (p position) at(i int, key string) bool { return p.index == i && p.item == shortHash(key) }
