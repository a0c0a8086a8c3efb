package launch

// A Confinement's public face is sandbox.Confinement, a struct wrapping one
// so that runner authors get NewConfinement and Available without every
// method here. Package sandbox imports this one, so it installs the two
// conversions at init (SetPublic); the server's own code (runners/exec,
// the command) crosses between the two through Public and FromPublic.
var public struct {
	wrap   func(*Confinement) any
	unwrap func(any) *Confinement
}

// SetPublic installs the conversions to and from *sandbox.Confinement;
// package sandbox calls it at init.
func SetPublic(wrap func(*Confinement) any, unwrap func(any) *Confinement) {
	public.wrap, public.unwrap = wrap, unwrap
}

// Public returns c as a *sandbox.Confinement (in an any), for a runner
// option that takes the public type.
func Public(c *Confinement) any { return public.wrap(c) }

// FromPublic returns the Confinement a *sandbox.Confinement wraps; nil for
// a nil one.
func FromPublic(p any) *Confinement { return public.unwrap(p) }
