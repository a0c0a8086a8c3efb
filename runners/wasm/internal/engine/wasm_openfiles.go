package engine

import (
	"sync"
	"sync/atomic"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// MaxOpenFiles bounds the files a guest holds open at once in one run, all
// its mounts together. Beyond it an open fails with EAGAIN (wazero has no
// EMFILE to give): a guest that opens without closing could
// otherwise take every descriptor of the host (issue 16, item 8: 5,000 opens
// took the server from 9 to 4,950 descriptors).
const MaxOpenFiles = 256

// openBudget counts the files a run's guest holds open.
type openBudget struct {
	open  atomic.Int64
	limit int64
}

// take reserves one open file, or reports EAGAIN when the run holds limit.
func (b *openBudget) take() experimentalsys.Errno {
	if b == nil {
		return 0
	}
	if b.open.Add(1) > b.limit {
		b.open.Add(-1)
		return experimentalsys.EAGAIN
	}
	return 0
}

// release returns one open file to the budget.
func (b *openBudget) release() {
	if b != nil {
		b.open.Add(-1)
	}
}

// budgetFile gives its budget slot back once, on the first Close.
type budgetFile struct {
	experimentalsys.File
	once   sync.Once
	budget *openBudget
}

// Close implements experimentalsys.File.
func (f *budgetFile) Close() experimentalsys.Errno {
	errno := f.File.Close()
	f.once.Do(f.budget.release)
	return errno
}
