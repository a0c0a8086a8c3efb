// Package confine owns the confinement of paths and files, the same for
// every reader and every run: a user-given relative path checked (CheckRelPath)
// and resolved inside its directory through symlinks (Resolve, Within); Root,
// the handle of one skills directory that opens, stats and reads files through
// an os.Root at the moment of use, so a folder swapped for a symlink leading
// out of the tree, a `..` or a FIFO is refused however the tree changed since
// it was indexed; and where script runs work (WorkDirs: the operator's write
// roots, the scratch directories). The index builds one Root per skills root
// and its snapshot holds them; internal/scripts opens a script through it.
// It imports nothing from this repository but core.
package confine
