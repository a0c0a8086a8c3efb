package index

import "testing"

// TestBinaryAndMIME covers spec 000 §7.2 plus the .webp and .ico clarification.
func TestBinaryAndMIME(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file       string
		wantBinary bool
		wantMIME   string
	}{
		{"a.png", true, "image/png"},
		{"a.jpg", true, "image/jpeg"},
		{"a.jpeg", true, "image/jpeg"},
		{"a.gif", true, "image/gif"},
		{"a.svg", true, "image/svg+xml"},
		{"a.ico", true, "image/x-icon"},
		{"a.webp", true, "image/webp"},
		{"a.pdf", true, "application/pdf"},
		{"a.zip", true, "application/zip"},
		{"a.woff", true, "font/woff"},
		{"a.woff2", true, "font/woff2"},
		{"dir/UPPER.PNG", true, "image/png"},
		{"x.Jpeg", true, "image/jpeg"},
		{"a.ts", false, octetStream},
		{"a.tsx", false, octetStream},
		{"a.js", false, octetStream},
		{"a.sh", false, octetStream},
		{"a.yaml", false, octetStream},
		{"a.json", false, octetStream},
		{"a.template", false, octetStream},
		{"a.example", false, octetStream},
		{"a.md", false, octetStream},
		{"Makefile", false, octetStream},
		{"png", false, octetStream},
		{"a.png.txt", false, octetStream},
		{"dir.png/a.txt", false, octetStream},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := IsBinary(tt.file); got != tt.wantBinary {
				t.Errorf("IsBinary: got %v, want %v", got, tt.wantBinary)
			}
			if got := MIMEType(tt.file); got != tt.wantMIME {
				t.Errorf("MIMEType: got %q, want %q", got, tt.wantMIME)
			}
		})
	}
}
