package engine

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// sshKeygenBinary is ssh-keygen on the original PATH ("" when absent),
// found before TestMain hides every binary.
var sshKeygenBinary string

func init() { sshKeygenBinary, _ = exec.LookPath("ssh-keygen") }

// signingTools makes the test need git and ssh-keygen, which make the real
// signatures: a skip naming the missing tool on a developer's machine, a
// failure in CI (where .ci/run installs them: Debian git, openssh-client).
func signingTools(t *testing.T) {
	t.Helper()
	for tool, path := range map[string]string{"git": gitBinary, "ssh-keygen": sshKeygenBinary} {
		if path != "" {
			continue
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed: the signature tests need it (apt-get install git openssh-client)", tool)
		}
		t.Skipf("%s is not installed: signature tests skipped (apt-get install git openssh-client)", tool)
	}
}

// signingKey is an ed25519 key made by ssh-keygen.
type signingKey struct {
	private string // path of the private key
	public  string // the public key line: "ssh-ed25519 AAAA… comment"
}

func newSigningKey(t *testing.T, name string) signingKey {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	out, err := exec.Command(sshKeygenBinary, "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", p).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(p + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return signingKey{private: p, public: strings.TrimSpace(string(pub))}
}

// writeAllowedSigners writes an allowed-signers file of lines and returns its path.
func writeAllowedSigners(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "allowed_signers")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// gitCLI runs the real git in the work repository, with ssh-keygen reachable
// for signing and a fresh HOME.
func (f *fixture) gitCLI(args ...string) string {
	f.t.Helper()
	cmd := exec.Command(gitBinary, args...)
	cmd.Dir = f.workDir
	home := f.t.TempDir()
	cmd.Env = []string{
		"PATH=" + filepath.Dir(gitBinary) + string(os.PathListSeparator) + filepath.Dir(sshKeygenBinary),
		"HOME=" + home, "XDG_CONFIG_HOME=" + home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// signedCommit commits files with the real git, signed with key (unsigned
// when key is the zero value), pushes main and returns the commit.
func (f *fixture) signedCommit(files map[string]string, key signingKey) plumbing.Hash {
	f.t.Helper()
	for name, content := range files {
		p := filepath.Join(f.workDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
		f.gitCLI("add", name)
	}
	f.commits++
	args := []string{"-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "commit " + string(rune('0'+f.commits%10))}
	if key.private != "" {
		args = []string{"-c", "gpg.format=ssh", "-c", "user.signingkey=" + key.private, "-c", "gpg.ssh.program=" + sshKeygenBinary,
			"commit", "-q", "-S", "--allow-empty", "-m", "signed commit"}
	}
	f.gitCLI(args...)
	f.push(false)
	return plumbing.NewHash(f.gitCLI("rev-parse", "HEAD"))
}

// verifyingSyncer is a syncer of f that serves only commits signed by a key
// of allowedSigners.
func (f *fixture) verifyingSyncer(allowedSigners string) *syncer {
	opts := f.options()
	opts.Verify, opts.AllowedSigners = gitsync.VerifySigned, allowedSigners
	return f.syncer(opts)
}

// TestSignedCommits runs the verification with real SSH signatures: a head
// signed by an allowed key is served; an unsigned head, one signed by a key
// not in the list, and one whose content was changed after signing are
// refused, the last verified commit staying served, and every refusal names
// the commit and the reason in the result and the log.
func TestSignedCommits(t *testing.T) {
	t.Parallel()
	signingTools(t)
	alice, mallory := newSigningKey(t, "alice"), newSigningKey(t, "mallory")
	f := newFixture(t)
	allowed := writeAllowedSigners(t, "# the team", `alice@example.com namespaces="git" `+alice.public)
	signed := f.signedCommit(map[string]string{"skills/signed.md": "signed\n"}, alice)
	s := f.verifyingSyncer(allowed)
	res, err := s.Initialize(t.Context())
	if err != nil || res.CommitHash != signed.String() || !res.Verified || !strings.HasPrefix(res.Signer, "alice@example.com (SHA256:") {
		t.Fatalf("signed head: got %+v, %v; want %s served, verified, signer alice", res, err, signed)
	}

	tamper := func() plumbing.Hash {
		// alice's signature over a commit whose message was changed after.
		c, err := f.work.CommitObject(f.head())
		if err != nil {
			t.Fatal(err)
		}
		forged := *c
		forged.Message += "and one more line\n"
		obj := f.work.Storer.NewEncodedObject()
		if err := forged.Encode(obj); err != nil {
			t.Fatal(err)
		}
		h, err := f.work.Storer.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.work.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), h)); err != nil {
			t.Fatal(err)
		}
		f.push(true)
		return h
	}
	tests := []struct {
		name       string
		push       func() plumbing.Hash
		wantReason string
		wantSigner string
	}{
		{"unsigned", func() plumbing.Hash {
			return f.signedCommit(map[string]string{"skills/unsigned.md": "x\n"}, signingKey{})
		}, "not signed", ""},
		{"unknown key", func() plumbing.Hash {
			return f.signedCommit(map[string]string{"skills/mallory.md": "x\n"}, mallory)
		}, "not in the allowed signers", "SHA256:"},
		{"changed after signing", func() plumbing.Hash {
			f.signedCommit(map[string]string{"skills/alice2.md": "x\n"}, alice)
			return tamper()
		}, "does not verify", "alice@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mark := len(f.logs.String())
			bad := tt.push()
			res, err := s.ForceRefresh(t.Context())
			if !errors.Is(err, gitsync.ErrRefused) || res.CommitHash != signed.String() || !res.Verified {
				t.Fatalf("refresh: got %+v, %v; want gitsync.ErrRefused and %s still served, verified", res, err, signed)
			}
			r := res.Refused
			if r == nil || r.Commit != bad.String() || !strings.Contains(r.Reason, tt.wantReason) || !strings.Contains(r.Signer, tt.wantSigner) {
				t.Fatalf("refusal: got %+v, want commit %s, reason %q, signer %q", r, bad, tt.wantReason, tt.wantSigner)
			}
			if !strings.Contains(err.Error(), bad.String()) || !strings.Contains(err.Error(), tt.wantReason) {
				t.Errorf("error %q does not name the commit and the reason", err)
			}
			logs := f.logs.String()[mark:]
			if !strings.Contains(logs, bad.String()) || !strings.Contains(logs, tt.wantReason) {
				t.Errorf("log does not name the commit %s and the reason %q:\n%s", bad, tt.wantReason, logs)
			}
			tree := readTree(t, f.dir)
			if _, ok := tree["skills/signed.md"]; !ok || len(tree) != len(initialFiles)+1 {
				t.Errorf("the worktree moved off the verified commit: %v", tree)
			}
		})
	}

	// A new commit signed by alice on top is served again.
	f.gitCLI("reset", "-q", "--hard", signed.String())
	f.push(true)
	next := f.signedCommit(map[string]string{"skills/next.md": "next\n"}, alice)
	res, err = s.ForceRefresh(t.Context())
	if err != nil || res.CommitHash != next.String() || res.Refused != nil {
		t.Fatalf("signed head after refusals: got %+v, %v; want %s served", res, err, next)
	}
}

// With no verified commit at all, nothing is served: a first start on an
// unsigned head leaves the copy empty, and a copy cloned before
// verification was turned on is emptied before anything reads it.
func TestNoVerifiedCommit(t *testing.T) {
	t.Parallel()
	signingTools(t)
	alice := newSigningKey(t, "alice")
	allowed := writeAllowedSigners(t, "alice@example.com "+alice.public)

	t.Run("first start", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t) // its head is unsigned
		res, err := f.verifyingSyncer(allowed).Initialize(t.Context())
		if !errors.Is(err, gitsync.ErrUnverified) || res.CommitHash != "" || res.Refused == nil || res.Refused.Commit != f.head().String() {
			t.Fatalf("got %+v, %v; want gitsync.ErrUnverified naming %s and nothing served", res, err, f.head())
		}
		if tree := readTree(t, f.dir); len(tree) != 0 {
			t.Errorf("the copy holds files of an unverified commit: %v", tree)
		}
		if !strings.Contains(f.logs.String(), "no skills are served") {
			t.Errorf("the log does not say nothing is served:\n%s", f.logs)
		}
	})
	t.Run("unverified cache", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.initialized() // cloned without verification
		s := f.verifyingSyncer(allowed)
		res, err := s.VerifyCache(t.Context())
		if err != nil || res.CommitHash != "" || res.Success {
			t.Fatalf("VerifyCache: got %+v, %v; want nothing served", res, err)
		}
		if tree := readTree(t, f.dir); len(tree) != 0 {
			t.Errorf("the unverified cache was not emptied: %v", tree)
		}
		// Then the remote gets a signed commit: it is served.
		signed := f.signedCommit(map[string]string{"skills/signed.md": "signed\n"}, alice)
		res, err = s.Initialize(t.Context())
		if err != nil || res.CommitHash != signed.String() || !res.Verified {
			t.Fatalf("Initialize: got %+v, %v; want %s verified", res, err, signed)
		}
	})
	t.Run("pinned unsigned tag", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.tag("v1", f.head(), false, false)
		opts := f.options()
		opts.Ref, opts.Verify, opts.AllowedSigners = "v1", gitsync.VerifySigned, allowed
		_, err := f.syncer(opts).Initialize(t.Context())
		if !errors.Is(err, gitsync.ErrUnverified) || !strings.Contains(err.Error(), "not signed") {
			t.Fatalf("got %v, want gitsync.ErrUnverified saying the commit is not signed", err)
		}
	})
}

