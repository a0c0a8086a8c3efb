package skillscmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// benchTree writes n Agent Skills with a reference, a link, an image and
// metadata each, in the style of public collections.
func benchTree(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	for i := range n {
		name := fmt.Sprintf("skill-%04d", i)
		dir := filepath.Join(root, "skills", name)
		if err := os.MkdirAll(filepath.Join(dir, "references"), 0o755); err != nil {
			b.Fatal(err)
		}
		body := fmt.Sprintf(`---
name: %s
description: Does task %d well. Use when the user asks for task %d or anything like it.
license: MIT
metadata:
  version: "1.2"
  author: someone
---
# Task %d

Read [the guide](references/GUIDE.md) before starting, then follow the steps.

`+"```sh\nrun-task --id %d\n```\n"+`
1. Gather the inputs.
2. Check them against [the rules](references/GUIDE.md#rules).
3. Report.
`, name, i, i, i, i)
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "references", "GUIDE.md"), []byte("# Guide\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkValidateTree is the whole of validate's work on 1,000 skills;
// BenchmarkValidateIndexOnly the index build it starts with, for comparison.
func BenchmarkValidateTree(b *testing.B) {
	root := benchTree(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		if got, _ := validateTrees(context.Background(), []validateTarget{{skillsDir: filepath.Join(root, "skills"), configDir: root}}, New(nil).hasRunner); len(got) != 0 {
			b.Fatalf("findings on a clean tree: %v", got[0])
		}
	}
}

func BenchmarkValidateIndexOnly(b *testing.B) {
	root := benchTree(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		idx := index.New(index.Options{Roots: []index.Root{{Dir: filepath.Join(root, "skills"), Source: "SKILLS_DIR"}}, Logger: hclog.NewNullLogger()})
		if _, err := idx.Rebuild(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
