//go:build !unix

package engine

import experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

// platformOpenFlag adds nothing where the platform has no O_DIRECTORY or O_DSYNC.
func platformOpenFlag(experimentalsys.Oflag) int { return 0 }
