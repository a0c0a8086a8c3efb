package frontmatter

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// checkFastAgrees fails when fastFrontmatter takes front but decodes it
// otherwise than the full decoder (yamlFrontmatter), and reports whether it took it.
func checkFastAgrees(t *testing.T, front string) bool {
	t.Helper()
	got, ok := fastFrontmatter([]byte(front))
	if !ok {
		return false
	}
	want, err := yamlFrontmatter([]byte(front))
	if err != nil {
		t.Errorf("fast path took %q, but yaml.v2 fails: %v", front, err)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fast path decodes %q as\n%#v\nwant (yaml.v2)\n%#v", front, got, want)
	}
	return true
}

func TestFastFrontmatter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		front    string
		wantTake bool
	}{
		{"empty", "", true},
		{"only comments and blank lines", "# a comment\n\n   # another\n", true},
		{"tree skill", "description: Rules for React forms\nkeywords: [react, form, validation]\npriority: 3\ninherit: false\n", true},
		{"block keywords at the key's indent", "keywords:\n- react\n- Form\ndescription: x\n", true},
		{"block keywords indented", "keywords:\n  - react\n  - \"quoted: yes\"\n  - 'it''s'\n", true},
		{"assets and scripts", "assets:\n  - file: templates/a.md\n    description: \"The template\"\n    type: template\n  - examples/b.json\nscripts:\n  - file: scripts/check.sh\n    execution: server\n    args:\n      - name: target\n        description: What to check\n      - name: verbose\n        required: false\n", true},
		{"compact nested sequence", "scripts:\n- file: a.sh\n  args:\n  - name: x\n  - name: y\nnext: 1\n", true},
		{"nested mapping", "metadata:\n  owner: team-a\n  version: \"1.0\"\nname: pdf\n", true},
		{"booleans and nulls of YAML 1.1", "a: yes\nb: No\nc: on\nd: OFF\ne: ~\nf: null\ng:\nh: y\ni: [yes, n, NULL, ~, true]\n", true},
		{"decimal integers", "a: 0\nb: 42\nc: 123456789012345678\nd: [1, 22]\n", true},
		{"strings that look special but are not", "a: yesterday\nb: nope\nc: node.js\nd: http://x.y/z\ne: ~x\nf: a:b\ng: Trueish\nh: =\n", true},
		{"CRLF", "description: x\r\nkeywords: [a, b]\r\n", true},
		{"accents and emoji", "description: Créer des données 🚀\nkeywords: [données, 日本語]\n", true},
		{"flow sequence with quoted items", "k: [\"a, b\", 'c]', d e]\n", true},
		{"empty flow sequence", "k: []\nl: [ ]\n", true},
		{"trailing spaces", "k: value   \nl:   \n", true},
		{"comment after a value", "k: value # note\n", false},
		{"multi-line plain scalar", "description: a long\n  description\n", false},
		{"block scalar", "description: |\n  text\n", false},
		{"folded scalar", "description: >-\n  text\n", false},
		{"anchor and alias", "a: &x 1\nb: *x\n", false},
		{"tag", "a: !!str 1\n", false},
		{"float", "a: 1.5\n", false},
		{"negative number", "a: -3\n", false},
		{"octal-looking", "a: 0777\n", false},
		{"hex", "a: 0x1F\n", false},
		{"timestamp", "a: 2024-01-02\n", false},
		{"nan", "a: .nan\n", false},
		{"merge key", "<<: {a: 1}\n", false},
		{"flow mapping", "a: {b: 1}\n", false},
		{"nested flow sequence", "a: [[1], 2]\n", false},
		{"multi-line flow sequence", "a: [1,\n  2]\n", false},
		{"empty flow entry", "a: [1, , 2]\n", false},
		{"duplicate key", "a: 1\na: 2\n", false},
		{"key that is a boolean", "yes: 1\n", false},
		{"quoted key", "\"a\": 1\n", false},
		{"key with a space before the colon", "a : 1\n", false},
		{"tab indentation", "a:\n\t- b\n", false},
		{"escape other than quote and backslash", "a: \"x\\ny\"\n", false},
		{"quoted value then text", "a: \"x\" y\n", false},
		{"unterminated quote", "a: \"x\n", false},
		{"top level sequence", "- a\n- b\n", false},
		{"top level scalar", "just text\n", false},
		{"indented first line", "  a: 1\n", false},
		{"inconsistent indent", "a:\n    b: 1\n  c: 2\n", false},
		{"document marker", "a: 1\n...\n", false},
		{"directive", "%YAML 1.1\na: 1\n", false},
		{"NEL character", "a: x\u0085y\n", false},
		{"BOM inside", "a: \ufeffx\n", false},
		{"lone carriage return", "a: 1\rb: 2\n", false},
		{"invalid UTF-8", "a: \xff\n", false},
		{"dash alone", "a:\n  -\n  - b\n", false},
		{"sequence in sequence", "a:\n  - - b\n", false},
		{"value starting with an indicator", "a: @x\n", false},
		{"key without space after colon", "a:b\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkFastAgrees(t, tt.front); got != tt.wantTake {
				t.Errorf("fast path took it = %v, want %v", got, tt.wantTake)
			}
			// Whichever path decodes it, ParseYAML answers as the full decoder does.
			got, gotErr := ParseYAML([]byte(tt.front))
			want, wantErr := yamlFrontmatter([]byte(tt.front))
			// %#v prints maps sorted, and NaN equal to NaN.
			if (gotErr == nil) != (wantErr == nil) || fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
				t.Errorf("ParseYAML = %#v, %v; want %#v, %v", got, gotErr, want, wantErr)
			}
		})
	}
}

