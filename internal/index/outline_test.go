package index

import (
	"slices"
	"strings"
	"testing"
)

func TestHeadingsOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"empty", "", nil},
		{"no heading", "just text\n#\n", nil},
		{"headings", "# PDF forms\n\nFill **AcroForm** fields.\n\n## Flattening ##\nUse `qpdf`.\n", []string{"PDF forms", "Flattening"}},
		{"code fences skipped", "```bash\n# not a heading\nrm -rf\n```\n~~~\n# nor this\n~~~\n# Real\ntext", []string{"Real"}},
		{"CRLF", "\r\n# Auth\r\n  trailing  \r\n", []string{"Auth"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := headingsOf([]byte(tt.body)); !slices.Equal(got, tt.want) {
				t.Errorf("headingsOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHeadingsOfBounds(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for range 100 {
		b.WriteString("# " + strings.Repeat("é", 100) + "\n" + strings.Repeat("word ", 50) + "\n")
	}
	h := headingsOf([]byte(b.String()))
	if len(h) != MaxHeadings {
		t.Fatalf("%d headings, want %d", len(h), MaxHeadings)
	}
	for _, x := range h {
		if len(x) > maxHeadingBytes || !strings.HasPrefix(strings.Repeat("é", 100), x) {
			t.Fatalf("heading %q: over %d bytes or cut inside a character", x, maxHeadingBytes)
		}
	}
}
