package server

// The output schemas written by hand: those of the spec 000 tools whose
// answer has several shapes (get_skill, get_asset, refresh_skills) or is a
// recursive tree (list_skills), which no Go output type gives the go-sdk to
// infer (docs/UPSTREAM.md). Each tool's structuredContent is valid against
// its schema, and its content[0].text keeps the JSON text spec 000 defines
// (list_skills: the array, which structuredContent wraps as
// {"skills": [...]}, an MCP structured result being an object). Every other
// tool's output schema is inferred from its output type.

// strProp is a string property with a description.
func strProp(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

func arrayOf(items map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": items}
}

func objectOf(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

var (
	stringSchema  = map[string]any{"type": "string"}
	numberSchema  = map[string]any{"type": "number"}
	integerSchema = map[string]any{"type": "integer"}
	booleanSchema = map[string]any{"type": "boolean"}
)

func assetOutSchema() map[string]any {
	return objectOf(map[string]any{
		"file": stringSchema, "description": stringSchema, "type": stringSchema,
		"from": strProp("The parent skill that declares it, when inherited"),
	}, "file", "description", "type")
}

func scriptOutSchema() map[string]any {
	return objectOf(map[string]any{
		"file": stringSchema, "description": stringSchema, "execution": stringSchema,
		"args": arrayOf(objectOf(map[string]any{
			"name": stringSchema, "description": stringSchema, "required": booleanSchema,
		}, "name", "description", "required")),
		"from": strProp("The parent skill that declares it, when inherited"),
	}, "file", "description", "execution", "args")
}

// getSkillOutputSchema covers the three answers of §8.1: a match, no match,
// several candidates.
func getSkillOutputSchema() map[string]any {
	s := objectOf(map[string]any{
		"skill_path":        stringSchema,
		"score":             numberSchema,
		"matched_keywords":  arrayOf(stringSchema),
		"content":           strProp("The skill's instructions with the content inherited from its categories"),
		"assets":            arrayOf(assetOutSchema()),
		"scripts":           arrayOf(scriptOutSchema()),
		"inherited_assets":  arrayOf(assetOutSchema()),
		"inherited_scripts": arrayOf(scriptOutSchema()),
		"base_directory":    strProp("Where the files the content names are: the skill's folder (a skill:// URI over HTTP)"),
		"no_match":          booleanSchema,
		"ambiguous":         booleanSchema,
		"message":           stringSchema,
		"candidates":        arrayOf(candidateSchema()),
		"suggestions":       arrayOf(candidateSchema()),
		"hint":              strProp("What to do next when no skill matches: the tool to browse the skills with"),
	})
	s["anyOf"] = []any{
		map[string]any{"required": []string{"skill_path", "score", "matched_keywords", "content", "assets", "scripts", "inherited_assets", "inherited_scripts"}},
		map[string]any{"required": []string{"no_match", "message"}},
		map[string]any{"required": []string{"ambiguous", "candidates", "message"}},
	}
	return s
}

// candidateSchema is a skill get_skill offers to pick by its skill_path.
func candidateSchema() map[string]any {
	return objectOf(map[string]any{
		"skill_path": stringSchema, "score": numberSchema, "description": stringSchema, "matched_keywords": arrayOf(stringSchema),
	}, "skill_path", "score", "description", "matched_keywords")
}

// skillNodeSchema is the recursive SkillNode of §8.2.
func listSkillsOutputSchema() map[string]any {
	node := objectOf(map[string]any{
		"name": stringSchema, "path": stringSchema, "description": stringSchema,
		"keywords": arrayOf(stringSchema), "assetCount": integerSchema, "scriptCount": integerSchema,
		"children": arrayOf(map[string]any{"$ref": "#/$defs/node"}),
	}, "name", "path", "description", "keywords", "assetCount", "scriptCount", "children")
	s := objectOf(map[string]any{
		"skills": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/node"},
			"description": "The skill tree (the array the text content holds), or one page of it"},
		"nextCursor": strProp("When the tree continues on another page: give it as cursor to get that page"),
	}, "skills")
	s["$defs"] = map[string]any{"node": node}
	return s
}

func getAssetOutputSchema() map[string]any {
	s := objectOf(map[string]any{
		"skill_path": stringSchema, "file": stringSchema,
		"content":        strProp("The text of a text asset"),
		"content_base64": strProp("The bytes of a binary asset, base64"),
		"size_bytes":     integerSchema, "type": stringSchema,
		"mime_type":     stringSchema,
		"resolved_from": strProp("The parent skill that declares it, when inherited"),
	}, "skill_path", "file", "size_bytes", "type")
	s["anyOf"] = []any{
		map[string]any{"required": []string{"content"}},
		map[string]any{"required": []string{"content_base64", "mime_type"}},
	}
	return s
}

// refreshSkillsOutputSchema covers local mode and git mode (§8.6).
func refreshSkillsOutputSchema() map[string]any {
	return objectOf(map[string]any{
		"success": booleanSchema, "mode": stringSchema, "skills_reindexed": integerSchema, "message": stringSchema,
		"commit_hash": stringSchema, "files_changed": integerSchema, "last_sync": stringSchema,
		"in_background": booleanSchema,
		"verified":      booleanSchema, "refused": stringSchema,
	}, "success", "skills_reindexed")
}
