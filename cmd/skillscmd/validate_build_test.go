package skillscmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateFreshCloneOfExamples (issue 15): the example skills as a fresh
// clone has them, without the built scripts/slugify.wasm, pass validate clean:
// the repository's Makefile names the file, so it is a build product (a
// note, exit 0). The same tree without that rule is an error.
func TestValidateFreshCloneOfExamples(t *testing.T) {
	t.Parallel()
	clone := t.TempDir()
	if err := os.CopyFS(filepath.Join(clone, "examples", "skills"), os.DirFS("../../examples/skills")); err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join(clone, "examples", "skills", "api", "rest", "scripts", "slugify.wasm")
	if err := os.Remove(wasm); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(clone, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	examples := filepath.Join(clone, "examples")
	t.Run("with the Makefile rule", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(clone, "Makefile"), makefile, 0o644); err != nil {
			t.Fatal(err)
		}
		out, code := validateDir(t, examples)
		if code != 0 || !strings.Contains(out, "0 errors, 0 warnings") ||
			!strings.Contains(out, `skills/api/rest.md:9: note: declared script "scripts/slugify.wasm" is a build product named in`) {
			t.Errorf("validate: exit %d\n%s", code, out)
		}
	})
	t.Run("without it", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(clone, "Makefile"), []byte("all:\n\tgo build ./...\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, code := validateDir(t, examples)
		if code != 1 || !strings.Contains(out, `skills/api/rest.md:9: error: declared script "scripts/slugify.wasm" does not exist`) {
			t.Errorf("validate: exit %d\n%s", code, out)
		}
	})
}
