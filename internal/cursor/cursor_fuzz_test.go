package cursor

import (
	"testing"
)

// FuzzCursor: any string given as a cursor is refused or read back as the
// position a cursor of the server says, never a panic; the cursors the
// server gives are read back as they were made.
func FuzzCursor(f *testing.F) {
	f.Add("", "", 0, "")
	f.Add("AQ", "skills_list", 3, "data")
	f.Add(At(7, "x").Cursor("skills_list", "data"), "skills_list", 7, "data")
	f.Add(Key("resources/list", "skill://a/SKILL.md"), "resources/list", 1, "")
	f.Fuzz(func(t *testing.T, cursor, kind string, index int, args string) {
		_, _ = KeyOf(kind, cursor)
		_, _ = PositionOf(kind, args, cursor)
		if index < 0 || index > 1<<31 {
			return
		}
		p := At(index, cursor)
		got, err := PositionOf(kind, args, p.Cursor(kind, args))
		if err != nil || got != p {
			t.Fatalf("position %+v of %q/%q: read back %+v, %v", p, kind, args, got, err)
		}
		key, err := KeyOf(kind, Key(kind, cursor))
		if err != nil || key != cursor {
			t.Fatalf("key %q of %q: read back %q, %v", cursor, kind, key, err)
		}
		if _, err := KeyOf(kind+"x", Key(kind, cursor)); err == nil {
			t.Fatalf("a cursor of %q read as one of %q", kind, kind+"x")
		}
	})
}
