package server

import (
	"fmt"
	"sort"
	"strings"
)

// ToolSetCore is the tool set of spec 000: get_skill, list_skills, get_asset,
// run_script, report_usage, refresh_skills.
const ToolSetCore = "core"

// toolSets maps a tool-set name to the function that registers its tools.
// Each set lives in its own files; adding one means adding an entry here.
func (s *Server) toolSets() map[string]func() {
	return map[string]func(){
		ToolSetCore:  s.addCoreTools,
		ToolSetSkill: s.addSkillTools,
		ToolSetSk:    s.addSkTools,
	}
}

// ToolSetNames lists the tool sets this server can serve, sorted.
func ToolSetNames() []string {
	names := make([]string, 0)
	for name := range (&Server{}).toolSets() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// CheckToolSets reports an unknown tool-set name, listing the known ones.
func CheckToolSets(names []string) error {
	known := (&Server{}).toolSets()
	for _, n := range names {
		if _, ok := known[n]; !ok {
			return fmt.Errorf("unknown tool set %q (known: %s)", n, strings.Join(ToolSetNames(), ", "))
		}
	}
	return nil
}

func (s *Server) registerToolSets() {
	names := s.opts.ToolSets
	if len(names) == 0 {
		names = []string{ToolSetCore}
	}
	sets := s.toolSets()
	seen := map[string]bool{}
	for _, n := range names {
		if add, ok := sets[n]; ok && !seen[n] {
			seen[n] = true
			add()
		}
	}
}

func (s *Server) addCoreTools() {
	s.addGetSkill()
	s.addListSkills()
	s.addGetAsset()
	s.addRunScript()
	s.addReportUsage()
	s.addRefreshSkills()
}
