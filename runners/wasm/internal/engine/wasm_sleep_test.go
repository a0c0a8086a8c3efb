package engine

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

func TestSleepUntilDone(t *testing.T) {
	tests := []struct {
		name     string
		sleep    time.Duration
		cancelAt time.Duration // 0: never
		want     time.Duration
	}{
		{"sleeps its time", 3 * time.Second, 0, 3 * time.Second},
		{"wakes when the run ends", 10 * time.Second, time.Second, time.Second},
		{"short sleep before the end", time.Second, 5 * time.Second, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.cancelAt > 0 {
					timer := time.AfterFunc(tt.cancelAt, cancel)
					defer timer.Stop()
				}
				start := time.Now()

				sleepUntilDone(ctx)(int64(tt.sleep))

				if got := time.Since(start); got != tt.want {
					t.Errorf("slept %v on the bubble's clock, want %v", got, tt.want)
				}
			})
		})
	}
}
