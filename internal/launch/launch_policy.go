package launch

import (
	"encoding/json"
	"fmt"
	"io"
)

// LauncherArg0 is the argv[0] with which an executable linking this package
// acts as the launcher of a confined script instead of doing its own job:
// the package's init reads the run's policy from file descriptor 3,
// confines the process and executes the script's program (Linux only;
// elsewhere it reports that confinement is unavailable). Nobody starts a
// program under that name by accident, and a test binary linking this
// package is a launcher too, so tests of runners need no set-up.
const LauncherArg0 = "skills-mcp-confine"

// The file descriptors the launcher is given: the policy to read, and where
// to write why it could not confine itself (closed on exec, so the server
// reads nothing when the program started).
const (
	policyFD = 3
	reportFD = 4
	cwdFD    = 5 // the working directory, when the policy says CwdFD
)

// launcherFailed is the launcher's exit status when it could not confine
// itself or execute the program; its report says why.
const launcherFailed = 126

// probeAnswer is what a launcher prints once it confined itself for a
// probe: a program that is not a launcher never says it.
const probeAnswer = "skills-mcp-confine: confined"

// maxPolicyBytes bounds the policy the launcher reads.
const maxPolicyBytes = 1 << 20

// launchPolicy is what the server tells the launcher: everything it needs
// to confine itself and execute the program, as JSON on policyFD.
type launchPolicy struct {
	// Probe: confine, then exit 0 instead of executing a program.
	Probe bool `json:"probe,omitempty"`
	// Program is the absolute path to execute, Argv its arguments (argv[0]
	// included) and Env its whole environment.
	Program string   `json:"program,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	Env     []string `json:"env,omitempty"`
	// ReadOnly are the files and directories the program may read and
	// execute; missing ones are skipped.
	ReadOnly []string `json:"read_only"`
	// ReadWrite are the files and directories it may also write.
	ReadWrite []string `json:"read_write"`
	// CwdFD: the working directory is cwdFD, to enter and grant read-write.
	CwdFD bool `json:"cwd_fd,omitempty"`
	// DenyNetwork handles TCP bind and connect (and UDP where the kernel
	// can) with no port allowed; the network namespace does the rest.
	DenyNetwork bool `json:"deny_network"`
	// DataBytes is RLIMIT_DATA, Processes RLIMIT_NPROC.
	DataBytes uint64 `json:"data_bytes"`
	Processes uint64 `json:"processes"`
}

func readPolicy(r io.Reader) (launchPolicy, error) {
	var p launchPolicy
	data, err := io.ReadAll(io.LimitReader(r, maxPolicyBytes+1))
	if err != nil {
		return p, fmt.Errorf("reading the policy: %w", err)
	}
	if len(data) > maxPolicyBytes {
		return p, fmt.Errorf("reading the policy: longer than %d bytes", maxPolicyBytes)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("decoding the policy: %w", err)
	}
	if !p.Probe && (p.Program == "" || len(p.Argv) == 0) {
		return p, fmt.Errorf("the policy names no program")
	}
	if p.DataBytes == 0 || p.Processes == 0 {
		return p, fmt.Errorf("the policy sets no memory or process bound")
	}
	return p, nil
}
