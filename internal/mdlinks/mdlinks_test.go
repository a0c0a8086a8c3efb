package mdlinks

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// found is what Find gives, as "L dest line" / "I dest line" entries.
func found(md string) string {
	var out []string
	for _, l := range Find([]byte(md), 0) {
		k := "L"
		if l.Image {
			k = "I"
		}
		out = append(out, fmt.Sprintf("%s %s %d", k, l.Dest, 1+bytes.Count([]byte(md[:l.Offset]), []byte("\n"))))
	}
	return strings.Join(out, "; ")
}

// The cases are CommonMark's (each checked against goldmark, which
// validate used before): what is a link, what is not, and on which line.
func TestFind(t *testing.T) {
	for _, tt := range findCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := found(tt.md); got != tt.want {
				t.Errorf("Find(%q) = %q, want %q", tt.md, got, tt.want)
			}
		})
	}
}

var findCases = []struct{ name, md, want string }{
	{"inline link and image", "Read [forms](a/FORMS.md).\n![logo](img/logo.png)\n", "L a/FORMS.md 1; I img/logo.png 2"},
	{"title and angle destination", "[a](<my file.md> \"T\") [b](b.md 'T') [c](c.md (T))\n", "L my file.md 1; L b.md 1; L c.md 1"},
	{"balanced parentheses", "[a](x(1).md)\n", "L x(1).md 1"},
	{"empty destination", "[a]()\n", "L  1"},
	{"full, collapsed and shortcut references", "[a][r] [r][] [r]\n\n[r]: ref.md \"title\"\n", "L ref.md 1; L ref.md 1; L ref.md 1"},
	{"reference label case and spaces", "[x][My  Ref]\n\n[my ref]: r.md\n", "L r.md 1"},
	{"undefined reference", "[a][nope] [nope]\n", ""},
	{"code span", "`[a](x.md)` and ``[b](`y`)``\n", ""},
	{"fenced code", "```md\n[a](x.md)\n```\n~~~\n[b](y.md)\n~~~\n[c](z.md)\n", "L z.md 7"},
	{"unclosed fence", "```\n[a](x.md)\n", ""},
	{"indented code", "text\n\n    [a](x.md)\n\n[b](y.md)\n", "L y.md 5"},
	{"indented line continues a paragraph", "text\n    [a](x.md)\n", "L x.md 2"},
	{"fence in a list item ends with it", "- item\n  ```\n  code\n# heading\n  ```\n[a](x.md)\n```\n[b](y.md)\n", "L y.md 8"},
	{"list item content is not code", "- a\n\n    [a](x.md)\n", "L x.md 3"},
	{"html block", "<div>\n[a](x.md)\n</div>\n\n[b](y.md)\n", "L y.md 5"},
	{"html comment", "<!--\n[a](x.md)\n-->\n[b](y.md)\n", "L y.md 4"},
	{"autolink and raw html", "<https://e.com/x.md> <a href=\"x\">[b](y.md)</a>\n", "L y.md 1"},
	{"escaped bracket", "\\[a](x.md)\n", ""},
	{"image in a link", "[![badge](b.svg)](https://e.com)\n", "L https://e.com 1; I b.svg 1"},
	{"no link in a link", "[a [b](in.md) c](out.md)\n", "L in.md 1"},
	{"link across lines", "see [the\nguide](g.md)\n", "L g.md 1"},
	{"text starting with a line end", "see [\nguide](g.md)\n", "L g.md 1"},
	{"empty text: paragraph line", "first\n[](e.md)\n", "L e.md 1"},
	{"space before the parenthesis", "[a] (x.md)\n", ""},
	{"blank line ends a paragraph", "[a\n\nb](x.md)\n", ""},
}

// Find starts at from: a frontmatter block before it is not read.
func TestFindFrom(t *testing.T) {
	md := "---\nx: \"[a](x.md)\"\n---\n[b](y.md)\n"
	from := strings.Index(md, "[b]")
	if got := Find([]byte(md), from); len(got) != 1 || got[0].Dest != "y.md" || got[0].Offset != from+1 {
		t.Errorf("Find from the body = %+v", got)
	}
}

// Any input: no panic, offsets inside the document. Seeds: testdata/fuzz/FuzzFind.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"[a](b)", "![", "[a][", "```\n[", "<div", "[a]: <", "    x\n- [", "`` ` ``[x]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		for _, l := range Find([]byte(md), 0) {
			if l.Offset < 0 || l.Offset > len(md) {
				t.Fatalf("offset %d outside %d bytes", l.Offset, len(md))
			}
		}
	})
}
