package index

import "testing"

func TestSectionHeader(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"_root", "GLOBAL RULES"},
		{"ui/_index", "UI"},
		{"ui/react/_index", "UI > REACT"},
		{"ui/react/auth", "UI > REACT > AUTH"},
		{"no-inherit", "NO-INHERIT"},
		{"a b/c\t d", "A B > C D"},
		{"ui/_index_extra", "UI > _INDEX_EXTRA"},
		{"ui/_root", "UI > _ROOT"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := sectionHeader(tt.path); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestContent renders the example tree of spec 000 §6.2 byte for byte.
func TestContent(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":           skillMD("root", "", "\nGlobal rules\n\n"),
		"ui/_index.md":       skillMD("ui", "", "UI rules"),
		"ui/react/_index.md": skillMD("react", "", "  React rules\n  more\n"),
		"ui/react/auth.md":   skillMD("auth", "", "\r\n\r\nAuth rules\r\n"),
		"ui/react/solo.md":   skillMD("solo", "inherit: false\n", "\n  Solo only  \n"),
		"orphan/deep/x.md":   skillMD("x", "", "X rules"),
		"ui/react/forms.md":  skillMD("forms", "", ""),
	})
	sn, _ := mustBuild(t, root)
	tests := []struct{ path, want string }{
		{"_root", "=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules"},
		{"ui/_index", "=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n=== UI (from ui/_index.md) ===\n\nUI rules"},
		{"ui/react/auth", "=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n" +
			"=== UI (from ui/_index.md) ===\n\nUI rules\n\n" +
			"=== UI > REACT (from ui/react/_index.md) ===\n\nReact rules\n  more\n\n" +
			"=== UI > REACT > AUTH (from ui/react/auth.md) ===\n\nAuth rules"},
		{"ui/react/solo", "Solo only"},
		{"orphan/deep/x", "=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n=== ORPHAN > DEEP > X (from orphan/deep/x.md) ===\n\nX rules"},
		{"ui/react/forms", "=== GLOBAL RULES (from _root.md) ===\n\nGlobal rules\n\n" +
			"=== UI (from ui/_index.md) ===\n\nUI rules\n\n" +
			"=== UI > REACT (from ui/react/_index.md) ===\n\nReact rules\n  more\n\n" +
			"=== UI > REACT > FORMS (from ui/react/forms.md) ===\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s := mustGet(t, sn, tt.path)
			if got := mustContent(t, sn, s); got != tt.want {
				t.Errorf("got %q,\nwant %q", got, tt.want)
			}
			if got := sn.ContentLen(s); got != len(tt.want) {
				t.Errorf("ContentLen: got %d, want %d", got, len(tt.want))
			}
		})
	}
}

func TestChain(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"_root.md":           skillMD("root", "", ""),
		"ui/_index.md":       skillMD("ui", "inherit: false\n", ""),
		"ui/react/_index.md": skillMD("react", "", ""),
		"ui/react/auth.md":   skillMD("auth", "", ""),
		"ui/react/solo.md":   skillMD("solo", "inherit: false\n", ""),
	})
	sn, _ := mustBuild(t, root)
	tests := []struct {
		path string
		want []string
	}{
		{"_root", []string{"_root"}},
		{"ui/_index", []string{"ui/_index"}},
		{"ui/react/auth", []string{"_root", "ui/_index", "ui/react/_index", "ui/react/auth"}},
		{"ui/react/solo", []string{"ui/react/solo"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			chain := sn.Chain(mustGet(t, sn, tt.path))
			got := make([]string, len(chain))
			for i, s := range chain {
				got[i] = s.Path
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %q, want %q", got, tt.want)
				}
			}
		})
	}
}
