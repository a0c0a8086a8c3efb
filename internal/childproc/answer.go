package childproc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
)

// MaxAnswerBytes caps a child's answer (its stdout) when Options.MaxAnswer
// is zero: answers are one small JSON value, and a child that writes more is
// stopped before it can grow the server's memory (issue 26, item 9).
const MaxAnswerBytes = 1 << 20

// ErrAnswerTooLarge is wrapped by the error of a child whose answer went
// past its cap.
var ErrAnswerTooLarge = errors.New("helper answer too large")

// answerBuffer keeps a child's stdout up to limit bytes. Past it, it calls
// over once and refuses the rest, which ends the copy from the child's pipe.
type answerBuffer struct {
	buf   bytes.Buffer
	limit int64
	over  func()
	full  bool
}

func (b *answerBuffer) Write(p []byte) (int, error) {
	if b.full || int64(b.buf.Len()+len(p)) > b.limit {
		if !b.full {
			b.full = true
			b.over()
		}
		return 0, ErrAnswerTooLarge
	}
	return b.buf.Write(p)
}

// tooLarge is the error of a child whose answer went past limit.
func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%s wrote more than %d bytes as its answer, the most it may: it was stopped: %w", name, limit, ErrAnswerTooLarge)
}

// ReadLine reads one line from r, its end included, refusing one longer
// than limit bytes with an error wrapping ErrAnswerTooLarge (then r is left
// in the middle of the line). name names the child in that error.
func ReadLine(r *bufio.Reader, limit int64, name string) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if int64(len(line)+len(part)) > limit {
			return nil, tooLarge(name, limit)
		}
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}
