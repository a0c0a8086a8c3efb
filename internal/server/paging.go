package server

// MaxPageBytes bounds one page of the tools whose answer grows with the
// catalogue (skills_list, list_skills): the JSON of a page's structured
// content (its items, and nextCursor) is at most this long, and so is its
// text. A page holds at least one item, so an item alone larger than this
// (skills_list with includeBody and a body near index.max_skill_file_bytes)
// is a page of its own. README "Limits per request".
const MaxPageBytes = 1 << 20

// ctxCheckEvery is how many iterations of a loop over skills or candidates
// run between two checks of the request's context.
const ctxCheckEvery = 256
