package ranked_test

import (
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"pdf-forms", []string{"pdf", "form"}},
		{"Fill in this PDF form", []string{"fill", "pdf", "form"}},
		{"snake_case and camelCase", []string{"snak", "cas", "camel", "cas"}},
		{"HTMLParser parses XMLHttpRequest", []string{"html", "parser", "pars", "xml", "http", "request"}},
		{"ＰＤＦ café Résumé", []string{"pdf", "caf", "resum"}},
		{"deploying deployed deploys", []string{"deploy", "deploy", "deploy"}},
		{"queries libraries boxes classes", []string{"query", "library", "box", "class"}},
		{"writing write writes", []string{"writ", "writ", "writ"}},
		{"running logged embedded", []string{"run", "log", "embed"}},
		{"deployment validation validates optimization optimize comment cement", []string{"deploy", "validat", "validat", "optimiz", "optimiz", "comment", "cement"}},
		{"automation automated translation translate", []string{"automat", "automat", "translat", "translat"}},
		{"k8s mp4 s3 go", []string{"k8s", "mp4", "s3", "go"}},
		{"please help me, I want to use the thing", nil},
		{"analysis status", []string{"analysis", "status"}},
		{"\xff\xfe bad \xc3", []string{"bad"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := ranked.Tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
