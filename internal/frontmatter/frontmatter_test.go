package frontmatter

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func TestSplitFrontmatter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		wantFront string
		wantBody  string
		wantErr   error
	}{
		{name: "plain", in: "---\na: 1\n---\nbody\n", wantFront: "a: 1\n", wantBody: "body\n"},
		{name: "body kept byte for byte", in: "---\na: 1\n---\n\n  # T\n\nx  \n\n", wantFront: "a: 1\n", wantBody: "\n  # T\n\nx  \n\n"},
		{name: "BOM before opening", in: "\xEF\xBB\xBF---\na: 1\n---\nbody", wantFront: "a: 1\n", wantBody: "body"},
		{name: "CRLF", in: "---\r\na: 1\r\n---\r\nbody\r\n", wantFront: "a: 1\r\n", wantBody: "body\r\n"},
		{name: "trailing spaces on delimiters", in: "--- \t\na: 1\n---  \nbody", wantFront: "a: 1\n", wantBody: "body"},
		{name: "closing line at end of file", in: "---\na: 1\n---", wantFront: "a: 1\n", wantBody: ""},
		{name: "empty block", in: "---\n---\nbody", wantFront: "", wantBody: "body"},
		{name: "dashes inside a value do not close", in: "---\na: ---x\n----\n---\nb", wantFront: "a: ---x\n----\n", wantBody: "b"},
		{name: "no block", in: "# Title\n", wantErr: ErrNoFrontmatter},
		{name: "empty file", in: "", wantErr: ErrNoFrontmatter},
		{name: "indented opening", in: " ---\na: 1\n---\n", wantErr: ErrNoFrontmatter},
		{name: "four dashes", in: "----\na: 1\n---\n", wantErr: ErrNoFrontmatter},
		{name: "unterminated", in: "---\na: 1\nbody\n", wantErr: ErrUnterminated},
		{name: "opening only", in: "---", wantErr: ErrUnterminated},
		{name: "indented closing does not close", in: "---\na: 1\n ---\n", wantErr: ErrUnterminated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Split([]byte(tt.in))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err: got %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if string(got.Front) != tt.wantFront {
				t.Errorf("front: got %q, want %q", got.Front, tt.wantFront)
			}
			if string(got.Body) != tt.wantBody {
				t.Errorf("body: got %q, want %q", got.Body, tt.wantBody)
			}
		})
	}
}

func TestParseFrontmatterYAML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    map[string]any
		wantErr bool
	}{
		{name: "empty", in: "", want: map[string]any{}},
		{name: "scalars", in: "s: x\ni: 3\nf: 1.5\nb: true\nz: ~\n", want: map[string]any{"s": "x", "i": 3, "f": 1.5, "b": true, "z": nil}},
		{name: "nested maps get string keys", in: "m:\n  1: one\n  true: t\n  k: [a, {x: 2}]\n",
			want: map[string]any{"m": map[string]any{"1": "one", "true": "t", "k": []any{"a", map[string]any{"x": 2}}}}},
		{name: "YAML 1.1-only booleans stay strings (YAML 1.2 core schema)", in: "a: yes\nb: off\nc: true\n", want: map[string]any{"a": "yes", "b": "off", "c": true}},
		{name: "timestamp stays a string", in: "d: 2026-02-18\n", want: map[string]any{"d": "2026-02-18"}},
		{name: "list is not a mapping", in: "- a\n- b\n", wantErr: true},
		{name: "scalar is not a mapping", in: "just text\n", wantErr: true},
		{name: "broken yaml", in: "a: [1, 2\n", wantErr: true},
		{name: "tab indentation", in: "a:\n\t- b\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseYAML([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err: got %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// FuzzSplitFrontmatter checks that splitting never panics, that the four parts
// rebuild the input exactly, that the delimiters are `---` lines, and that the
// body is the input's tail. The YAML decoding of the block must not panic either.
func FuzzSplitFrontmatter(f *testing.F) {
	f.Add([]byte("---\ndescription: d\nkeywords: [a]\n---\nbody\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Split(data)
		if err != nil {
			if !errors.Is(err, ErrNoFrontmatter) && !errors.Is(err, ErrUnterminated) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		whole := bytes.Join([][]byte{got.Open, got.Front, got.Close, got.Body}, nil)
		if !bytes.Equal(whole, data) {
			t.Fatalf("parts rebuild %q, want %q", whole, data)
		}
		if !bytes.HasSuffix(data, got.Body) {
			t.Fatalf("body %q is not the tail of %q", got.Body, data)
		}
		open := bytes.TrimPrefix(got.Open, BOM)
		if !bytes.HasSuffix(open, []byte("\n")) || !IsDelimiter(bytes.TrimSuffix(open, []byte("\n"))) {
			t.Fatalf("opening %q is not a delimiter line", got.Open)
		}
		if !IsDelimiter(bytes.TrimSuffix(got.Close, []byte("\n"))) {
			t.Fatalf("closing %q is not a delimiter line", got.Close)
		}
		if len(got.Front) > 0 && got.Front[len(got.Front)-1] != '\n' {
			t.Fatalf("front %q does not end a line", got.Front)
		}
		_, _ = ParseYAML(got.Front)
	})
}
