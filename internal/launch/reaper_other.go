//go:build !linux

package launch

func enableSubreaper() error                 { return nil }
func (*Processes) killOrphans() (int, error) { return 0, nil }
func (*Processes) reapZombies() int          { return 0 }
