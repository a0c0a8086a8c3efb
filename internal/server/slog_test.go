package server

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// TestSDKLoggerLowersInfo: the go-sdk's INFO records (session lifecycle) are
// DEBUG lines; its warnings stay warnings; the handler without the lowering
// keeps every level.
func TestSDKLoggerLowersInfo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		level    hclog.Level
		sdk      bool
		wantInfo string // what the INFO record gives: "" for nothing
		wantWarn string
	}{
		{"sdk at info", hclog.Info, true, "", "[WARN]"},
		{"sdk at debug", hclog.Debug, true, "[DEBUG]", "[WARN]"},
		{"plain at info", hclog.Info, false, "[INFO]", "[WARN]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := hclog.New(&hclog.LoggerOptions{Output: &buf, Level: tt.level})
			l := slog.New(&hclogHandler{log: log})
			if tt.sdk {
				l = newSDKLogger(log)
			}
			l.Info("server session connected", "session_id", "abc")
			got := buf.String()
			buf.Reset()
			if tt.wantInfo == "" && got != "" {
				t.Errorf("INFO record logged %q, want nothing", got)
			}
			if tt.wantInfo != "" && (!strings.Contains(got, tt.wantInfo) || !strings.Contains(got, "session_id=abc")) {
				t.Errorf("INFO record logged %q, want a %s line with its session_id", got, tt.wantInfo)
			}
			l.Warn("something odd")
			if got := buf.String(); !strings.Contains(got, tt.wantWarn) {
				t.Errorf("WARN record logged %q, want a %s line", got, tt.wantWarn)
			}
		})
	}
}
