// Package eval owns the routing evaluation behind `skills-mcp eval`: reading
// queries files and the Agent Skills project's trigger-eval files, routing
// them through a Searcher as get_skill and skills_search do, the report of
// issue 30's figures, and the analysis of recorded analytics events (no_match
// contexts, ambiguous pairs, skills never served or reported not useful).
// The subcommand's flags and content loading stay in cmd/skillscmd.
package eval
