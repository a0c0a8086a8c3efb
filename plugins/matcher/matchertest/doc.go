// Package matchertest owns the conformance suite every core.Matcher passes,
// the built-in keyword matcher and a third party's, like runners/runnertest
// and plugins/sink/sinktest: a matcher package supplies Fixtures (the matcher
// and, for each skill of the suite's corpus, a context that must find it) and
// calls Run from a test.
//
// The suite checks what core.Matcher and core.Searcher promise: each skill is
// found by its own context and ranked first; results are sorted by score
// descending, then path ascending, name only entries that were built, never
// twice, with finite scores; a context with no words, or only unrelated ones,
// matches nothing; Build neither modifies nor keeps the caller's entries; a
// Searcher answers the same from many goroutines; hostile input (invalid
// UTF-8, NUL bytes, a megabyte of text) is answered, not a panic; and a
// TopSearcher's SearchTop agrees with Search.
package matchertest
