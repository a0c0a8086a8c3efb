//go:build linux

package skillscmd

import "testing"

func TestBlankValues(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"one", "GITHUB_TOKEN=ghp_x\x00", "GITHUB_TOKEN=\x00\x00\x00\x00\x00\x00"},
		{"two", "A=1\x00B=xy\x00", "A=\x00\x00B=\x00\x00\x00"},
		{"equals in value", "K=a=b\x00", "K=\x00\x00\x00\x00"},
		{"empty value", "K=\x00", "K=\x00"},
		{"leading equals", "=C:=x\x00", "=C:=\x00\x00"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(blankValues([]byte(tt.in))); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
