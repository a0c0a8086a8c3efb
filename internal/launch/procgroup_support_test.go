package launch

import (
	"errors"
	"runtime"
	"testing"
)

func TestProcessGroups(t *testing.T) {
	err := ProcessGroups()
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd", "dragonfly", "solaris", "illumos", "aix":
		if err != nil {
			t.Errorf("ProcessGroups() on %s = %v, want nil", runtime.GOOS, err)
		}
	default:
		if !errors.Is(err, ErrNoProcessGroups) {
			t.Errorf("ProcessGroups() on %s = %v, want ErrNoProcessGroups", runtime.GOOS, err)
		}
	}
}
