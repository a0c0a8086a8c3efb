package skillsext

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/cursor"
)

// directoryPageSize is the number of children in one resources/directory/read page.
const directoryPageSize = 200

// readDirectoryParams are the params of resources/directory/read.
type readDirectoryParams struct {
	mcp.ParamsBase
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

// readDirectoryResult is the result of resources/directory/read.
type readDirectoryResult struct {
	mcp.ResultBase
	ResultType string          `json:"resultType"`
	Resources  []*mcp.Resource `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
}

// readDirectory serves resources/directory/read: the direct children of a
// skill:// directory (a skill root, one of its subdirectories, or a prefix
// directory above skills), sorted by URI and paginated. Files carry the
// metadata resources/list gives them; subdirectories are inode/directory
// resources. A URI that is not a served directory is -32602. A trailing slash
// is tolerated.
func (e *Extension) readDirectory(_ context.Context, _ *mcp.ServerSession, p *readDirectoryParams) (*readDirectoryResult, error) {
	if p == nil || p.URI == "" {
		return nil, invalidParams("resources/directory/read needs params.uri, the URI of a directory resource")
	}
	v := e.view()
	key, ok := strings.CutPrefix(p.URI, skillScheme)
	key = strings.TrimSuffix(key, "/")
	children, isDir := v.dirs[key]
	if !ok || !isDir {
		if _, isFile := v.file(p.URI); isFile {
			return nil, invalidParams(p.URI + " is not a directory resource")
		}
		return nil, invalidParams("No directory resource is served at " + p.URI)
	}
	page, next, err := cursor.Page(children, func(r *mcp.Resource) string { return r.URI }, methodDirectoryRead+"\x00"+skillScheme+key, p.Cursor, directoryPageSize)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	return &readDirectoryResult{ResultType: resultTypeComplete, Resources: page, NextCursor: next}, nil
}
