//go:build !linux

package sandbox

func enableSubreaper() error    { return nil }
func killOrphans() (int, error) { return 0, nil }
func reapZombies() int          { return 0 }
