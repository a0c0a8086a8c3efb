package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/telemetry"
)

// getSkillArgs are get_skill's arguments: context, skill_path or both.
type getSkillArgs struct {
	Context   string `json:"context,omitempty" jsonschema:"Free-text task description (give it, or skill_path, or both)"`
	SkillPath string `json:"skill_path,omitempty" jsonschema:"Return this skill directly (for example one of the ambiguous candidates); no context needed"`
}

// Messages of spec 000 §8.1.
const (
	noMatchMessage   = "No skill matches the given context."
	ambiguousMessage = "Multiple skills match. Specify your need or pick a skill_path."
)

// noMatchResult is §8.1's no_match answer with two added fields that give a
// next step (issue 29): the closest skills, which scored below min_score, and
// the tool to browse with.
type noMatchResult struct {
	NoMatch bool   `json:"no_match"`
	Message string `json:"message"`
	// Suggestions are the best-scoring skills below min_score; absent when
	// nothing in the context matched any skill.
	Suggestions []candidate `json:"suggestions,omitempty"`
	// Hint says what to do next, naming the tool to browse the skills with.
	Hint string `json:"hint,omitempty"`
}

type candidate struct {
	SkillPath       string   `json:"skill_path"`
	Score           float64  `json:"score"`
	Description     string   `json:"description"`
	MatchedKeywords []string `json:"matched_keywords"`
}

type ambiguousResult struct {
	Ambiguous  bool        `json:"ambiguous"`
	Candidates []candidate `json:"candidates"`
	Message    string      `json:"message"`
}

type assetOut struct {
	File        string `json:"file"`
	Description string `json:"description"`
	Type        string `json:"type"`
	From        string `json:"from,omitempty"`
}

type scriptOut struct {
	File        string     `json:"file"`
	Description string     `json:"description"`
	Execution   string     `json:"execution"`
	Args        []core.Arg `json:"args"`
	From        string     `json:"from,omitempty"`
}

type matchResult struct {
	SkillPath        string      `json:"skill_path"`
	Score            float64     `json:"score"`
	MatchedKeywords  []string    `json:"matched_keywords"`
	Content          string      `json:"content"`
	Assets           []assetOut  `json:"assets"`
	Scripts          []scriptOut `json:"scripts"`
	InheritedAssets  []assetOut  `json:"inherited_assets"`
	InheritedScripts []scriptOut `json:"inherited_scripts"`
	// BaseDirectory is where the files the content names are: the skill's
	// folder on disk over stdio, its skill:// URI over HTTP (added to §8.1:
	// an Agent Skill's body names scripts/… and reference files relative to it).
	BaseDirectory string `json:"base_directory,omitempty"`
}

// addGetSkill registers get_skill. Its answer is one of three shapes (a
// match, no match, candidates: spec 000 §8.1), which no Go output type
// infers, so its output schema is written by hand (getSkillOutputSchema) and
// the handler hands the go-sdk the JSON it encoded (docs/UPSTREAM.md).
func (s *Server) addGetSkill() {
	addTool(s, &mcp.Tool{
		Name: "get_skill",
		Description: "Find the skill for a task. Give a short free-text description of the task as `context`; " +
			"the best-matching skill comes back with its instructions (inherited from its categories), assets and scripts. " +
			"When several skills match equally well you get candidates: call again with the chosen `skill_path`.",
		OutputSchema: getSkillOutputSchema(),
		Annotations:  readOnly("Get skill"),
	}, s.handleGetSkill)
}

// handleGetSkill answers get_skill; a successful answer carries the
// provenance of the served skills in its _meta.
func (s *Server) handleGetSkill(ctx context.Context, req *mcp.CallToolRequest, a getSkillArgs) (*mcp.CallToolResult, any, error) {
	res, err := s.getSkill(ctx, req, a)
	if err == nil {
		setProvenance(res, s.provenanceMeta())
	}
	return res, nil, err
}

