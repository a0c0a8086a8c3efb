package ranked

// The tuning and tokenizing internals, for the external tests only: a custom
// build takes the matcher as New returns it.

// Options is options, for tests that turn one setting.
type Options = options

// NewWith is newWith.
var NewWith = newWith

// Tokenize is tokenize.
var Tokenize = tokenize

// Stem is stem.
var Stem = stem
