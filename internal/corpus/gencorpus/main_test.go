package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "corpus")
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
	}{
		{"writes a corpus", []string{"-skills", "15", "-out", out}, 0, "15 skills, "},
		{"needs -out", []string{"-skills", "15"}, 2, ""},
		{"rejects zero skills", []string{"-skills", "0", "-out", out}, 1, ""},
		{"rejects unknown flags", []string{"-nope"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != tt.wantCode {
				t.Fatalf("got exit code %d, want %d (stderr %q)", code, tt.wantCode, stderr.String())
			}
			if !strings.HasPrefix(stdout.String(), tt.wantStdout) {
				t.Errorf("got stdout %q, want it to start with %q", stdout.String(), tt.wantStdout)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(out, "_root.md")); err != nil {
		t.Errorf("no _root.md written: %v", err)
	}
}