// A key restricted to other namespaces, or not yet valid at the commit's
// date, is refused with the restriction named.
func TestSignerRestrictions(t *testing.T) {
	t.Parallel()
	signingTools(t)
	alice := newSigningKey(t, "alice")
	tests := []struct{ name, line, want string }{
		{"other namespace", `alice@example.com namespaces="file" ` + alice.public, "may sign only in namespaces file"},
		{"not yet valid", `alice@example.com valid-after="29990101" ` + alice.public, "valid only after"},
		{"expired", `alice@example.com valid-before="20000101" ` + alice.public, "valid only before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.signedCommit(map[string]string{"skills/a.md": "a\n"}, alice)
			res, err := f.verifyingSyncer(writeAllowedSigners(t, tt.line)).Initialize(t.Context())
			if !errors.Is(err, gitsync.ErrUnverified) || res.Refused == nil || !strings.Contains(res.Refused.Reason, tt.want) {
				t.Fatalf("got %+v, %v; want gitsync.ErrUnverified with reason %q", res, err, tt.want)
			}
		})
	}
}

// signedPayload is the commit without its gpgsig header: what git signed.
func TestSignedPayloadMatchesGit(t *testing.T) {
	t.Parallel()
	signingTools(t)
	alice := newSigningKey(t, "alice")
	f := newFixture(t)
	h := f.signedCommit(nil, alice)
	c, err := f.work.CommitObject(h)
	if err != nil {
		t.Fatal(err)
	}
	got, err := signedPayload(c)
	if err != nil {
		t.Fatal(err)
	}
	raw := f.gitCLI("cat-file", "commit", h.String())
	var want []string
	inSig := false
	for _, line := range strings.Split(raw, "\n") {
		switch {
		case strings.HasPrefix(line, "gpgsig "):
			inSig = true
			continue
		case inSig && strings.HasPrefix(line, " "):
			continue
		}
		inSig = false
		want = append(want, line)
	}
	if strings.TrimSpace(string(got)) != strings.TrimSpace(strings.Join(want, "\n")) {
		t.Errorf("payload:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
