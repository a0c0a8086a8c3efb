package cursor

import (
	"errors"
	"slices"
	"testing"
)

// TestPage: a key listing goes on after the key its cursor names, so a page
// neither repeats nor skips an item that stays when items come and go
// between pages; a cursor of another listing is ErrInvalid.
func TestPage(t *testing.T) {
	t.Parallel()
	id := func(s string) string { return s }
	items := []string{"a", "b", "c", "d", "e"}
	first, next, err := Page(items, id, "k", "", 2)
	if err != nil || !slices.Equal(first, []string{"a", "b"}) || next == "" {
		t.Fatalf("first page: got %v, %q, %v", first, next, err)
	}
	for _, tt := range []struct {
		name     string
		items    []string
		cursor   string
		want     []string
		wantNext bool
		wantErr  error
	}{
		{name: "unchanged", items: items, cursor: next, want: []string{"c", "d"}, wantNext: true},
		{name: "the last item seen removed", items: []string{"a", "c", "d", "e"}, cursor: next, want: []string{"c", "d"}, wantNext: true},
		{name: "an item added before the cursor", items: []string{"a", "aa", "b", "c", "d"}, cursor: next, want: []string{"c", "d"}},
		{name: "last page", items: items, cursor: Key("k", "d"), want: []string{"e"}},
		{name: "another listing's", items: items, cursor: Key("other", "b"), wantErr: ErrInvalid},
		{name: "made up", items: items, cursor: "Zm9v", wantErr: ErrInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, next, err := Page(tt.items, id, "k", tt.cursor, 2)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got error %v, want %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) || (next != "") != tt.wantNext {
				t.Errorf("got %v, next %q, want %v (a next page: %v)", got, next, tt.want, tt.wantNext)
			}
		})
	}
}
