package server

import (
	"context"
	"maps"
	"sync"

	"github.com/skills-mcp/skills-mcp/core"
)

// usageCounter counts the skills served since the server started (get_skill,
// a prompt, the skill tool), so a catalogue too large to list names the
// most used first. It keeps counts only, in memory, whether analytics is
// enabled or not: nothing leaves the process.
type usageCounter struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts one serving of the skill at path.
func (u *usageCounter) add(path string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.n == nil {
		u.n = map[string]int{}
	}
	u.n[path]++
}

// counts returns a copy of the counts.
func (u *usageCounter) counts() map[string]int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return maps.Clone(u.n)
}

// counting returns t counting every skill_served event into u; the result
// is a core.Recorder (recording through t when t is one).
func (u *usageCounter) counting(t core.Tracker) core.Tracker {
	return countingTracker{inner: t, usage: u}
}

// countingTracker is a Tracker that counts skill_served events on their way.
type countingTracker struct {
	inner core.Tracker
	usage *usageCounter
}

var _ core.Recorder = countingTracker{}

// Track implements core.Tracker.
func (c countingTracker) Track(eventType string, data map[string]any) {
	c.note(eventType, data)
	c.inner.Track(eventType, data)
}

// Record implements core.Recorder: through the inner tracker's Record when
// it has one, else its Track (what a caller would do without a Recorder).
func (c countingTracker) Record(ctx context.Context, eventType string, data map[string]any) error {
	c.note(eventType, data)
	if r, ok := c.inner.(core.Recorder); ok {
		return r.Record(ctx, eventType, data)
	}
	c.inner.Track(eventType, data)
	return nil
}

func (c countingTracker) note(eventType string, data map[string]any) {
	if eventType != core.EventSkillServed {
		return
	}
	if p, ok := data["skill_path"].(string); ok {
		c.usage.add(p)
	}
}