func (s *Server) getSkill(ctx context.Context, req *mcp.CallToolRequest, a getSkillArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(a.Context) == "" && strings.TrimSpace(a.SkillPath) == "" {
		return nil, fail("get_skill: missing required argument(s): context (a description of the task) or skill_path")
	}
	snap := s.snapshot()
	if path := strings.TrimSpace(a.SkillPath); path != "" {
		sk, ok := snap.Get(path)
		if !ok {
			return nil, fail("Skill not found: " + path)
		}
		// The chosen skill's own score and keywords, whatever its rank: every match is needed.
		_, span := telemetry.Start(ctx, telemetry.SpanIndexSearch)
		matches := snap.Searcher().Search(a.Context)
		span.End()
		m := core.Match{Path: path, MatchedKeywords: []string{}}
		for _, cand := range matches {
			if cand.Path == path {
				m = cand
				break
			}
		}
		wasAmbiguous := core.RankFor(snap.Searcher(), matches, s.opts.Config.Matching.Rank()).Outcome == core.Ambiguous
		return s.serveSkill(snap, sk, m, a.Context, wasAmbiguous, overHTTP(req.Extra))
	}
	_, span := telemetry.Start(ctx, telemetry.SpanIndexSearch)
	ranking := core.SearchRank(snap.Searcher(), a.Context, s.opts.Config.Matching.Rank())
	span.End()
	switch ranking.Outcome {
	case core.NoMatch:
		s.opts.Tracker.Track(core.EventNoMatch, map[string]any{"context": a.Context})
		return jsonResult(s.noMatch(snap, a.Context)), nil
	case core.Ambiguous:
		out := ambiguousResult{Ambiguous: true, Message: ambiguousMessage, Candidates: []candidate{}}
		paths := make([]string, 0, len(ranking.Matches))
		for _, m := range ranking.Matches {
			desc := ""
			if sk, ok := snap.Get(m.Path); ok {
				desc = sk.Description
			}
			out.Candidates = append(out.Candidates, candidate{
				SkillPath: m.Path, Score: roundScore(m.Score), Description: desc, MatchedKeywords: nonNil(m.MatchedKeywords),
			})
			paths = append(paths, m.Path)
		}
		s.opts.Tracker.Track(core.EventAmbiguous, map[string]any{"context": a.Context, "candidates": paths})
		return jsonResult(out), nil
	default:
		best := ranking.Matches[0]
		sk, ok := snap.Get(best.Path)
		if !ok {
			return nil, fail("Skill not found: " + best.Path)
		}
		return s.serveSkill(snap, sk, best, a.Context, false, overHTTP(req.Extra))
	}
}

// serveSkill renders the single-match answer of §8.1 and records skill_served.
// remote is a caller over HTTP, who gets the skill's base directory as a URI.
func (s *Server) serveSkill(snap *index.Snapshot, sk *core.Skill, m core.Match, context string, wasAmbiguous, remote bool) (*mcp.CallToolResult, error) {
	content, err := snap.Content(sk)
	if err != nil {
		return nil, domainError(err)
	}
	own, inherited, ownScripts, inheritedScripts := snap.AssetsFor(sk)
	out := matchResult{
		SkillPath:        sk.Path,
		Score:            roundScore(m.Score),
		MatchedKeywords:  nonNil(m.MatchedKeywords),
		Content:          content,
		Assets:           assetsOut(own),
		Scripts:          scriptsOut(ownScripts),
		InheritedAssets:  assetsOut(inherited),
		InheritedScripts: scriptsOut(inheritedScripts),
		BaseDirectory:    skillBaseDirectory(sk, remote),
	}
	s.opts.Tracker.Track(core.EventSkillServed, map[string]any{
		"context": context, "skill_path": sk.Path, "score": out.Score,
		"matched_keywords": out.MatchedKeywords, "was_ambiguous": wasAmbiguous,
	})
	return jsonResult(out), nil
}

func assetsOut(refs []index.AssetRef) []assetOut {
	out := make([]assetOut, 0, len(refs))
	for _, r := range refs {
		out = append(out, assetOut{File: r.File, Description: r.Description, Type: r.Type, From: r.From})
	}
	return out
}

func scriptsOut(refs []index.ScriptRef) []scriptOut {
	out := make([]scriptOut, 0, len(refs))
	for _, r := range refs {
		out = append(out, scriptOut{File: r.File, Description: r.Description, Execution: r.Execution, Args: nonNilArgs(r.Args), From: r.From})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilArgs(a []core.Arg) []core.Arg {
	if a == nil {
		return []core.Arg{}
	}
	return a
}

func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}
