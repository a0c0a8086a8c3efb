package gitsync

import "errors"

// VerifySigned is the value of SKILLS_VERIFY that serves only commits signed
// by a key of SKILLS_ALLOWED_SIGNERS.
const VerifySigned = "signed"

// ErrUnverified: no commit whose signature verifies is in the clone, so
// nothing is served until one arrives.
var ErrUnverified = errors.New("no verified commit to serve")

// ErrRefused: the remote's commit is not verified; the last verified commit
// stays served.
var ErrRefused = errors.New("the remote's commit is not verified")

// Refusal is a commit git mode did not serve, and why.
type Refusal struct {
	// Commit is the full hash of the commit refused.
	Commit string `json:"commit"`
	// Signer is who signed it as far as known: the allowed signer's
	// principals, or the fingerprint of a key not in the list; "" when
	// unsigned.
	Signer string `json:"signer,omitempty"`
	// Reason says why, in words.
	Reason string `json:"reason"`
}

// String is the refusal in one line: commit, signer, reason.
func (r *Refusal) String() string {
	if r == nil {
		return ""
	}
	s := "commit " + r.Commit + " not served: " + r.Reason
	if r.Signer != "" {
		s += " (signer " + r.Signer + ")"
	}
	return s
}