// TestFastFrontmatterOnRealTrees decodes every Markdown file of the
// repository's example and fixture trees and of a generated corpus both ways:
// the fast path must agree with the full decoder wherever it decodes, and decode the
// generated files, which keep to the plain subset.
func TestFastFrontmatterOnRealTrees(t *testing.T) {
	t.Parallel()
	generated := t.TempDir()
	if _, _, err := corpus.Generate(generated, corpus.Options{Skills: 300}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		dir          string
		wantAllTaken bool
	}{
		{"examples", "../../examples", false},
		{"testdata", "../../testdata", false},
		{"generated corpus", generated, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, taken := 0, 0
			err := filepath.WalkDir(tt.dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				split, err := Split(data)
				if err != nil {
					return nil
				}
				files++
				if checkFastAgrees(t, string(split.Front)) {
					taken++
				} else if tt.wantAllTaken {
					t.Errorf("fast path declined %s:\n%s", p, split.Front)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if files == 0 {
				t.Fatalf("no Markdown file with frontmatter under %s", tt.dir)
			}
			t.Logf("%s: fast path took %d of %d frontmatter blocks", tt.name, taken, files)
		})
	}
}

// FuzzFastFrontmatter holds the fast path to the full decoder: whatever it decodes,
// the full decoder must decode the same.
func FuzzFastFrontmatter(f *testing.F) {
	f.Add("description: x\nkeywords: [a, b]\n")
	f.Add("assets:\n  - file: a.md\n    type: template\nscripts:\n- file: s.sh\n  args:\n  - name: x\n")
	f.Add("a: yes\nb: 12\nc: ~\nd: 'q''x'\ne: \"\\\"\"\n")
	f.Add("metadata:\n  owner: x\n  n: [1, on]\n")
	f.Fuzz(func(t *testing.T, front string) {
		checkFastAgrees(t, front)
	})
}

// TestFastFrontmatterRandomDocuments builds documents from the pieces skill
// files are made of — and pieces just outside the subset — in random
// arrangements and indentations, and checks the fast path against the full decoder on
// each.
func TestFastFrontmatterRandomDocuments(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 9))
	scalars := []string{
		"x", "react", "yes", "No", "~", "null", "0", "7", "012", "1.5", "-2", "+3", ".5", "2024-01-02",
		"a: b", "a:b", "a #b", "a#b", "'q'", "'it''s'", "\"d\"", "\"a\\\"b\"", "\"a\\nb\"", "[a, b]", "[]", "[yes, 1, 'x']",
		"[a, [b]]", "{a: 1}", "&a x", "*a", "!t x", "|", ">", "données", "http://x/y", "<<", "=", "@x", "`x`", "-", "- x",
		"%x", "?x", "x:", "on", "Off", "y", "N", "e2e", "node.js", "a b  c", "[a,b ,c ]", "['a' , \"b\"]", "[a,]", "[,a]",
	}
	keys := []string{"description", "keywords", "priority", "inherit", "name", "assets", "scripts", "metadata", "args",
		"file", "type", "yes", "a-b", "_x", "1a", "\"q\"", "k k", "on", "x"}
	indents := []string{"", "", "", " ", "  ", "    ", "\t"}
	taken := 0
	for range 40000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			ind := indents[rng.IntN(len(indents))]
			switch rng.IntN(6) {
			case 0:
				b.WriteString(ind + keys[rng.IntN(len(keys))] + ":\n")
			case 1:
				b.WriteString(ind + "- " + scalars[rng.IntN(len(scalars))] + "\n")
			case 2:
				b.WriteString(ind + "- " + keys[rng.IntN(len(keys))] + ": " + scalars[rng.IntN(len(scalars))] + "\n")
			case 3:
				b.WriteString(ind + "# c\n")
			default:
				b.WriteString(ind + keys[rng.IntN(len(keys))] + ": " + scalars[rng.IntN(len(scalars))] + "\n")
			}
		}
		if checkFastAgrees(t, b.String()) {
			taken++
		}
		if t.Failed() {
			t.Fatalf("stopping at the first disagreement")
		}
	}
	if taken < 2000 {
		t.Errorf("the fast path took %d of 40000 documents, want at least 2000 for the comparison to mean something", taken)
	}
}
