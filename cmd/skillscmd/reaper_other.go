//go:build !unix

package skillscmd

import "os"

// childEnded is empty where there is no SIGCHLD: nothing is reaped there.
var childEnded []os.Signal
