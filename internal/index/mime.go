package index

import (
	"path"
	"strings"
)

// binaryMIME maps each binary extension of spec 000 §7.2 to its MIME type.
var binaryMIME = map[string]string{
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".jpeg":  "image/jpeg",
	".gif":   "image/gif",
	".svg":   "image/svg+xml",
	".ico":   "image/x-icon",
	".webp":  "image/webp",
	".pdf":   "application/pdf",
	".zip":   "application/zip",
	".woff":  "font/woff",
	".woff2": "font/woff2",
}

// octetStream is the MIME type of every extension the table does not know.
const octetStream = "application/octet-stream"

// extension returns the lowercased extension of a slash-separated file path.
func extension(file string) string { return strings.ToLower(path.Ext(file)) }

// IsBinary reports whether file has a binary extension (spec 000 §7.2: .png .jpg
// .jpeg .gif .svg .ico .webp .pdf .zip .woff .woff2, case-insensitive). Every
// other file is text.
func IsBinary(file string) bool {
	_, ok := binaryMIME[extension(file)]
	return ok
}

// MIMEType returns the MIME type get_asset reports for a binary file (spec 000
// §7.2); unknown extensions are application/octet-stream.
func MIMEType(file string) string {
	if m, ok := binaryMIME[extension(file)]; ok {
		return m
	}
	return octetStream
}
