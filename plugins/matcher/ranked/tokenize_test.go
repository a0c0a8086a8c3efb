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
		{"snake_case and camelCase", []string{"snake", "case", "camel", "case"}},
		{"HTMLParser parses XMLHttpRequest", []string{"html", "parser", "pars", "xml", "http", "request"}},
		{"ＰＤＦ café Résumé", []string{"pdf", "cafe", "resum"}},
		{"deploying deployed deploys", []string{"deploy", "deploy", "deploy"}},
		{"queries query libraries boxes classes", []string{"queri", "queri", "librari", "box", "class"}},
		{"writing write writes", []string{"write", "write", "write"}},
		{"running logged embedded", []string{"run", "log", "embed"}},
		{"deployment validation validates optimization optimize comment cement", []string{"deploy", "valid", "valid", "optim", "optim", "comment", "cement"}},
		{"automation automated translation translate", []string{"autom", "autom", "translat", "translat"}},
		{"k8s mp4 s3 go", []string{"k8s", "mp4", "s3", "go"}},
		{"please help me, I want to use the thing", nil},
		{"analysis analyses analyse analyzer status", []string{"analyz", "analyz", "analyz", "analyz", "status"}},
		{"fails failed failing failure", []string{"fail", "fail", "fail", "fail"}}, // -ure after Porter2
		{"zeroed zeroize zeroizing", []string{"zero", "zero", "zero"}},             // -iz after Porter2
		{"configure configuration config", []string{"config", "config", "config"}},
		{"architecture architect contour", []string{"architect", "architect", "contour"}},
		{"PDFs, APIs and FAQs; the TTLs", []string{"pdf", "api", "faq", "ttl"}},                                  // a plural acronym is one word
		{"PDFsMerged XMLs3 pdfs llms css dns", []string{"pdf", "merg", "xm", "ls3", "pdf", "llm", "css", "dns"}}, // an s before a digit starts a word
		{"HTMLsection", []string{"htm", "lsection"}},                                                             // not an s ending the word: split as before
		{"version 2.4, 5% and 300 issues", []string{"version", "issu"}},                                          // a number alone says nothing
		{"\xff\xfe bad \xc3", []string{"bad"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := ranked.Tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStemSnowball checks Stem against the output of Snowball's English
// stemmer for a sample of its published vocabulary (words that the -ure and
// -iz rule leaves alone).
func TestStemSnowball(t *testing.T) {
	want := map[string]string{
		"consign": "consign", "consigned": "consign", "consignment": "consign", "consistency": "consist",
		"consistently": "consist", "consolation": "consol", "consolatory": "consolatori", "consoled": "consol",
		"consolidating": "consolid", "consolingly": "consol", "consonant": "conson", "conspicuously": "conspicu",
		"conspiracy": "conspiraci", "conspirators": "conspir", "constable": "constabl", "constancy": "constanc",
		"knackeries": "knackeri", "knaves": "knave", "kneaded": "knead", "kneeling": "kneel", "knees": "knee",
		"knightly": "knight", "knitting": "knit", "knives": "knive", "knocker": "knocker", "generously": "generous",
		"skies": "sky", "dying": "die", "news": "news", "succeeded": "succeed", "proceed": "proceed", "happily": "happili",
		"hopeful": "hope", "goodness": "good", "relational": "relat", "electricity": "electr", "sensational": "sensat",
		"cries": "cri", "ties": "tie", "gas": "gas", "gaps": "gap", "flattened": "flatten", "hoping": "hope",
		"controlled": "control", "filing": "file", "a": "a", "is": "is",
	}
	for w, s := range want {
		if got := ranked.Stem(w); got != s {
			t.Errorf("Stem(%q) = %q, want %q", w, got, s)
		}
	}
}
