package skillsext

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/cursor"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// textMIME maps the extensions of common text files to their MIME type; other
// text files are text/plain, binary ones take index.MIMEType.
var textMIME = map[string]string{
	".md":   markdownMIME,
	".txt":  "text/plain",
	".json": "application/json",
	".yaml": "application/yaml",
	".yml":  "application/yaml",
	".toml": "application/toml",
	".xml":  "application/xml",
	".html": "text/html",
	".css":  "text/css",
	".csv":  "text/csv",
	".js":   "text/javascript",
	".mjs":  "text/javascript",
	".ts":   "text/x-typescript",
	".tsx":  "text/x-typescript",
	".py":   "text/x-python",
	".sh":   "text/x-shellscript",
	".go":   "text/x-go",
}

// extraBinaryMIME maps binary extensions beyond spec 000 §7.2's that skills
// commonly hold (compiled .wasm scripts, archives): they are served as blobs.
var extraBinaryMIME = map[string]string{
	".wasm": "application/wasm",
	".gz":   "application/gzip",
	".tgz":  "application/gzip",
	".tar":  "application/x-tar",
	".bin":  "application/octet-stream",
}

// isBinaryFile reports a file served as a blob whatever its bytes.
func isBinaryFile(file string) bool {
	_, extra := extraBinaryMIME[strings.ToLower(path.Ext(file))]
	return extra || index.IsBinary(file)
}

// fileMIME is the MIME type of a skill file by its name.
func fileMIME(file string) string {
	ext := strings.ToLower(path.Ext(file))
	if m, ok := extraBinaryMIME[ext]; ok {
		return m
	}
	if index.IsBinary(file) {
		return index.MIMEType(file)
	}
	if m, ok := textMIME[ext]; ok {
		return m
	}
	return "text/plain"
}

// skillURITemplate is the one resource template of the extension: it matches
// every skill:// URI, and its handler serves the file of the current snapshot.
const skillURITemplate = skillScheme + "{+path}"

// resourcesPageSize is the number of resources in one resources/list page (the
// go-sdk's default page size).
const resourcesPageSize = mcp.DefaultPageSize

// methodResourcesList is the method the extension answers from the snapshot.
const methodResourcesList = "resources/list"

// addTemplate registers (or registers again) the skill:// resource template.
// The go-sdk announces notifications/resources/list_changed to every session
// each time it is called with a session connected.
func (e *Extension) addTemplate() {
	e.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: skillURITemplate,
		Name:        "skill-file",
		Title:       "A file of a skill",
		Description: "A file of a skill served by the MCP skills extension: SKILL.md or one of its supporting files. resources/list and skills/list name them all.",
	}, e.readResource)
}

// SyncResources runs after a rebuild: when the skill:// resources of the new
// snapshot differ from those of the last one synced (resourcesDiffer), it
// registers the template again, which makes the go-sdk send
// notifications/resources/list_changed. A rebuild that changed nothing sends
// nothing. The last snapshot synced is kept until the next sync, so that it is
// compared with what a client may have read of it (the listings walked while
// it was served), without walking anything more of it.
func (e *Extension) SyncResources() {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	snap := e.idx.Snapshot()
	if snap == e.synced {
		return
	}
	changed := resourcesDiffer(e.synced, snap)
	e.synced = snap // the old snapshot is no longer held here
	if v := e.current.Load(); v != nil && v.snap != snap {
		// Nor by the view of it, which would keep it alive (with every listing
		// walked) until the next request of the extension built the new one.
		e.current.CompareAndSwap(v, nil)
	}
	if !changed {
		return
	}
	e.addTemplate()
	e.log.Debug("skills extension resources updated", "skills", snap.Len())
}

// Rebase makes the current snapshot the one served from the start: the next
// sync compares with it, and no notification is due for it.
func (e *Extension) Rebase() {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	e.synced = e.idx.Snapshot()
}

