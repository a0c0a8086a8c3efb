// Package skillsext owns the MCP Skills extension (SEP-2640) over an index:
// every skill file as a skill:// resource (one resource template, and
// resources/list answered from the current snapshot), skills/list,
// skills/get and resources/directory/read; how a skill maps to its URI
// (URI), the skills left out because another holds their URI (Collisions),
// the entries skills.lock records (Manifests), and the resources'
// list_changed after a rebuild (Extension.SyncResources), sent only to
// sessions that finished initializing. internal/server serves it on its
// go-sdk server (New) and answers its not-found errors with
// ResourceNotFound.
package skillsext
