package index

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"sync"
	"unsafe"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// bodySeed seeds core.BodyInfo.Digest: digests compare within one process.
var bodySeed = maphash.MakeSeed()

// bodyInfoOf describes body for core.Skill.Body.
func bodyInfoOf(body []byte) core.BodyInfo {
	return core.BodyInfo{
		Size:        len(body),
		TrimmedSize: len(bytes.TrimSpace(body)),
		Digest:      maphash.Bytes(bodySeed, body),
	}
}

// Body returns the Markdown body of s, after its frontmatter block, byte for
// byte. Bodies are not kept in the index (at 10,000 skills they would be
// about half of its memory): each is read from s.AbsPath when asked for, and
// the snapshot keeps the ones read recently (bodyCacheBytes). An edit made
// since the rebuild that indexed s is served as soon as it is read; the
// rebuild that follows it (live reload, refresh_skills) brings the rest of the
// skill up to date. It fails, naming the skill and the file, when the file
// cannot be read or no longer opens with a frontmatter block.
func (sn *Snapshot) Body(s *core.Skill) (string, error) {
	if body, ok := sn.bodies.get(s); ok {
		return body, nil
	}
	body, err := sn.ReadBody(s)
	if err != nil {
		return "", err
	}
	sn.bodies.put(s, body)
	return body, nil
}

// ReadBody is Body read from the file now, without the snapshot's cache:
// for a reader of every body once (skills_search's index), which would
// otherwise push the bodies every answer inherits out of the cache.
func (sn *Snapshot) ReadBody(s *core.Skill) (string, error) {
	// Confined to the skills directory at the moment of use: a folder swapped
	// for a symlink out of the tree since indexing is refused (issue 16, item 1).
	data, err := sn.root(fileRootDir(s)).ReadFile(s.AbsPath, sn.maxFile)
	if err != nil {
		return "", fmt.Errorf("reading the body of skill %s: %w (the file changed since it was indexed; refresh_skills reindexes)", s.Path, err)
	}
	split, err := frontmatter.Split(data)
	if err != nil {
		return "", fmt.Errorf("reading the body of skill %s from %s: %w (the file changed since it was indexed; refresh_skills reindexes)", s.Path, s.AbsPath, err)
	}
	// data was read for this call alone and is never written again: the
	// body is a string over it rather than a second copy of every body read.
	return unsafe.String(unsafe.SliceData(split.Body), len(split.Body)), nil
}

// bodyCacheBytes bounds the bodies a snapshot keeps: a few hundred typical
// skills, enough for the `_root` and `_index` files every answer inherits and
// for the skills asked for repeatedly.
const bodyCacheBytes = 1 << 20

// bodyCache keeps recently read bodies up to bodyCacheBytes, evicting with the
// second-chance (clock) rule: a body read again since it was last passed over
// survives one more round, so the bodies every chain holds stay.
type bodyCache struct {
	mu      sync.Mutex
	entries map[*core.Skill]*cachedBody
	ring    []*core.Skill // insertion order; hand is the next one to consider
	hand    int
	bytes   int
}

type cachedBody struct {
	text string
	used bool
}

func (c *bodyCache) get(s *core.Skill) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[s]
	if !ok {
		return "", false
	}
	e.used = true
	return e.text, true
}

func (c *bodyCache) put(s *core.Skill, text string) {
	if len(text) > bodyCacheBytes/8 {
		return // a very large body would push out many others
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[*core.Skill]*cachedBody{}
	}
	if _, ok := c.entries[s]; ok {
		return
	}
	for c.bytes+len(text) > bodyCacheBytes && len(c.ring) > 0 {
		c.evictOne()
	}
	c.entries[s] = &cachedBody{text: text}
	c.ring = append(c.ring, s)
	c.bytes += len(text)
}

// evictOne removes the first body at or after the hand that was not used
// since the hand last passed it, clearing the marks it passes over.
func (c *bodyCache) evictOne() {
	for {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		s := c.ring[c.hand]
		e := c.entries[s]
		if e.used {
			e.used = false
			c.hand++
			continue
		}
		delete(c.entries, s)
		c.bytes -= len(e.text)
		c.ring = append(c.ring[:c.hand], c.ring[c.hand+1:]...)
		return
	}
}

// detachStrings copies the strings a skill keeps from its frontmatter, so the
// frontmatter text they were cut from (and the decoded map) can be freed, and
// the buffer the file was read into read into again. All are copied into one
// allocation (about six strings per skill at 10,000 skills were 60,000
// allocations per build); they live and die with the skill.
func detachStrings(s *core.Skill) {
	n := len(s.Name) + len(s.Description)
	eachString(s, func(p *string) { n += len(*p) })
	buf := make([]byte, 0, n)
	buf = append(append(buf, s.Name...), s.Description...)
	eachString(s, func(p *string) { buf = append(buf, *p...) })
	all, at := unsafe.String(unsafe.SliceData(buf), len(buf)), 0
	cut := func(p *string) {
		*p, at = all[at:at+len(*p)], at+len(*p)
	}
	cut(&s.Name)
	cut(&s.Description)
	eachString(s, cut)
}

// eachString calls f on each string of the skill's keywords, assets and
// scripts, in one order.
func eachString(s *core.Skill, f func(*string)) {
	for i := range s.Keywords {
		f(&s.Keywords[i])
	}
	for i := range s.Assets {
		a := &s.Assets[i]
		f(&a.File)
		f(&a.Description)
		f(&a.Type)
	}
	for i := range s.Scripts {
		sc := &s.Scripts[i]
		f(&sc.File)
		f(&sc.Description)
		f(&sc.Execution)
		for j := range sc.Needs {
			f(&sc.Needs[j])
		}
		for j := range sc.Args {
			f(&sc.Args[j].Name)
			f(&sc.Args[j].Description)
		}
	}
}
