package server

import (
	"hash/maphash"
	"sync"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// skToolsState remembers a fingerprint of the skills the sk tools last
// described, so a rebuild that changed nothing sends no notification.
type skToolsState struct {
	mu          sync.Mutex
	seed        maphash.Seed
	fingerprint uint64
	known       bool
}

// refreshSkTools implements file 001's incremental refresh: when the "sk" set
// is served and the skills changed since the last call, the sk tools are
// registered again, which makes the go-sdk send notifications/tools/list_changed
// to initialized sessions. The first call only records the fingerprint.
func (s *Server) refreshSkTools() {
	if !servedToolSets(s.opts.ToolSets)[ToolSetSk] {
		return
	}
	s.sk.mu.Lock()
	defer s.sk.mu.Unlock()
	if !s.sk.known {
		s.sk.seed = maphash.MakeSeed()
	}
	fp := skillsFingerprint(s.sk.seed, s.snapshot())
	if s.sk.known && fp == s.sk.fingerprint {
		return
	}
	first := !s.sk.known
	s.sk.fingerprint, s.sk.known = fp, true
	if !first {
		s.addSkTools()
		s.log.Debug("skills changed; sk tools re-registered")
	}
}

// skillsFingerprint hashes what the sk tools show of every skill: path, file,
// name, description and body.
func skillsFingerprint(seed maphash.Seed, snap *index.Snapshot) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, sk := range snap.Skills() {
		for _, part := range []string{sk.Path, sk.AbsPath, sk.Name, sk.Description} {
			h.WriteString(part)
			h.WriteByte(0)
		}
		maphash.WriteComparable(&h, sk.Body.Digest)
	}
	return h.Sum64()
}
