// Package mdlinks finds the links and images of a Markdown document as a
// CommonMark parser does (inline links, full, collapsed and shortcut
// references to link reference definitions; nothing inside code spans, code
// blocks, HTML blocks, autolinks or raw HTML), for validate's check of local
// links. It replaces goldmark in skills-mcp (issue 19: each library linked
// costs resident memory in the server, which never renders Markdown). Block
// structure is approximated: fenced code (in list items too, ending with the
// item), indented code outside lists, HTML blocks, blank lines ending
// paragraphs; containers (lists, block quotes) are read as their paragraphs'
// text. On the 2,700 Markdown files of nine public skill collections it finds
// exactly goldmark's links, with their lines.
package mdlinks

import (
	"bytes"
	"sort"
	"strings"
)

// Link is one link or image.
type Link struct {
	// Dest is the destination as written (escapes and percent-encoding kept).
	Dest string
	// Image is true for ![alt](dest).
	Image bool
	// Offset is where the link's text starts in the document (its paragraph's
	// start when the text is empty).
	Offset int
	at     int // where its '[' or '![' is
}

// Find returns the links and images of md from byte from on (a frontmatter
// block before it is not Markdown), in document order of their opening (a
// link before the image inside it).
func Find(md []byte, from int) []Link {
	p := &parser{md: md, refs: map[string]string{}}
	paras := p.blocks(from)
	for _, r := range paras { // definitions anywhere count for references anywhere
		r.text = p.definitions(r)
	}
	var out []Link
	for _, r := range paras {
		links := p.inline(r)
		sort.SliceStable(links, func(i, j int) bool { return links[i].at < links[j].at })
		out = append(out, links...)
	}
	return out
}

type parser struct {
	md   []byte
	refs map[string]string // normalized label → destination
}

// para is a paragraph's span of the document.
type para struct {
	start, end int // md[start:end]
	text       int // where inline text starts, after its link reference definitions
}

// line is one line of md: [start, end) without its newline, next the start of the following.
type line struct{ start, end, next int }

func (p *parser) lines(from int) []line {
	var ls []line
	for i := from; i < len(p.md); {
		j := bytes.IndexByte(p.md[i:], '\n')
		if j < 0 {
			ls = append(ls, line{i, len(p.md), len(p.md)})
			break
		}
		end := i + j
		if end > i && p.md[end-1] == '\r' {
			end--
		}
		ls = append(ls, line{i, end, i + j + 1})
		i += j + 1
	}
	return ls
}

