package index

import (
	"slices"
	"strings"
	"testing"
)

func TestOutlineOf(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		headings []string
		lead     string
	}{
		{"empty", "", nil, ""},
		{"headings and prose", "# PDF forms\n\nFill **AcroForm** fields, then flatten.\n\n## Flattening ##\nUse `qpdf`.\n",
			[]string{"PDF forms", "Flattening"}, "Fill   AcroForm   fields, then flatten. Use  qpdf ."},
		{"code fences skipped", "```bash\n# not a heading\nrm -rf\n```\n~~~\n# nor this\n~~~\n# Real\ntext", []string{"Real"}, "text"},
		{"tables and html skipped", "| a | b |\n<div>x</div>\n---\nwords", nil, "words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, lead := outlineOf([]byte(tt.body))
			if !slices.Equal(h, tt.headings) || lead != tt.lead {
				t.Errorf("outlineOf = %q, %q; want %q, %q", h, lead, tt.headings, tt.lead)
			}
		})
	}
}

func TestOutlineOfBounds(t *testing.T) {
	var b strings.Builder
	for range 100 {
		b.WriteString("# " + strings.Repeat("é", 100) + "\n" + strings.Repeat("word ", 50) + "\n")
	}
	h, lead := outlineOf([]byte(b.String()))
	if len(h) != MaxHeadings || len(lead) > MaxLeadBytes {
		t.Fatalf("%d headings, lead of %d bytes; want %d and at most %d", len(h), len(lead), MaxHeadings, MaxLeadBytes)
	}
	for _, x := range h {
		if len(x) > maxHeadingBytes || !strings.HasPrefix(strings.Repeat("é", 100), x) {
			t.Fatalf("heading %q: over %d bytes or cut inside a character", x, maxHeadingBytes)
		}
	}
}
