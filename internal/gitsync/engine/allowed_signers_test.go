package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// A fixed ed25519 public key (not secret: only its parsing is tested here).
const testPubKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHTKwCqSUiFz7nCeFHPpXj1PnmqPsp+7xZ/4zBZSW4pL test"

func TestParseAllowedSigners(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		text     string
		wantN    int
		wantErr  string // "" means it parses
		wantNS   []string
		wantWhom string
	}{
		{name: "one key", text: "alice@example.com " + testPubKey, wantN: 1, wantWhom: "alice@example.com"},
		{name: "comments and blanks", text: "# team\n\n  alice@example.com " + testPubKey + "\n", wantN: 1},
		{name: "several principals", text: "alice@example.com,bob@example.com " + testPubKey, wantN: 1, wantWhom: "alice@example.com,bob@example.com"},
		{name: "quoted principals", text: `"alice smith" ` + testPubKey, wantN: 1, wantWhom: "alice smith"},
		{name: "namespaces", text: `alice@example.com namespaces="git,file" ` + testPubKey, wantN: 1, wantNS: []string{"git", "file"}},
		{name: "validity", text: `alice@example.com valid-after="20200101",valid-before="20990101Z" ` + testPubKey, wantN: 1},
		{name: "no key", text: "alice@example.com", wantErr: "line 1: principals alice@example.com with no key"},
		{name: "bad key", text: "# x\nalice@example.com ssh-ed25519 notbase64", wantErr: "line 2: principals alice@example.com: the key does not parse"},
		{name: "unknown option", text: `alice@example.com frobnicate ` + testPubKey, wantErr: `unknown option "frobnicate"`},
		{name: "cert authority", text: `*@example.com cert-authority ` + testPubKey, wantErr: "cert-authority"},
		{name: "bad time", text: `alice@example.com valid-after="yesterday" ` + testPubKey, wantErr: "valid-after"},
		{name: "unterminated quote", text: `"alice ` + testPubKey, wantErr: "unterminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseAllowedSigners([]byte(tt.text))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(got) != tt.wantN {
				t.Fatalf("got %d signers, %v; want %d", len(got), err, tt.wantN)
			}
			if tt.wantWhom != "" && got[0].principals != tt.wantWhom {
				t.Errorf("principals = %q, want %q", got[0].principals, tt.wantWhom)
			}
			if tt.wantNS != nil && strings.Join(got[0].namespaces, ",") != strings.Join(tt.wantNS, ",") {
				t.Errorf("namespaces = %v, want %v", got[0].namespaces, tt.wantNS)
			}
		})
	}
}

// Each wrong verification setting is an error at newSyncer, naming the setting.
func TestVerifySettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "allowed")
	empty := filepath.Join(dir, "empty")
	bad := filepath.Join(dir, "bad")
	for p, text := range map[string]string{good: "a@example.com " + testPubKey + "\n", empty: "# nobody\n", bad: "a@example.com ssh-ed25519 !!!\n"} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, verify, signers, wantErr string
	}{
		{"signed", gitsync.VerifySigned, good, ""},
		{"off", "", "", ""},
		{"unknown value", "gpg", good, `SKILLS_VERIFY="gpg": want "signed"`},
		{"no allowed signers", gitsync.VerifySigned, "", "needs SKILLS_ALLOWED_SIGNERS"},
		{"signers without verify", "", good, "SKILLS_VERIFY is not"},
		{"missing file", gitsync.VerifySigned, filepath.Join(dir, "nope"), "reading SKILLS_ALLOWED_SIGNERS"},
		{"file that does not parse", gitsync.VerifySigned, bad, "line 1"},
		{"file with no key", gitsync.VerifySigned, empty, "lists no key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := newSyncer(options{Source: gitsync.Source{URL: "/srv/skills", Dir: filepath.Join(t.TempDir(), "c"), Verify: tt.verify, AllowedSigners: tt.signers}})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("New: got %v, want ErrInvalidArgument containing %q", err, tt.wantErr)
			}
		})
	}
}

func FuzzParseAllowedSigners(f *testing.F) {
	f.Add("alice@example.com " + testPubKey)
	f.Add(`"a b" namespaces="git",valid-after="20200101" ` + testPubKey)
	f.Add("# c\n\nx")
	f.Fuzz(func(t *testing.T, text string) {
		signers, err := parseAllowedSigners([]byte(text))
		if err == nil {
			for _, s := range signers {
				if s.key == nil || s.principals == "" {
					t.Fatalf("a signer without key or principals from %q", text)
				}
			}
		}
	})
}

func FuzzParseSSHSignature(f *testing.F) {
	f.Add(sshsigArmorHead + "\nU1NIU0lHAAAAAQ==\n" + sshsigArmorTail)
	f.Add("-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----")
	f.Add(sshsigArmorHead + "\n" + sshsigArmorTail)
	f.Fuzz(func(t *testing.T, armored string) {
		sig, err := parseSSHSignature(armored)
		if err == nil && (sig.key == nil || sig.sig == nil) {
			t.Fatalf("a signature without key from %q", armored)
		}
		if err == nil {
			_ = sig.verify([]byte("message"), gitNamespace)
		}
	})
}
