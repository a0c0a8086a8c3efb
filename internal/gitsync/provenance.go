package gitsync

import (
	"context"
	"sync"
)

// Provenance is what the server knows of the commit it serves, from the
// helper's answers: for /healthz, /readyz, the _meta of answers and
// refresh_skills.
type Provenance struct {
	// Commit is the served commit, "" when nothing is served.
	Commit string
	// Verified is true when Commit's signature verified against the allowed
	// signers; Signer names who signed it.
	Verified bool
	Signer   string
	// Target is the commit the pin (SKILLS_REF) named at the last sync that
	// reached the remote, "" before one did or without a pin (but for a
	// refused branch head).
	Target string
	// Refused is the last commit refused and why; nil when the last sync
	// served what it fetched.
	Refused *Refusal
	// Synced is true once a sync (not a VerifyCache) has ended, however.
	Synced bool
}

// provenance holds the Provenance of a Syncer.
type provenance struct {
	mu sync.RWMutex
	p  Provenance
}

// record takes in the result of one operation of the helper.
func (pv *provenance) record(op string, res Result, failed bool) {
	pv.mu.Lock()
	defer pv.mu.Unlock()
	if op != OpVerifyCache {
		pv.p.Synced = true
	}
	if res.CommitHash != "" || !failed {
		pv.p.Commit, pv.p.Verified, pv.p.Signer = res.CommitHash, res.Verified, res.Signer
	}
	if res.Target != "" {
		pv.p.Target = res.Target
	}
	if res.Target != "" || res.Refused != nil {
		pv.p.Refused = res.Refused
	}
}

// Provenance returns what the syncs so far said of the served commit.
func (s *Syncer) Provenance() Provenance {
	s.prov.mu.RLock()
	defer s.prov.mu.RUnlock()
	return s.prov.p
}

// VerifyCache has the helper verify the cached copy's commit, without any
// network, and empty a copy whose commit does not verify. It does nothing
// without verification.
func (s *Syncer) VerifyCache(ctx context.Context) (Result, error) {
	if s.opts.Verify == "" {
		return Result{}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.call(ctx, OpVerifyCache)
}

// Verifying reports whether commits are verified (SKILLS_VERIFY).
func (s *Syncer) Verifying() bool { return s.opts.Verify != "" }
