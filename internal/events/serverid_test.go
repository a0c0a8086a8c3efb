package events_test

import (
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/events"
)

func TestServerIDFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{name: "USER", env: map[string]string{"USER": "alice"}, want: "dev-alice"},
		{name: "USERNAME only", env: map[string]string{"USERNAME": "bob"}, want: "dev-bob"},
		{name: "USER wins over USERNAME", env: map[string]string{"USER": "alice", "USERNAME": "bob"}, want: "dev-alice"},
		{name: "empty USER falls back to USERNAME", env: map[string]string{"USER": "", "USERNAME": "bob"}, want: "dev-bob"},
		{name: "neither", env: map[string]string{}, want: "dev-unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := events.ServerIDFromEnv(func(k string) string { return tt.env[k] })
			if got != tt.want {
				t.Errorf("ServerIDFromEnv = %q, want %q", got, tt.want)
			}
		})
	}
}
