package corpus

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Body sizes, in bytes: every skill body lies between minBody and maxBody.
const (
	minBody = 1024
	maxBody = 3072
	// maxChunk bounds one paragraph, list or code block of a body.
	maxChunk = 200
)

// renderSkillFile renders the whole Markdown file of s: frontmatter and body.
func renderSkillFile(s *Skill) string {
	var b strings.Builder
	b.WriteString("---\n")
	if s.Format == FormatAgentSkill {
		b.WriteString("name: " + s.Name + "\n")
	}
	b.WriteString("description: " + strconv.Quote(s.Description) + "\n")
	rng := rand.New(rand.NewPCG(s.seed, 1))
	writeKeywords(&b, s.Keywords, rng.IntN(2) == 0)
	if s.Priority != 0 {
		fmt.Fprintf(&b, "priority: %d\n", s.Priority)
	}
	if s.Format == FormatTree {
		if !s.Inherit {
			b.WriteString("inherit: false\n")
		}
		writeDeclaredAssets(&b, s)
	} else {
		if rng.IntN(2) == 0 {
			b.WriteString("license: Apache-2.0\n")
		}
		b.WriteString("metadata:\n  owner: team-" + s.Name[:strings.IndexByte(s.Name+"-", '-')] + "\n  version: \"1.0\"\n")
	}
	b.WriteString("---\n")
	b.WriteString(renderBody(s, rng))
	return b.String()
}

// writeKeywords writes keywords as a flow list or a block list (both occur in
// real repositories); nothing when there are none.
func writeKeywords(b *strings.Builder, keywords []string, flow bool) {
	if len(keywords) == 0 {
		return
	}
	if flow {
		b.WriteString("keywords: [" + strings.Join(keywords, ", ") + "]\n")
		return
	}
	b.WriteString("keywords:\n")
	for _, kw := range keywords {
		b.WriteString("  - " + kw + "\n")
	}
}

// writeDeclaredAssets writes the assets and scripts entries of a tree skill.
func writeDeclaredAssets(b *strings.Builder, s *Skill) {
	if len(s.Assets) > 0 {
		b.WriteString("assets:\n")
		for _, a := range s.Assets {
			typ := "reference"
			if strings.HasPrefix(a, "templates/") {
				typ = "template"
			} else if strings.HasPrefix(a, "examples/") {
				typ = "example"
			}
			fmt.Fprintf(b, "  - file: %s\n    description: %s\n    type: %s\n", a, strconv.Quote("The "+typ+" of "+s.Name), typ)
		}
	}
	if len(s.Scripts) > 0 {
		b.WriteString("scripts:\n")
		for _, sc := range s.Scripts {
			fmt.Fprintf(b, "  - file: %s\n    description: %s\n    execution: server\n    args:\n      - name: target\n        description: \"What to check\"\n      - name: verbose\n        required: false\n",
				sc, strconv.Quote("Checks "+s.Name))
		}
	}
}

// bodySections are the headings a body cycles through.
var bodySections = []string{"When to use", "Rules", "Steps", "Pitfalls", "Examples", "References"}

// renderBody writes a Markdown body of minBody to maxBody bytes: a title, then
// sections of prose, lists and code that mention the skill's keywords.
func renderBody(s *Skill, rng *rand.Rand) string {
	target := minBody + rng.IntN(maxBody-minBody-maxChunk)
	var b strings.Builder
	b.Grow(target + maxChunk)
	b.WriteString("\n# " + strings.ToUpper(s.Name[:1]) + s.Name[1:] + "\n")
	for i := 0; b.Len() < target; i++ {
		if i%3 == 0 {
			b.WriteString("\n## " + bodySections[(i/3)%len(bodySections)] + "\n")
		}
		b.WriteString("\n")
		switch rng.IntN(4) {
		case 0:
			for range 2 + rng.IntN(2) {
				b.WriteString("- " + sentence(rng, s.Keywords, 6) + "\n")
			}
		case 1:
			fmt.Fprintf(&b, "```sh\nmake %s\n```\n", s.Name)
		default:
			b.WriteString(sentence(rng, s.Keywords, 10) + " " + sentence(rng, s.Keywords, 8) + "\n")
		}
	}
	return b.String()
}

// sentence is a capitalised sentence of about n filler words, sometimes with
// one of keywords in it.
func sentence(rng *rand.Rand, keywords []string, n int) string {
	words := make([]string, 0, n+2)
	for range n/2 + rng.IntN(n) {
		words = append(words, fillerWords[rng.IntN(len(fillerWords))])
	}
	if len(keywords) > 0 && rng.IntN(2) == 0 {
		words[rng.IntN(len(words))] = keywords[rng.IntN(len(keywords))]
	}
	out := strings.Join(words, " ")
	return strings.ToUpper(out[:1]) + out[1:] + "."
}

// resourceFile renders the resource file rel of s.
func resourceFile(s *Skill, rel string) string {
	rng := rand.New(rand.NewPCG(s.seed, uint64(len(rel))))
	switch {
	case strings.HasSuffix(rel, ".sh"):
		return "#!/bin/sh\n# " + sentence(rng, s.Keywords, 6) + "\nset -eu\necho \"checking ${SKILL_ARG_TARGET:-.} for " + s.Name + "\"\n"
	case strings.HasSuffix(rel, ".json"):
		return fmt.Sprintf("{\n  \"skill\": %q,\n  \"keywords\": %d,\n  \"note\": %q\n}\n", s.Path, len(s.Keywords), sentence(rng, s.Keywords, 8))
	default:
		var b strings.Builder
		b.WriteString("# " + rel + "\n\n")
		for range 4 + rng.IntN(8) {
			b.WriteString("- " + sentence(rng, s.Keywords, 8) + "\n")
		}
		return b.String()
	}
}
