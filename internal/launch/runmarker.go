package launch

import (
	"crypto/rand"
	"encoding/hex"
)

// RunMarkerEnv names the environment variable that marks every process of
// one script run: it is inherited through fork, setsid and double forks, so
// the leftovers of a run are found by it after they left its process group.
const RunMarkerEnv = "SKILLS_RUN_ID"

// NewRunMarker returns a RunMarkerEnv=value entry unique to one run, to add
// to the script's environment and give to KillMarked once the script ended.
func NewRunMarker() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return RunMarkerEnv + "=" + hex.EncodeToString(b[:])
}

// KillMarked kills (SIGKILL) every process whose environment holds marker,
// an entry of NewRunMarker: the processes a run started that escaped its
// process group (setsid, a double fork) and would outlive it (issue 16, item
// 9). It reaps those that are children of this process (a subreaper's, or
// PID 1's). It returns how many processes it killed. A process that cleared
// its environment (env -i) is not found; where /proc does not exist it does
// nothing.
func KillMarked(marker string) (int, error) { return killMarked(marker) }
