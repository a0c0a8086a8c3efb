package server

import (
	"context"
	"encoding/base64"
	"errors"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// getAssetArgs are get_asset's arguments, both required.
type getAssetArgs struct {
	SkillPath string `json:"skill_path" jsonschema:"Skill path, e.g. \"ui/react/auth\""`
	File      string `json:"file" jsonschema:"File path relative to the skill's resource directory, e.g. \"assets/AuthProvider.tsx.template\""`
}

type textAssetResult struct {
	SkillPath    string `json:"skill_path"`
	File         string `json:"file"`
	Content      string `json:"content"`
	SizeBytes    int    `json:"size_bytes"`
	Type         string `json:"type"`
	ResolvedFrom string `json:"resolved_from,omitempty"`
}

type binaryAssetResult struct {
	SkillPath     string `json:"skill_path"`
	File          string `json:"file"`
	ContentBase64 string `json:"content_base64"`
	SizeBytes     int    `json:"size_bytes"`
	Type          string `json:"type"`
	MIMEType      string `json:"mime_type"`
	ResolvedFrom  string `json:"resolved_from,omitempty"`
}

// scriptAssetType is the `type` reported when get_asset serves a script.
const scriptAssetType = "script"

// addGetAsset registers get_asset. Its answer is one of two shapes (a text
// asset's content, a binary one's content_base64 and mime_type: spec 000
// §8.3), so its output schema is written by hand (docs/UPSTREAM.md).
func (s *Server) addGetAsset() {
	addTool(s, &mcp.Tool{
		Name: "get_asset",
		Description: "Read an asset or script file that a skill (or one of its parent categories) declares. " +
			"Text comes back as `content`, binary files as `content_base64` with a `mime_type`.",
		OutputSchema: getAssetOutputSchema(),
		Annotations:  readOnly("Get asset"),
	}, s.handleGetAsset)
}

func (s *Server) handleGetAsset(_ context.Context, _ *mcp.CallToolRequest, a getAssetArgs) (*mcp.CallToolResult, any, error) {
	snap := s.snapshot()
	sk, ok := snap.Get(a.SkillPath)
	if !ok {
		return nil, nil, fail("Skill not found: " + a.SkillPath)
	}
	found, err := snap.FindAsset(sk, a.File)
	if errors.Is(err, core.ErrAssetNotFound) {
		return nil, nil, &failure{msg: upperFirst(err.Error()) + assetNotFoundHint(snap, sk, a.File), err: err}
	}
	if err != nil {
		return nil, nil, domainError(err)
	}
	data, err := snap.ReadFile(found.Skill, a.File, s.opts.Config.Assets.MaxSizeBytes)
	if err != nil {
		return nil, nil, domainError(err)
	}
	typ, binary := scriptAssetType, index.IsBinary(a.File)
	if !found.IsScript {
		typ, binary = found.Asset.Type, found.Asset.IsBinary
	}
	// Spec 000 §7.2 decides by extension; bytes that are not UTF-8 (a .wasm
	// script, an archive) would be mangled as text, so they go as base64 too.
	binary = binary || !utf8.Valid(data)
	s.opts.Tracker.Track(core.EventAssetServed, map[string]any{
		"skill_path": sk.Path, "file": a.File, "asset_type": typ,
		"is_inherited": found.From != "", "size_bytes": len(data),
	})
	if binary {
		return jsonResult(binaryAssetResult{
			SkillPath: sk.Path, File: a.File, ContentBase64: base64.StdEncoding.EncodeToString(data),
			SizeBytes: len(data), Type: typ, MIMEType: index.MIMEType(a.File), ResolvedFrom: found.From,
		}), nil, nil
	}
	return jsonResult(textAssetResult{
		SkillPath: sk.Path, File: a.File, Content: string(data), SizeBytes: len(data), Type: typ, ResolvedFrom: found.From,
	}), nil, nil
}
