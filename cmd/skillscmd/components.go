package skillscmd

import (
	"time"

	"github.com/hashicorp/go-hclog"
)

// components is serve's start/stop group: its long-lived parts (the file
// watcher, the runners, telemetry, the analytics publisher, the git
// refresher), each recorded as it starts, in dependency order. stop ends
// them in the reverse order, each once, all within one exit deadline (the
// budget of shutdown.go): a part that fails to start leaves the ones before
// it to stop, and the events reach their buffer before telemetry exports
// its last spans because analytics starts after telemetry.
type components struct {
	parts []component
}

// component is one started part and how it ends.
type component struct {
	name string
	stop func(deadline time.Time)
}

// started records a part that is running; stop ends it by the deadline.
func (g *components) started(name string, stop func(deadline time.Time)) {
	g.parts = append(g.parts, component{name: name, stop: stop})
}

// stop ends every started part, the last started first, and forgets them:
// a second call does nothing.
func (g *components) stop(deadline time.Time, log hclog.Logger) {
	for i := len(g.parts) - 1; i >= 0; i-- {
		log.Debug("stopping", "component", g.parts[i].name)
		g.parts[i].stop(deadline)
	}
	g.parts = nil
}
