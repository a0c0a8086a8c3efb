package server

// Parts of the initialize instructions, one per tool set.
const (
	instructionsIntro = "skills-mcp serves team skills: Markdown instructions with templates and scripts."
	instructionsCore  = "Call get_skill with a short description of the task before starting it; if the answer is ambiguous, " +
		"call get_skill again with one of the candidates' skill_path. Browse with list_skills. Fetch templates and " +
		"scripts named in a skill with get_asset; run scripts marked execution \"server\" with run_script. " +
		"Tell us whether a skill helped with report_usage."
	instructionsSkill = "The skill tool's description lists the available skills: when one fits the task, call skill with its name " +
		"(case-insensitive) to load its instructions and base directory."
	instructionsSk = "Use skills_list for the exhaustive list of skills and their metadata, skills_search for targeted keyword " +
		"lookups, and skills_show to read one skill's body."
)

// DefaultInstructions returns the initialize instructions for the given tool
// sets (empty means ["core"]): which tool to use for what, one part per set
// served, in the order core, skill, sk. Options.Instructions overrides them.
func DefaultInstructions(toolSets []string) string {
	served := servedToolSets(toolSets)
	text := instructionsIntro
	for _, part := range []struct {
		set, text string
	}{{ToolSetCore, instructionsCore}, {ToolSetSkill, instructionsSkill}, {ToolSetSk, instructionsSk}} {
		if served[part.set] {
			text += " " + part.text
		}
	}
	return text
}

// servedToolSets is the set of tool-set names served for names (empty means ["core"]).
func servedToolSets(names []string) map[string]bool {
	if len(names) == 0 {
		names = []string{ToolSetCore}
	}
	served := make(map[string]bool, len(names))
	for _, n := range names {
		served[n] = true
	}
	return served
}
