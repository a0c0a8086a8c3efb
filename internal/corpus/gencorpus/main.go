// Command gencorpus writes a deterministic benchmark corpus of skills (a
// spec-000 tree with Agent Skills folders, see package corpus):
//
//	go run ./internal/corpus/gencorpus -skills 1000 -out /tmp/corpus-1000
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	skills := fs.Int("skills", 1000, "number of skills (one in ten is an Agent Skills folder)")
	seed := fs.Uint64("seed", corpus.DefaultSeed, "corpus seed")
	out := fs.String("out", "", "directory to write (required)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "gencorpus: -out is required")
		return 2
	}
	c, st, err := corpus.Generate(*out, corpus.Options{Skills: *skills, Seed: *seed})
	if err != nil {
		fmt.Fprintln(stderr, "gencorpus:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%d skills, %d files, %d bytes (%d in skill files) under %s\n", len(c.Skills), st.Files, st.Bytes, st.SkillBytes, *out)
	return 0
}
