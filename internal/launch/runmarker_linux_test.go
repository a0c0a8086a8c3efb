package launch

import "testing"

func TestHasEntry(t *testing.T) {
	tests := []struct {
		name, env string
		want      bool
	}{
		{"only entry", "SKILLS_RUN_ID=ab\x00", true},
		{"among others", "PATH=/bin\x00SKILLS_RUN_ID=ab\x00HOME=/h\x00", true},
		{"another run", "SKILLS_RUN_ID=abc\x00", false},
		{"inside a value", "X=SKILLS_RUN_ID=ab\x00", false},
		{"empty (a zombie, another user's)", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hasEntry([]byte(tt.env), []byte("SKILLS_RUN_ID=ab")); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
