package wasmproc

import "github.com/skills-mcp/skills-mcp/internal/childproc"

// MaxUncappedAnswer bounds the helper's answer to a run whose output has no
// cap (RunRequest.MaxOutputBytes zero).
const MaxUncappedAnswer = 64 << 20

// answerLimit bounds the helper's answer to a run (issue 26, item 9): its
// two streams, each cut at maxOutput, JSON-escaped (six bytes for one at
// worst), and childproc.MaxAnswerBytes for the rest of the result. A helper
// that writes more is killed.
func answerLimit(maxOutput int64) int64 {
	if maxOutput <= 0 || maxOutput > 1<<40 {
		return MaxUncappedAnswer
	}
	return childproc.MaxAnswerBytes + 2*6*maxOutput
}