// resourcesDiffer reports whether the skill:// namespace of cur differs from
// what a client may have read of old's: any change of what every listed
// resource is built from (every skill's path, format, name, description,
// parent, inheritance, file, relative and absolute, and body: a tree skill's
// SKILL.md is rendered from those of its chain), and the path, size and
// modification time of every file of a skill directory whose listing old
// holds: an Agent Skill's folder (listed by the rebuild) and a tree skill's
// resource directory once its files were asked for. A resource directory
// nobody asked for in old is walked in neither: what no client could have
// been shown cannot have changed for it, and its first walk in cur (or later)
// reads the disk as it is then. One asked for in old is walked in cur, so a
// change stays seen across any number of rebuilds. No file is read: an edit
// that keeps both the size and the modification time of a file (within the
// file system's time granularity) goes unnoticed here; the next snapshot still
// computes its new digest.
func resourcesDiffer(old, cur *index.Snapshot) bool {
	a, b := old.Skills(), cur.Skills()
	if len(a) != len(b) {
		return true
	}
	for i, s := range a {
		t := b[i]
		if s.Path != t.Path || s.Format != t.Format || s.Name != t.Name || s.Description != t.Description ||
			s.Parent != t.Parent || s.FilePath != t.FilePath || s.AbsPath != t.AbsPath ||
			s.Body.Digest != t.Body.Digest || s.Inherit != t.Inherit {
			return true
		}
	}
	for i, s := range a {
		was, asked := old.WalkedFiles(s)
		if !asked {
			continue
		}
		now, listed := cur.WalkedFiles(b[i])
		if !listed {
			now = cur.Files(b[i]) // walks it
		}
		if !sameListedFiles(was, now) {
			return true
		}
	}
	return false
}

// sameListedFiles reports whether two listings name the same files with the
// same sizes and modification times.
func sameListedFiles(a, b []index.ListedFile) bool {
	return slices.EqualFunc(a, b, func(x, y index.ListedFile) bool {
		return x.Path == y.Path && x.Size == y.Size && x.ModTime.Equal(y.ModTime)
	})
}

// serveResourceList answers resources/list from the current snapshot: every
// listed skill:// resource, sorted by URI, resourcesPageSize per page. A cursor
// names the last URI of the previous page, so a rebuild between pages neither
// repeats nor skips a resource that stays. Other methods go to next.
func (e *Extension) serveResourceList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.ListResourcesRequest)
		if method != methodResourcesList || !ok {
			return next(ctx, method, req)
		}
		after := ""
		if r.Params != nil {
			after = r.Params.Cursor
		}
		page, nextCursor, err := cursor.Page(e.view().listed, func(r *mcp.Resource) string { return r.URI }, methodResourcesList, after, resourcesPageSize)
		if err != nil {
			return nil, invalidParams(err.Error())
		}
		return &mcp.ListResourcesResult{
			Resources:  append(make([]*mcp.Resource, 0, len(page)), page...),
			NextCursor: nextCursor,
			Cacheable:  mcp.Cacheable{CacheScope: "public"},
		}, nil
	}
}

// readResource serves resources/read for a skill file: text for a text file
// whose bytes are valid UTF-8, base64 `blob` otherwise (an empty file is an
// empty blob: the go-sdk would drop an empty text). An unserved URI, or a file
// gone since the rebuild, is the go-sdk's -32602 "Resource not found"; a file
// over the read limit is -32603.
func (e *Extension) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	v := e.view()
	f, ok := v.file(uri)
	if !ok {
		return nil, ResourceNotFound(uri)
	}
	var data []byte
	var err error
	if f.rel == "" {
		if data, err = v.render(f); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("reading %s: %v", uri, err)}
		}
	} else {
		data, err = v.snap.ReadFile(f.owner, f.rel, e.maxRead)
		switch {
		case errors.Is(err, core.ErrAssetMissing):
			return nil, ResourceNotFound(uri)
		case err != nil:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("reading %s: %v", uri, err)}
		}
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: f.resource.MIMEType}
	if f.binary || len(data) == 0 || !utf8.Valid(data) {
		c.Blob = data // a fresh slice: the file read, or the rendered SKILL.md
		if c.Blob == nil {
			c.Blob = []byte{} // an empty blob, which the go-sdk would drop if nil
		}
	} else {
		c.Text = string(data)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}, Cacheable: e.cacheable()}, nil
}

// ResourceNotFound is the go-sdk's mcp.ResourceNotFoundError (-32602, as
// the MCP specification asks) with its data encoded as JSON: the go-sdk builds {"uri": …} with Go's %q, whose escapes
// (\x01, \v, \U000e0001) JSON does not accept, and an answer that cannot be
// encoded ended the session (docs/UPSTREAM.md). The server answers the go-sdk's own not-found with
// it too.
func ResourceNotFound(uri string) error {
	data, err := json.Marshal(struct {
		URI string `json:"uri"`
	}{uri})
	if err != nil { // a string always marshals; keep the answer encodable anyway
		data = nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found", Data: data}
}