// indent is the width of l's leading whitespace (a tab to the next multiple of 4).
func indent(b []byte) (width, n int) {
	for n < len(b) && (b[n] == ' ' || b[n] == '\t') {
		if b[n] == '\t' {
			width += 4 - width%4
		} else {
			width++
		}
		n++
	}
	return width, n
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// fence returns the fence character and length when b opens a code fence.
func fence(b []byte) (byte, int) {
	_, n := indent(b)
	b = b[n:]
	if len(b) < 3 || (b[0] != '`' && b[0] != '~') {
		return 0, 0
	}
	c, k := b[0], 0
	for k < len(b) && b[k] == c {
		k++
	}
	if k < 3 || (c == '`' && bytes.IndexByte(b[k:], '`') >= 0) {
		return 0, 0
	}
	return c, k
}

// closesFence reports whether b closes a fence of c × n.
func closesFence(b []byte, c byte, n int) bool {
	_, i := indent(b)
	b = bytes.TrimRight(b[i:], " \t")
	if len(b) < n {
		return false
	}
	for _, x := range b {
		if x != c {
			return false
		}
	}
	return true
}

var listMarker = func(b []byte) bool {
	_, n := indent(b)
	b = b[n:]
	if len(b) >= 2 && (b[0] == '-' || b[0] == '*' || b[0] == '+') && (b[1] == ' ' || b[1] == '\t') {
		return true
	}
	d := 0
	for d < len(b) && d < 9 && b[d] >= '0' && b[d] <= '9' {
		d++
	}
	return d > 0 && d+1 < len(b) && (b[d] == '.' || b[d] == ')') && (b[d+1] == ' ' || b[d+1] == '\t')
}

// htmlBlockEnd says how the HTML block b opens ends: "" not one, "\n" at a
// blank line, else the text that ends it.
func htmlBlockEnd(b []byte, inPara bool) string {
	w, n := indent(b)
	if w > 3 {
		return ""
	}
	s := strings.ToLower(string(b[n:]))
	if !strings.HasPrefix(s, "<") {
		return ""
	}
	for _, t := range []string{"script", "pre", "style", "textarea"} {
		if strings.HasPrefix(s[1:], t) && (len(s) == len(t)+1 || strings.ContainsRune(" \t>", rune(s[len(t)+1]))) {
			return "</" + t + ">"
		}
	}
	switch {
	case strings.HasPrefix(s, "<!--"):
		return "-->"
	case strings.HasPrefix(s, "<?"):
		return "?>"
	case strings.HasPrefix(s, "<![cdata["):
		return "]]>"
	case len(s) > 2 && s[1] == '!' && s[2] >= 'a' && s[2] <= 'z':
		return ">"
	}
	name := strings.TrimPrefix(s[1:], "/")
	k := 0
	for k < len(name) && (name[k] >= 'a' && name[k] <= 'z' || name[k] >= '0' && name[k] <= '9' || name[k] == '-') {
		k++
	}
	if k == 0 {
		return ""
	}
	if blockTags[name[:k]] && (k == len(name) || strings.ContainsRune(" \t>/", rune(name[k]))) {
		return "\n"
	}
	if inPara { // type 7 cannot interrupt a paragraph
		return ""
	}
	if rest := strings.TrimSpace(s); strings.HasSuffix(rest, ">") && !strings.Contains(rest[:len(rest)-1], ">") && k > 0 {
		return "\n"
	}
	return ""
}

var blockTags = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`address article aside base basefont blockquote body caption center col colgroup dd
		details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head
		header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search
		section summary table tbody td tfoot th thead title tr track ul`) {
		blockTags[t] = true
	}
}

// blocks splits md from from into the paragraphs whose text is inline
// Markdown, leaving out code blocks and HTML blocks.
func (p *parser) blocks(from int) []*para {
	var out []*para
	var cur *para
	closePara := func() {
		if cur != nil {
			out = append(out, cur)
			cur = nil
		}
	}
	ls := p.lines(from)
	inList, prevBlank := false, true
	for i := 0; i < len(ls); i++ {
		b := p.md[ls[i].start:ls[i].end]
		switch {
		case blank(b):
			closePara()
			prevBlank = true
			continue
		}
		w, _ := indent(b)
		if listMarker(b) {
			inList = true
		} else if w == 0 && (prevBlank || cur == nil) { // not a lazy continuation: the list ended
			inList = false
		}
		if c, n := fence(b); c != 0 && (w <= 3 || inList) {
			// A fence in a list item ends with the item: at a line indented
			// less than the fence (CommonMark's container rule).
			closePara()
			for i++; i < len(ls); i++ {
				lb := p.md[ls[i].start:ls[i].end]
				if lw, _ := indent(lb); w > 0 && inList && !blank(lb) && lw < w {
					i--
					break
				}
				if closesFence(lb, c, n) {
					break
				}
			}
			prevBlank = false
			continue
		}
		if w >= 4 && cur == nil && !inList { // indented code
			for i+1 < len(ls) {
				nb := p.md[ls[i+1].start:ls[i+1].end]
				if nw, _ := indent(nb); !blank(nb) && nw < 4 {
					break
				}
				i++
			}
			prevBlank = false
			continue
		}
		if end := htmlBlockEnd(b, cur != nil); end != "" {
			closePara()
			for ; i < len(ls); i++ {
				lb := p.md[ls[i].start:ls[i].end]
				if end == "\n" && blank(lb) || end != "\n" && strings.Contains(strings.ToLower(string(lb)), end) {
					break
				}
			}
			prevBlank = end == "\n"
			continue
		}
		prevBlank = false
		if cur == nil {
			cur = &para{start: ls[i].start}
		}
		cur.end = ls[i].next
	}
	closePara()
	return out
}

// definitions reads the link reference definitions at the start of r and
// returns where its text begins.
func (p *parser) definitions(r *para) int {
	pos := r.start
	for pos < r.end {
		next, ok := p.definition(pos, r.end)
		if !ok {
			break
		}
		pos = next
	}
	return pos
}

