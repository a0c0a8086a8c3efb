package cursor

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// Cursors are base64url of a version byte, a payload and a check of both
// bound to the listing kind (the tool or method). The check is not keyed:
// stateless HTTP servers behind one load balancer, and a restarted server,
// must accept each other's cursors, and a cursor only says where a listing
// the client may read whole goes on (docs/RATIONALE.md, "Paging cursors").
const (
	version   = 1
	checkSize = 8
	hashSize  = 8
	domain    = "skills-mcp/cursor\x00"
)

// ErrInvalid is the error of a cursor that is not one the server gave for
// the listing it is given to.
var ErrInvalid = errors.New("invalid cursor: not one this server gave for this listing; call again without a cursor to start from the beginning")

// ErrListingChanged is the error of a cursor whose listing changed since the
// page before was given (a rebuild added or removed items before it).
var ErrListingChanged = errors.New("the skills changed since the previous page was listed; call again without a cursor to start from the beginning")

// check is the check of payload in a cursor of kind.
func check(kind string, payload []byte) []byte {
	h := sha256.New()
	h.Write([]byte(domain))
	h.Write([]byte(kind))
	h.Write([]byte{0, version})
	h.Write(payload)
	return h.Sum(nil)[:checkSize]
}

// seal returns the cursor of kind carrying payload.
func seal(kind string, payload []byte) string {
	b := make([]byte, 0, 1+len(payload)+checkSize)
	b = append(b, version)
	b = append(b, payload...)
	b = append(b, check(kind, payload)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// open returns the payload of a cursor of kind, or ErrInvalid.
func open(kind, cursor string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) < 1+checkSize || b[0] != version {
		return nil, ErrInvalid
	}
	payload, sum := b[1:len(b)-checkSize], b[len(b)-checkSize:]
	if !bytes.Equal(sum, check(kind, payload)) {
		return nil, ErrInvalid
	}
	return payload, nil
}

// Key is the cursor of a listing of kind sorted by key that goes on after
// key.
func Key(kind, key string) string { return seal(kind, []byte(key)) }

// KeyOf returns the key a cursor of kind goes on after, or ErrInvalid.
func KeyOf(kind, cursor string) (string, error) {
	payload, err := open(kind, cursor)
	return string(payload), err
}

// Page returns the page of items (sorted by key) of a listing of kind (the
// method, and what it lists) after cursor: up to size items whose key is
// greater than the one the cursor names, and the cursor of the next page
// ("" after the last). A cursor that is not one the server gave for kind is
// ErrInvalid.
func Page[T any](items []T, key func(T) string, kind, cursor string, size int) ([]T, string, error) {
	start := 0
	if cursor != "" {
		last, err := KeyOf(kind, cursor)
		if err != nil {
			return nil, "", err
		}
		start = sort.Search(len(items), func(i int) bool { return key(items[i]) > last })
	}
	end := min(start+size, len(items))
	next := ""
	if end < len(items) {
		next = Key(kind, key(items[end-1]))
	}
	return items[start:end], next, nil
}

// shortHash is a short digest of s, to bind a cursor to a listing or an item
// without carrying them.
func shortHash(s string) [hashSize]byte {
	sum := sha256.Sum256([]byte(s))
	return [hashSize]byte(sum[:hashSize])
}

// Position is where the next page of a tool's listing starts: the index of
// its first item in the listing, and the hash of that item's key, so that a
// listing that changed under the cursor is told apart from one that did not.
type Position struct {
	// Index is the index of the page's first item in the listing.
	Index int
	item  [hashSize]byte
}

// At is the position of the item of key at index i.
func At(i int, key string) Position { return Position{Index: i, item: shortHash(key)} }

// Is reports whether p is the position of the item of key at index i: the
// listing has not changed before it.
func (p Position) Is(i int, key string) bool { return p.Index == i && p.item == shortHash(key) }

// Cursor is the cursor of kind for the listing of arguments args (what the
// listing is of: a filter, a query) going on at p.
func (p Position) Cursor(kind, args string) string {
	listing := shortHash(args)
	payload := binary.AppendUvarint(append([]byte(nil), listing[:]...), uint64(p.Index))
	payload = append(payload, p.item[:]...)
	return seal(kind, payload)
}

// PositionOf returns the position of a cursor of kind given for the listing
// of args.
func PositionOf(kind, args, cursor string) (Position, error) {
	payload, err := open(kind, cursor)
	if err != nil {
		return Position{}, err
	}
	listing := shortHash(args)
	if len(payload) < 2*hashSize+1 || !bytes.Equal(payload[:hashSize], listing[:]) {
		return Position{}, fmt.Errorf("invalid cursor: it was given for another listing (other arguments); call again with the arguments of the first page, or without a cursor")
	}
	index, n := binary.Uvarint(payload[hashSize:])
	if n <= 0 || index > 1<<31 || len(payload) != hashSize+n+hashSize {
		return Position{}, ErrInvalid
	}
	p := Position{Index: int(index)}
	copy(p.item[:], payload[hashSize+n:])
	return p, nil
}
