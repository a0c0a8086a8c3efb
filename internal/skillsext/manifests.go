package skillsext

import (
	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/lockfile"
)

// Manifests returns what skills/list publishes for snap, with each
// skill's path: every skill the Skills extension serves, sorted by URI, with
// the URI, digest and size of each of its resources. It is the one source of
// skills.lock's entries (skills-mcp lock, serve --frozen, validate --lock),
// so a lock and skills/list never disagree on a digest. A skill of snap
// missing from the result is not served over the extension (its URI is taken
// by another).
func Manifests(snap *index.Snapshot, log hclog.Logger) []lockfile.Skill {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	v := buildSkillsView(snap, log)
	out := make([]lockfile.Skill, 0, len(v.skills))
	for _, ss := range v.skills {
		e := v.entry(ss)
		files := make([]lockfile.File, len(e.Resources))
		for i, r := range e.Resources {
			files[i] = lockfile.File{URI: r.URI, Digest: r.Digest, Size: r.Size}
		}
		out = append(out, lockfile.Skill{Path: ss.skill.Path, URI: ss.uri, Files: files})
	}
	return out
}
