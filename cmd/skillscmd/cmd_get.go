package skillscmd

import (
	"context"
	"fmt"
	"io"
)

// getCmd prints a skill's resolved content (with its inheritance headers) and
// its assets and scripts, own and inherited.
func getCmd(ctx context.Context, a *app, args []string, stdout, stderr io.Writer) error {
	getenv := a.getenv
	fs := newFlagSet("get", "get SKILL_PATH", "Show a skill's resolved content, assets and scripts.", stderr)
	var src sourceFlags
	src.register(fs, getenv)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 1 {
		return usagef("get: give exactly one SKILL_PATH (see skills-mcp list)")
	}
	c, err := openContent(ctx, a, src)
	if err != nil {
		return err
	}
	sk, ok := c.snap.Get(pos[0])
	if !ok {
		return fmt.Errorf("skill not found: %s (see skills-mcp list)", pos[0])
	}
	own, inherited, ownScripts, inheritedScripts := c.snap.AssetsFor(sk)
	content, err := c.snap.Content(sk)
	if err != nil {
		return err
	}
	if *asJSON {
		type file struct {
			File, Description, Type, Execution, From string `json:",omitempty"`
		}
		out := struct {
			SkillPath string `json:"skill_path"`
			Content   string `json:"content"`
			Files     []file `json:"files"`
		}{SkillPath: sk.Path, Content: content, Files: []file{}}
		for _, a := range append(own, inherited...) {
			out.Files = append(out.Files, file{File: a.File, Description: a.Description, Type: a.Type, From: a.From})
		}
		for _, s := range append(ownScripts, inheritedScripts...) {
			out.Files = append(out.Files, file{File: s.File, Description: s.Description, Type: "script", Execution: s.Execution, From: s.From})
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintln(stdout, content)
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(stdout, "\n%s:\n", title)
		for _, l := range lines {
			fmt.Fprintln(stdout, "  "+l)
		}
	}
	var assets, scripts []string
	for _, a := range append(own, inherited...) {
		assets = append(assets, describeFile(a.File, a.Type, a.Description, a.From))
	}
	for _, s := range append(ownScripts, inheritedScripts...) {
		scripts = append(scripts, describeFile(s.File, "execution: "+s.Execution, s.Description, s.From))
	}
	section("Assets", assets)
	section("Scripts", scripts)
	return nil
}

func describeFile(file, kind, desc, from string) string {
	s := file + " (" + kind + ")"
	if desc != "" {
		s += " — " + desc
	}
	if from != "" {
		s += " [from " + from + "]"
	}
	return s
}
