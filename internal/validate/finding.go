package validate

import "fmt"

// Finding is one line of `validate` output.
type Finding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// String is the Finding as validate prints it: FILE:LINE: SEVERITY: MESSAGE.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Severity, f.Message)
}