// definition reads one `[label]: dest "title"` at pos.
func (p *parser) definition(pos, end int) (int, bool) {
	md := p.md[:end]
	w, n := indent(md[pos:])
	i := pos + n
	if w > 3 || i >= len(md) || md[i] != '[' {
		return 0, false
	}
	close := labelEnd(md, i)
	if close < 0 || close+1 >= len(md) || md[close+1] != ':' {
		return 0, false
	}
	label := normalize(md[i+1 : close])
	if label == "" {
		return 0, false
	}
	j := skipSpace(md, close+2)
	dest, k, ok := destination(md, j)
	if !ok || (k == j) {
		return 0, false
	}
	// an optional title, then the end of the line
	t := skipSpace(md, k)
	if t < len(md) && t > k && (md[t] == '"' || md[t] == '\'' || md[t] == '(') {
		if e, ok := title(md, t); ok && lineRestBlank(md, e) {
			k = e
		}
	}
	if !lineRestBlank(md, k) {
		return 0, false
	}
	if _, dup := p.refs[label]; !dup {
		p.refs[label] = dest
	}
	if nl := bytes.IndexByte(md[k:], '\n'); nl >= 0 {
		return k + nl + 1, true
	}
	return len(md), true
}

func lineRestBlank(md []byte, i int) bool {
	for ; i < len(md) && md[i] != '\n'; i++ {
		if md[i] != ' ' && md[i] != '\t' && md[i] != '\r' {
			return false
		}
	}
	return true
}

// skipSpace skips spaces, tabs and at most one line end.
func skipSpace(md []byte, i int) int {
	nl := false
	for i < len(md) {
		switch c := md[i]; {
		case c == ' ' || c == '\t' || c == '\r':
		case c == '\n' && !nl:
			nl = true
		default:
			return i
		}
		i++
	}
	return i
}

// labelEnd returns the index of the ']' closing the label opened at i, or -1.
func labelEnd(md []byte, i int) int {
	for j := i + 1; j < len(md) && j-i <= 1000; j++ {
		switch md[j] {
		case '\\':
			j++
		case '[':
			return -1
		case ']':
			return j
		}
	}
	return -1
}

// normalize is a reference label as CommonMark matches it: trimmed, inner
// whitespace collapsed, case folded.
func normalize(b []byte) string {
	return strings.ToLower(strings.Join(strings.Fields(string(b)), " "))
}

// destination reads a link destination at i: <...> or a run without spaces
// or control characters whose parentheses balance.
func destination(md []byte, i int) (string, int, bool) {
	if i < len(md) && md[i] == '<' {
		for j := i + 1; j < len(md); j++ {
			switch md[j] {
			case '\\':
				j++
			case '\n', '<':
				return "", 0, false
			case '>':
				return string(md[i+1 : j]), j + 1, true
			}
		}
		return "", 0, false
	}
	open, j := 0, i
	for ; j < len(md); j++ {
		c := md[j]
		if c == '\\' && j+1 < len(md) && isPunct(md[j+1]) {
			j++
			continue
		}
		if c == '(' {
			open++
		} else if c == ')' {
			if open--; open < 0 {
				break
			}
		} else if c <= ' ' {
			break
		}
	}
	return string(md[i:j]), j, j > i
}

