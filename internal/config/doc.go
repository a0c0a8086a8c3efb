// Package config owns the settings of skills-mcp and their layers: the
// defaults (Default, written once), the content's config.yaml held to the
// one table of who sets what (Keys: a key the content may not set is ignored
// with one warning naming the operator's setting), the operator's settings
// file (SKILLS_CONFIG, the same schema, outside the content), then the
// environment; the command applies its flags last. It decodes the plugins'
// own sections (Section) with the same strict decoder. An invalid
// configuration is an *Error listing every problem at once, each naming the
// file, the line and the dotted key at fault.
package config
