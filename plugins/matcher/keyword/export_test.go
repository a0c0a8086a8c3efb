package keyword

// Score is referenceScore, for the external example: the plain algorithm of
// spec 000 §5.2 that every faster Searcher is checked against.
var Score = referenceScore
