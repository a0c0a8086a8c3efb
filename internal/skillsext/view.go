package skillsext

import (
	"encoding/json"
	"net/url"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// skillScheme prefixes every URI the extension serves.
const skillScheme = "skill://"

// MIME types of the extension.
const (
	markdownMIME  = "text/markdown"
	directoryMIME = "inode/directory"
)

// skillsView is the skill:// namespace of one index snapshot, built the first
// time a request needs it: every served skill, every file as a resource, every
// directory. Keys are URIs without the scheme (`ui/react/auth/SKILL.md`). It is
// built from what the rebuild listed (names and sizes), without reading a
// file; the digests of skills/list and skills/get are computed when first
// asked for, and computed again when a file's stat says it changed. Apart
// from those, it is never modified once built.
type skillsView struct {
	snap   *index.Snapshot
	skills []*servedSkill          // sorted by URI
	byURI  map[string]*servedSkill // SKILL.md URI → skill
	files  map[string]*servedFile  // key → file
	keys   []string                // file keys, sorted
	dirs   map[string][]*mcp.Resource
	listed []*mcp.Resource // what resources/list shows: every file whose URI parses, sorted by URI

	manifestMu sync.Mutex
	manifests  map[*core.Skill][]index.ManifestFile // owner → its manifest, as the snapshot computed it
}

// servedSkill is one skill as the extension serves it.
type servedSkill struct {
	skill *core.Skill
	path  string // `ui/react/auth`
	uri   string // `skill://ui/react/auth/SKILL.md`

	once        sync.Once
	frontmatter json.RawMessage
}

// servedFile is one file resource: a file of a skill's directory on disk, or
// the SKILL.md rendered for a tree skill.
type servedFile struct {
	owner    *core.Skill   // the skill whose directory holds the file
	rel      string        // path relative to owner.ResourceDir; "" for a rendered file
	linked   bool          // an Agent Skill's SKILL.md read through its link (rel ""), not rendered
	binary   bool          // served as a blob
	resource *mcp.Resource // as resources/list and directory reads show it

	listedAt time.Time // the modification time the rebuild listed, for a file on disk

	once   sync.Once
	digest string // "" when the file could not be read to hash it
	hashed int64  // the number of bytes digest covers

	stateMu sync.Mutex
	state   index.FileState // what digest was computed from, for a file on disk
}

// viewBuilder assembles a skillsView, resolving collisions first come, first served.
type viewBuilder struct {
	log   hclog.Logger
	v     *skillsView
	isDir map[string]bool
	// collisions are the skills left out because their URI is another's.
	collisions []Collision
}

// buildSkillsView maps snap onto the skill:// namespace (see extensionPath and
// docs/SKILLS-EXTENSION.md). Skills claim their paths in claimOrder; a skill
// whose path is taken is not served. Every SKILL.md is placed before the
// other files, then the files of deeper skills before those of shallower
// ones; a file whose URI is taken, or collides with a directory, is left out.
// The skills left out are summed up in one warning (each at debug level;
// `validate` names each pair), each file left out is logged.
func buildSkillsView(snap *index.Snapshot, log hclog.Logger) *skillsView {
	b := newViewBuilder(snap, log)
	b.build()
	b.logCollisions()
	return b.v
}

func newViewBuilder(snap *index.Snapshot, log hclog.Logger) *viewBuilder {
	return &viewBuilder{log: log, isDir: map[string]bool{}, v: &skillsView{
		snap:      snap,
		byURI:     map[string]*servedSkill{},
		files:     map[string]*servedFile{},
		dirs:      map[string][]*mcp.Resource{},
		manifests: map[*core.Skill][]index.ManifestFile{},
	}}
}

// claimOrder ranks who claims a URI first: an Agent Skill whose folder bears
// its name (the folder is its identity: `code-review/` over an `aaa-helper/`
// whose frontmatter says `name: code-review`), then the other Agent Skills,
// then tree skills; path order within each.
func claimOrder(s *core.Skill) int {
	switch {
	case s.Format != core.FormatAgentSkill:
		return 2
	case path.Base(s.Path) == s.Name:
		return 0
	default:
		return 1
	}
}

func (b *viewBuilder) build() {
	snap := b.v.snap
	skills := snap.Skills()
	sort.SliceStable(skills, func(i, j int) bool { return claimOrder(skills[i]) < claimOrder(skills[j]) })
	claimed := map[string]*core.Skill{}
	var served []*servedSkill
	for _, s := range skills {
		p, name := extensionPath(s)
		if prev, taken := claimed[p]; taken {
			b.collisions = append(b.collisions, Collision{URI: skillScheme + p, Skill: s, Holder: prev})
			continue
		}
		ss, md := b.skillMD(snap, s, p, name)
		if md == nil || !b.addFile(p+"/"+skillFile, md) {
			b.log.Warn("skills extension: not serving a skill whose "+skillFile+" URI is taken", "skill", s.Path, "uri", skillScheme+p+"/"+skillFile)
			continue
		}
		claimed[p] = s
		served = append(served, ss)
	}
	sort.SliceStable(served, func(i, j int) bool {
		di, dj := strings.Count(served[i].path, "/"), strings.Count(served[j].path, "/")
		if di != dj {
			return di > dj
		}
		return served[i].path < served[j].path
	})
	for _, ss := range served {
		b.addSupportingFiles(ss)
	}
	b.finish(served)
}

// skillMD builds the served skill and its SKILL.md: the file on disk for an
// Agent Skill (nil when its listing lacks it), the rendered one for a tree skill.
func (b *viewBuilder) skillMD(snap *index.Snapshot, s *core.Skill, p, name string) (*servedSkill, *servedFile) {
	ss := &servedSkill{skill: s, path: p, uri: skillScheme + p + "/" + skillFile}
	res := &mcp.Resource{URI: ss.uri, Name: name, Description: s.Description, MIMEType: markdownMIME}
	if s.Format != core.FormatAgentSkill {
		res.Size = virtualSkillMDLen(snap, s, name)
		return ss, &servedFile{owner: s, resource: res}
	}
	for _, f := range snap.Files(s) {
		if f.Path == skillFile {
			res.Size = f.Size
			return ss, &servedFile{owner: s, rel: f.Path, resource: res, listedAt: f.ModTime}
		}
	}
	// A SKILL.md the folder's listing lacks: a symlink to a file elsewhere in
	// the skills directory, which the index read as the skill (confined to
	// the skills directory, not to the folder). It is served as read so.
	fi, err := os.Stat(s.AbsPath)
	if err != nil || !fi.Mode().IsRegular() {
		return ss, nil
	}
	res.Size = fi.Size()
	return ss, &servedFile{owner: s, linked: true, resource: res}
}

// virtualSkillMDLen is len(virtualSkillMD(snap, s, name)), without rendering it.
func virtualSkillMDLen(snap *index.Snapshot, s *core.Skill, name string) int64 {
	return int64(len("---\nname: ") + len(quoteYAML(name)) + len("\ndescription: ") + len(quoteYAML(s.Description)) +
		len("\n---\n\n") + snap.ContentLen(s) + len("\n"))
}

// addSupportingFiles adds the files of ss's directory other than its SKILL.md.
func (b *viewBuilder) addSupportingFiles(ss *servedSkill) {
	s := ss.skill
	for _, f := range b.v.snap.Files(s) {
		if s.Format == core.FormatAgentSkill && f.Path == skillFile {
			continue
		}
		key := ss.path + "/" + escapeFilePath(f.Path)
		binary := isBinaryFile(f.Path)
		file := &servedFile{owner: s, rel: f.Path, binary: binary, listedAt: f.ModTime, resource: &mcp.Resource{
			URI: skillScheme + key, Name: path.Base(f.Path), MIMEType: fileMIME(f.Path), Size: f.Size,
		}}
		if !b.addFile(key, file) {
			b.log.Warn("skills extension: not serving a file whose URI is already served or is a directory", "file", f.Path, "skill", s.Path, "uri", skillScheme+key)
		}
	}
}

// addFile places f at key unless key is taken by a file or a directory, or one
// of its parent directories is a file.
func (b *viewBuilder) addFile(key string, f *servedFile) bool {
	if _, taken := b.v.files[key]; taken || b.isDir[key] {
		return false
	}
	for i := strings.IndexByte(key, '/'); i >= 0; i = nextSlash(key, i) {
		if _, isFile := b.v.files[key[:i]]; isFile {
			return false
		}
	}
	b.v.files[key] = f
	for i := strings.IndexByte(key, '/'); i >= 0; i = nextSlash(key, i) {
		b.isDir[key[:i]] = true
	}
	return true
}

// nextSlash returns the index of the next `/` of key after i, or -1.
func nextSlash(key string, i int) int {
	j := strings.IndexByte(key[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// finish sorts the files, lists them for resources/list, fills in the
// directories and each skill's complete list of resources, and logs each skill
// over the extension's limits.
func (b *viewBuilder) finish(served []*servedSkill) {
	v := b.v
	for key := range v.files {
		v.keys = append(v.keys, key)
	}
	sort.Strings(v.keys)
	v.listed = make([]*mcp.Resource, 0, len(v.keys))
	for _, key := range v.keys {
		r := v.files[key].resource
		if _, err := url.Parse(r.URI); err != nil {
			b.log.Warn("skills extension: not listing a resource whose URI does not parse", "uri", r.URI, "error", err)
			continue
		}
		v.listed = append(v.listed, r)
	}
	children := map[string]map[string]*mcp.Resource{}
	for _, key := range v.keys {
		for child := key; ; {
			i := strings.LastIndexByte(child, '/')
			if i < 0 {
				break
			}
			parent := child[:i]
			if children[parent] == nil {
				children[parent] = map[string]*mcp.Resource{}
			}
			if _, seen := children[parent][child]; seen {
				break // listed already, and so are its ancestors
			}
			if file, ok := v.files[child]; ok {
				children[parent][child] = file.resource
			} else {
				children[parent][child] = directoryResource(child)
			}
			child = parent
		}
	}
	for dir, kids := range children {
		list := make([]*mcp.Resource, 0, len(kids))
		for _, r := range kids {
			list = append(list, r)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].URI < list[j].URI })
		v.dirs[dir] = list
	}
	for _, ss := range served {
		count, total := 0, int64(0)
		for _, key := range v.keysUnder(ss.path) {
			count, total = count+1, total+v.files[key].resource.Size
		}
		if count > index.ExtensionMaxFiles || total > index.ExtensionMaxBytes {
			b.log.Warn("skills extension: a skill lists more than the extension's limits (nested skills included); served anyway",
				"uri", ss.uri, "files", count, "bytes", total, "max_files", index.ExtensionMaxFiles, "max_bytes", index.ExtensionMaxBytes)
		}
		v.byURI[ss.uri] = ss
		v.skills = append(v.skills, ss)
	}
	sort.Slice(v.skills, func(i, j int) bool { return v.skills[i].uri < v.skills[j].uri })
}

// directoryResource describes the directory at key.
func directoryResource(key string) *mcp.Resource {
	name := key[strings.LastIndexByte(key, '/')+1:]
	if unescaped, err := url.PathUnescape(name); err == nil {
		name = unescaped
	}
	return &mcp.Resource{URI: skillScheme + key, Name: name, MIMEType: directoryMIME}
}

// keysUnder returns the keys of every file below the directory dir, sorted.
func (v *skillsView) keysUnder(dir string) []string {
	prefix := dir + "/"
	start := sort.SearchStrings(v.keys, prefix)
	end := start + sort.Search(len(v.keys)-start, func(i int) bool { return !strings.HasPrefix(v.keys[start+i], prefix) })
	return v.keys[start:end]
}

// entry is the Skill object of ss: its frontmatter (computed the first time
// it is asked for) and every file below its directory with its digest as the
// file is now (digest). A file that cannot be read is left out: what is
// listed can be read, and reads the bytes its digest covers.
func (v *skillsView) entry(ss *servedSkill) skillEntry {
	ss.once.Do(func() {
		s := ss.skill
		switch {
		case s.Format != core.FormatAgentSkill:
			_, name := extensionPath(s)
			ss.frontmatter, _ = json.Marshal(virtualFrontmatter{Name: name, Description: s.Description}) // two strings: cannot fail
		default:
			ss.frontmatter = v.snap.FrontmatterJSON(s)
		}
	})
	keys := v.keysUnder(ss.path)
	resources := make([]skillResource, 0, len(keys))
	for _, key := range keys {
		f := v.files[key]
		if digest, size := v.digest(f); digest != "" {
			resources = append(resources, skillResource{URI: skillScheme + key, Digest: digest, Size: size})
		}
	}
	return skillEntry{URI: ss.uri, Frontmatter: ss.frontmatter, Resources: resources}
}

// digest returns the digest of f and the number of bytes it covers. A
// rendered SKILL.md is rendered and hashed once. A file on disk takes its
// owner's manifest first, then is stat'ed at every call and hashed again when
// its size or modification time moved: with or without the watcher, the
// digest advertised is that of the bytes a read returns (issue 15, item 3).
// "" when the file cannot be read now.
func (v *skillsView) digest(f *servedFile) (string, int64) {
	f.once.Do(func() {
		if f.rel == "" {
			content, err := v.render(f)
			if err == nil {
				f.digest, f.hashed = index.Digest(content), int64(len(content))
			}
			return
		}
		m := v.manifest(f.owner)
		i := sort.Search(len(m), func(i int) bool { return m[i].Path >= f.rel })
		if i < len(m) && m[i].Path == f.rel {
			f.digest, f.hashed = m[i].Digest, m[i].Size
			f.state = index.FileState{Size: m[i].Size, ModTime: f.listedAt, Digest: m[i].Digest}
		}
	})
	if f.rel == "" {
		return f.digest, f.hashed
	}
	f.stateMu.Lock()
	defer f.stateMu.Unlock()
	now, err := v.snap.StatNow(f.owner, f.rel)
	if err != nil {
		return "", 0
	}
	if f.state.Digest == "" || !now.Same(f.state) {
		if now, err = v.snap.HashNow(f.owner, f.rel); err != nil {
			return "", 0
		}
		f.state = now
	}
	return f.state.Digest, f.state.Size
}

// manifest returns the manifest of owner, asked of the snapshot once per view.
func (v *skillsView) manifest(owner *core.Skill) []index.ManifestFile {
	v.manifestMu.Lock()
	m, ok := v.manifests[owner]
	v.manifestMu.Unlock()
	if ok {
		return m
	}
	m = v.snap.Manifest(owner) // computed once per snapshot, outside the lock
	v.manifestMu.Lock()
	v.manifests[owner] = m
	v.manifestMu.Unlock()
	return m
}

// render returns the SKILL.md f served without a path in its folder: a tree
// skill's, rendered; an Agent Skill's linked one, read as the index reads it.
func (v *skillsView) render(f *servedFile) ([]byte, error) {
	if f.linked {
		return v.snap.SkillFile(f.owner)
	}
	content, err := virtualSkillMD(v.snap, f.owner, f.resource.Name)
	return content, err
}

// file returns the file served at uri.
func (v *skillsView) file(uri string) (*servedFile, bool) {
	key, ok := strings.CutPrefix(uri, skillScheme)
	if !ok {
		return nil, false
	}
	f, ok := v.files[key]
	return f, ok
}
