package index

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/corpus"
)

// encodeNoHTML is what list_skills encoded before WriteTreeJSON: encoding/json
// with HTML escaping off, compact, without the trailing newline.
func encodeNoHTML(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// TestWriteTreeJSONEqualsEncoder: WriteTreeJSON writes the bytes the encoder
// gives for Tree, on a generated corpus (every filter of its first levels)
// and on skills whose strings need every kind of escape.
func TestWriteTreeJSONEqualsEncoder(t *testing.T) {
	t.Parallel()
	_, dir, err := corpus.Cached("", corpus.Options{Skills: 1000})
	if err != nil {
		t.Fatal(err)
	}
	gen, _ := mustBuild(t, dir)
	odd, _ := mustBuild(t, writeTree(t, map[string]string{
		"_root.md":            "---\ndescription: \"<b>bold</b> & \\\"quoted\\\" \\\\ back\\tslash\"\nkeywords: [\"a<b\", \"x&y\"]\n---\n",
		"ui/_index.md":        "---\ndescription: \"line\\nbreak\\r\\u0001\\u001f\\u2028\\u2029 é 日本\"\nkeywords: [\"\\u007f\", \"\\b\\f\"]\n---\n",
		"ui/quotes.md":        "---\ndescription: 'single ''quoted'' </script>'\nkeywords: [\"\\uFFFD\", \"\\U0001F642\"]\n---\n", // invalid UTF-8 never gets past YAML: FuzzWriteJSONString covers it
		"kits/x/SKILL.md":     "---\nname: x\ndescription: \"emoji 🙂 and \\u0000 nul\"\n---\n",
		"kits/x/scripts/a.sh": "echo\n",
		"kits/x/t.txt":        "t\n",
	}))
	if got := odd.Paths(); len(got) != 4 {
		t.Fatalf("odd tree: got skills %q, want all 4 indexed", got)
	}
	filters := []string{"", "_root", "ui", "ui/quotes", "x", "nope", "/ui/"}
	filters = append(filters, gen.Paths()[:40]...)
	for _, sn := range []*Snapshot{gen, odd} {
		for _, f := range filters {
			var b strings.Builder
			sn.WriteTreeJSON(&b, f)
			if want := encodeNoHTML(t, sn.Tree(f)); b.String() != want {
				t.Fatalf("filter %q: got\n%s\nwant\n%s", f, b.String(), want)
			}
		}
	}
}
