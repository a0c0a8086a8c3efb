//go:build !unix

package launch

var processGroups = ErrNoProcessGroups
