package index

import (
	"bytes"
	"unicode/utf8"
)

// Bounds of the headings a skill keeps for the matchers (core.Skill.Headings):
// enough to route by a body's outline, little enough that 10,000 skills stay
// small in memory.
const (
	// MaxHeadings is how many headings a skill keeps.
	MaxHeadings = 24
	// maxHeadingBytes bounds one heading.
	maxHeadingBytes = 80
)

// headingsOf returns the ATX headings of body outside fenced code blocks (the
// `#` marks and trailing `#`s removed, each cut to maxHeadingBytes), at most
// MaxHeadings of them. They share no memory with body, and one allocation
// with each other.
func headingsOf(body []byte) []string {
	var heads [MaxHeadings][2]int // offsets of each heading in text
	var text [MaxHeadings * maxHeadingBytes]byte
	nh, ht := 0, 0 // headings, bytes of text they use
	fence := ""
	for len(body) > 0 && nh < MaxHeadings {
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
			if h := cutUTF8(bytes.TrimSpace(bytes.Trim(t, "#")), maxHeadingBytes); len(h) > 0 {
				heads[nh] = [2]int{ht, ht + len(h)}
				ht += copy(text[ht:], h)
				nh++
			}
		}
	}
	if nh == 0 {
		return nil
	}
	all := string(text[:ht])
	headings := make([]string, nh)
	for i := range nh {
		headings[i] = all[heads[i][0]:heads[i][1]]
	}
	return headings
}

// cutUTF8 returns b cut to at most n bytes without splitting a character.
func cutUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}
