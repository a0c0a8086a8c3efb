// Package cursor owns the server's paging cursors: opaque to clients, bound
// to the listing they were given for (a tool or a method, and its
// arguments), and refused with a clear error when made up, edited, cut or
// given to another listing. Key cursors go on after the last key of a
// listing sorted by key (skills/list, resources/list, prompts/list,
// resources/directory/read: Page); position cursors go on at an index of a
// tool's listing and tell a listing that changed under them apart
// (skills_list, list_skills: Position).
package cursor
