//go:build unix && !linux

package launch

func groupAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	return groupSignalable(pid)
}
