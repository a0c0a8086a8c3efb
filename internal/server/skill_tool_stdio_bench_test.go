package server

import (
	"fmt"
	"testing"
)

// BenchmarkSkillToolStdio times the skill tool through the stdio transport,
// as BenchmarkGetSkillStdio times get_skill.
func BenchmarkSkillToolStdio(b *testing.B) {
	for _, n := range stdioBenchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			bs := newBenchServerWith(b, n, true)
			srv := New(Options{Index: bs.srv.opts.Index, Config: bs.srv.opts.Config, ToolSets: []string{ToolSetCore, ToolSetSkill}})
			benchToolStdio(b, srv, "skill", map[string]any{"name": bs.c.Skills[len(bs.c.Skills)/2].Path})
		})
	}
}
