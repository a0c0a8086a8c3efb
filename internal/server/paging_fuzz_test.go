package server

import (
	"testing"
)

// FuzzCursor: any string given as a cursor is refused or read back as the
// position a cursor of the server says, never a panic; the cursors the
// server gives are read back as they were made.
func FuzzCursor(f *testing.F) {
	f.Add("", "", 0, "")
	f.Add("AQ", "skills_list", 3, "data")
	f.Add(positionCursor(skillsListKind, "data", position{index: 7, item: shortHash("x")}), "skills_list", 7, "data")
	f.Add(keyCursor(methodResourcesList, "skill://a/SKILL.md"), "resources/list", 1, "")
	f.Fuzz(func(t *testing.T, cursor, kind string, index int, args string) {
		_, _ = cursorKey(kind, cursor)
		_, _ = cursorPosition(kind, args, cursor)
		if index < 0 || index > 1<<31 {
			return
		}
		p := position{index: index, item: shortHash(cursor)}
		got, err := cursorPosition(kind, args, positionCursor(kind, args, p))
		if err != nil || got != p {
			t.Fatalf("position %+v of %q/%q: read back %+v, %v", p, kind, args, got, err)
		}
		key, err := cursorKey(kind, keyCursor(kind, cursor))
		if err != nil || key != cursor {
			t.Fatalf("key %q of %q: read back %q, %v", cursor, kind, key, err)
		}
		if _, err := cursorKey(kind+"x", keyCursor(kind, cursor)); err == nil {
			t.Fatalf("a cursor of %q read as one of %q", kind, kind+"x")
		}
	})
}
