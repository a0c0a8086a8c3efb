package index

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Bounds of what a skill keeps of its body for the matchers (core.Skill.Headings
// and Lead): enough to route by a body's outline and opening words, little
// enough that 10,000 skills stay small in memory.
const (
	// MaxHeadings is how many headings a skill keeps.
	MaxHeadings = 24
	// maxHeadingBytes bounds one heading.
	maxHeadingBytes = 80
	// MaxLeadBytes bounds the start of the body kept as plain words.
	MaxLeadBytes = 400
)

// outlineOf returns the ATX headings of body outside fenced code blocks (the
// `#` marks and trailing `#`s removed) and the start of its prose: the lines
// that are neither headings, code, tables nor blank, markup characters
// dropped, cut at a word boundary within MaxLeadBytes. The strings share no
// memory with body.
func outlineOf(body []byte) (headings []string, lead string) {
	var b strings.Builder
	fence := ""
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		t := bytes.TrimSpace(line)
		if fence != "" {
			if bytes.HasPrefix(t, []byte(fence)) {
				fence = ""
			}
			continue
		}
		switch {
		case bytes.HasPrefix(t, []byte("```")):
			fence = "```"
		case bytes.HasPrefix(t, []byte("~~~")):
			fence = "~~~"
		case len(t) > 1 && t[0] == '#':
			if len(headings) < MaxHeadings {
				h := strings.TrimSpace(strings.Trim(string(t), "#"))
				if h != "" {
					headings = append(headings, cutUTF8(h, maxHeadingBytes))
				}
			}
		case len(t) == 0 || t[0] == '|' || t[0] == '<' || bytes.HasPrefix(t, []byte("---")):
		default:
			if b.Len() < MaxLeadBytes {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(plainWords(t))
			}
		}
	}
	return headings, cutWords(b.String(), MaxLeadBytes)
}

// plainWords drops Markdown markup characters that glue to words.
func plainWords(line []byte) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`', '[', ']', '(', ')', '>', '#', '|':
			return ' '
		}
		return r
	}, string(line))
}

// cutUTF8 returns s cut to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cutWords returns s cut to at most n bytes at a space when there is one.
func cutWords(s string, n int) string {
	if len(s) <= n {
		return strings.Clone(s)
	}
	s = cutUTF8(s, n)
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	return strings.Clone(s)
}
