package launch

import "testing"

func TestParseProcStat(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stat      string
		wantState byte
		wantPgrp  int
		wantOK    bool
	}{
		{"plain", "1234 (sleep) S 1 1230 1230 0 -1 4194304", 'S', 1230, true},
		{"zombie", "1234 (sh) Z 1 77 77 0", 'Z', 77, true},
		{"command with spaces and parentheses", "99 (a) b (c)) R 5 42 42 0", 'R', 42, true},
		{"no closing parenthesis", "99 (abc S 5 42", 0, 0, false},
		{"too few fields", "99 (abc) S 5", 0, 0, false},
		{"group not a number", "99 (abc) S 5 x 1", 0, 0, false},
		{"state longer than a letter", "99 (abc) SS 5 42 1", 0, 0, false},
		{"empty", "", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, pgrp, ok := parseProcStat([]byte(tc.stat))
			if state != tc.wantState || pgrp != tc.wantPgrp || ok != tc.wantOK {
				t.Errorf("parseProcStat(%q) = %q, %d, %v; want %q, %d, %v",
					tc.stat, state, pgrp, ok, tc.wantState, tc.wantPgrp, tc.wantOK)
			}
		})
	}
}

func FuzzParseProcStat(f *testing.F) {
	f.Add([]byte("1234 (sleep) S 1 1230 1230 0 -1 4194304"))
	f.Fuzz(func(t *testing.T, data []byte) {
		state, pgrp, ok := parseProcStat(data)
		if !ok && (state != 0 || pgrp != 0) {
			t.Fatalf("parseProcStat(%q) = %q, %d, false; want zero values when not ok", data, state, pgrp)
		}
	})
}