// title reads a link title at i and returns the index after it.
func title(md []byte, i int) (int, bool) {
	closer := md[i]
	if closer == '(' {
		closer = ')'
	}
	for j := i + 1; j < len(md); j++ {
		switch {
		case md[j] == '\\':
			j++
		case md[j] == closer:
			return j + 1, true
		case md[j] == '(' && closer == ')':
			return 0, false
		}
	}
	return 0, false
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// opener is a '[' or '![' waiting for its ']'.
type opener struct {
	at, text     int // the '[' and the text after it
	image        bool
	containsLink bool
}

// inline finds the links of one paragraph, left to right, with CommonMark's
// stack of brackets: code spans, autolinks, raw HTML and escapes first.
func (p *parser) inline(r *para) []Link {
	md := p.md[:r.end]
	var out []Link
	var stack []opener
	for i := r.text; i < len(md); {
		switch c := md[i]; c {
		case '\\':
			i += 2
		case '`':
			i = codeSpan(md, i)
		case '<':
			i = angle(md, i)
		case '!':
			if i+1 < len(md) && md[i+1] == '[' {
				stack = append(stack, opener{at: i, text: i + 2, image: true})
				i += 2
			} else {
				i++
			}
		case '[':
			stack = append(stack, opener{at: i, text: i + 1})
			i++
		case ']':
			if len(stack) == 0 {
				i++
				continue
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !o.image && o.containsLink {
				i++
				continue
			}
			dest, next, ok := p.linkAfter(md, o, i)
			if !ok {
				i++
				continue
			}
			off := o.text
			if off == i { // empty text: the paragraph's start
				off = r.start
			}
			out = append(out, Link{Dest: dest, Image: o.image, Offset: off, at: o.at})
			if !o.image {
				for k := range stack {
					stack[k].containsLink = true
				}
			}
			i = next
		default:
			i++
		}
	}
	return out
}

// linkAfter reads what follows the ']' at close of the label opened by o: an
// inline destination, or a full, collapsed or shortcut reference.
func (p *parser) linkAfter(md []byte, o opener, close int) (string, int, bool) {
	i := close + 1
	if i < len(md) && md[i] == '(' {
		if dest, next, ok := inlineDest(md, i); ok {
			return dest, next, true
		}
	}
	if i < len(md) && md[i] == '[' {
		if e := labelEnd(md, i); e >= 0 {
			label := normalize(md[i+1 : e])
			if label == "" { // collapsed
				label = normalize(md[o.text:close])
			}
			if d, ok := p.refs[label]; ok && label != "" {
				return d, e + 1, true
			}
			if strings.TrimSpace(string(md[i+1:e])) != "" {
				return "", 0, false // a full reference that is not defined: no link
			}
		}
	}
	if close-o.text > 999 {
		return "", 0, false
	}
	if d, ok := p.refs[normalize(md[o.text:close])]; ok {
		return d, close + 1, true
	}
	return "", 0, false
}

// inlineDest reads `(dest "title")` at i.
func inlineDest(md []byte, i int) (string, int, bool) {
	j := skipSpace(md, i+1)
	if j < len(md) && md[j] == ')' {
		return "", j + 1, true
	}
	dest, k, ok := destination(md, j)
	if !ok {
		return "", 0, false
	}
	k2 := skipSpace(md, k)
	if k2 < len(md) && md[k2] == ')' {
		return dest, k2 + 1, true
	}
	if k2 == k || k2 >= len(md) || (md[k2] != '"' && md[k2] != '\'' && md[k2] != '(') {
		return "", 0, false
	}
	e, ok := title(md, k2)
	if !ok {
		return "", 0, false
	}
	e = skipSpace(md, e)
	if e < len(md) && md[e] == ')' {
		return dest, e + 1, true
	}
	return "", 0, false
}

// codeSpan skips the code span whose backticks start at i, or the run of
// backticks when nothing closes it.
func codeSpan(md []byte, i int) int {
	n := 0
	for i+n < len(md) && md[i+n] == '`' {
		n++
	}
	for j := i + n; j < len(md); {
		if md[j] != '`' {
			j++
			continue
		}
		k := 0
		for j+k < len(md) && md[j+k] == '`' {
			k++
		}
		if k == n {
			return j + k
		}
		j += k
	}
	return i + n
}

// angle skips an autolink or a raw HTML tag at i, else the '<'.
func angle(md []byte, i int) int {
	j := i + 1
	if j >= len(md) {
		return j
	}
	c := md[j]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?') {
		return j
	}
	for k := j; k < len(md); k++ {
		switch md[k] {
		case '>':
			return k + 1
		case '<':
			return j
		case ' ', '\n', '\t':
			if !isTagLike(md[j:k]) {
				return j
			}
		}
	}
	return j
}

// isTagLike reports whether s, before a space, can begin an HTML tag (so
// spaces may follow): a tag name, or a closing tag's.
func isTagLike(s []byte) bool {
	s = bytes.TrimPrefix(s, []byte("/"))
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '!' || c == '?' || c == '=' || c == '"' || c == '\'' || c == '.' || c == ':' || c == '/' || c == '_') {
			return false
		}
	}
	return true
}
