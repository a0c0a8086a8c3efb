package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/core/index"
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

// resourceFingerprint is what the go-sdk holds of a registered resource:
// re-registering it when any part changes makes the go-sdk announce
// notifications/resources/list_changed.
type resourceFingerprint struct {
	name, description, mimeType, digest string
	size                                int64
}

func fingerprintOf(f *servedFile) resourceFingerprint {
	r := f.resource
	return resourceFingerprint{name: r.Name, description: r.Description, mimeType: r.MIMEType, digest: f.digest, size: f.size}
}

// syncResources makes the go-sdk's resources those of the current view: it
// removes the URIs no longer served and (re-)adds every resource that is new
// or whose metadata or digest changed. The go-sdk serves resources/list from
// them, paginated, and notifies clients when they change.
func (e *skillsExtension) syncResources() {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	v := e.view()
	var gone []string
	for uri := range e.registered {
		if _, ok := v.file(uri); !ok {
			gone = append(gone, uri)
			delete(e.registered, uri)
		}
	}
	if len(gone) > 0 {
		e.mcp.RemoveResources(gone...)
	}
	added := 0
	for _, key := range v.keys {
		f := v.files[key]
		fp := fingerprintOf(f)
		if prev, ok := e.registered[f.resource.URI]; ok && prev == fp {
			continue
		}
		if _, err := url.Parse(f.resource.URI); err != nil { // the go-sdk panics on it
			e.log.Warn("skills extension: not listing a resource whose URI does not parse", "uri", f.resource.URI, "error", err)
			continue
		}
		e.mcp.AddResource(f.resource, e.readResource)
		e.registered[f.resource.URI] = fp
		added++
	}
	if len(gone)+added > 0 {
		e.log.Debug("skills extension resources updated", "removed", len(gone), "added_or_changed", added, "served", len(v.keys))
	}
}

// readResource serves resources/read for a skill file: text for a text file
// whose bytes are valid UTF-8, base64 `blob` otherwise (an empty file is an
// empty blob: the go-sdk would drop an empty text). An unserved URI, or a file
// gone since the rebuild, is -32602; a file over the read limit is -32603.
func (e *skillsExtension) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	f, ok := e.view().file(uri)
	if !ok {
		return nil, unknownResource(uri)
	}
	data := f.content
	if f.rel != "" {
		var err error
		data, err = index.ReadFile(f.owner, f.rel, e.maxRead)
		switch {
		case errors.Is(err, core.ErrAssetMissing):
			return nil, unknownResource(uri)
		case err != nil:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("reading %s: %v", uri, err)}
		}
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: f.resource.MIMEType}
	if f.binary || len(data) == 0 || !utf8.Valid(data) {
		c.Blob = append([]byte{}, data...)
	} else {
		c.Text = string(data)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}, Cacheable: e.cacheable()}, nil
}

// unknownResource is the -32602 answer for a URI that is not served.
func unknownResource(uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found: " + uri, Data: data}
}
