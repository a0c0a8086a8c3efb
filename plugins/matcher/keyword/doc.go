// Package keyword owns the built-in core.Matcher of skills-mcp: the keyword
// routing of spec 000 §5.1 (Tokenize) and §5.2 (referenceScore in score.go), with the clarifications
// of the specification README (Unicode letters and digits kept, hyphens kept,
// the English and French stop words of stopwords.txt, and short tokens or
// keywords matching only an identical one).
//
// referenceScore (score.go) is the plain reference algorithm; its answers must never change, and
// any faster Searcher is checked against it. The Searcher that Build returns
// gives the plain algorithm's answers bit for bit (TestSearchEqualsPlainAlgorithm,
// FuzzSearch) but indexes the keywords once per snapshot: a vocabulary of the
// distinct lowercased keywords, the entries using each, and a suffix array for
// "keyword contains token", so a search touches only the keywords its tokens
// match and the entries declaring them. The ambiguity decision of §5.3 is not
// made here: callers pass Search results to core.Rank.
package keyword
