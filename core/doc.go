// Package core owns the domain of skills-mcp: the types (Skill, Asset, Script,
// Event), the plugin interfaces (Matcher, Runner, Sink, Tracker), the
// generic Registry that holds plugins by name, the ranking rules of spec 000
// §5.3, and the sentinel errors every other package wraps.
//
// core imports nothing else from this repository and no third-party library:
// it is the vocabulary the other packages speak.
package core
