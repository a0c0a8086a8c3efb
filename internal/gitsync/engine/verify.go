package engine

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/crypto/ssh"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// verifier checks commit signatures against an allowed-signers list.
type verifier struct {
	signers []allowedSigner
}

// maxSignedCommitBytes bounds the commit object read for its signature: a
// commit is its headers and message, far below this.
const maxSignedCommitBytes = 1 << 20

// verifyCommit returns the principals of the allowed signer whose key
// signed c, or a gitsync.Refusal saying why c is not served (unsigned, OpenPGP, a key
// not in the list, a key not allowed at the commit's date or in the git
// namespace, a signature that does not verify).
func (v *verifier) verifyCommit(c *object.Commit) (string, *gitsync.Refusal) {
	refuse := func(signer, format string, args ...any) (string, *gitsync.Refusal) {
		return "", &gitsync.Refusal{Commit: c.Hash.String(), Signer: signer, Reason: fmt.Sprintf(format, args...)}
	}
	if c.PGPSignature == "" {
		return refuse("", "the commit is not signed")
	}
	if !isSSHSignature(c.PGPSignature) {
		return refuse("", "the commit is signed with OpenPGP or X.509; only SSH signatures are checked against SKILLS_ALLOWED_SIGNERS")
	}
	sig, err := parseSSHSignature(c.PGPSignature)
	if err != nil {
		return refuse("", "the signature is malformed: %v", err)
	}
	fingerprint := ssh.FingerprintSHA256(sig.key)
	var signer *allowedSigner
	for i := range v.signers {
		if bytes.Equal(v.signers[i].key.Marshal(), sig.key.Marshal()) {
			signer = &v.signers[i]
			break
		}
	}
	if signer == nil {
		return refuse(fingerprint, "signed by key %s, which is not in the allowed signers", fingerprint)
	}
	who := signer.principals + " (" + fingerprint + ")"
	if why := signer.allows(gitNamespace, c.Committer.When); why != "" {
		return refuse(who, "%s", why)
	}
	message, err := signedPayload(c)
	if err != nil {
		return refuse(who, "cannot read the signed part of the commit: %v", err)
	}
	if err := sig.verify(message, gitNamespace); err != nil {
		return refuse(who, "%v", err)
	}
	return who, nil
}

// signedPayload is what a commit's signature is made over: the commit object
// without its gpgsig header (go-git strips it from the raw object).
func signedPayload(c *object.Commit) ([]byte, error) {
	obj := &plumbing.MemoryObject{}
	if err := c.EncodeWithoutSignature(obj); err != nil {
		return nil, err
	}
	if obj.Size() > maxSignedCommitBytes {
		return nil, fmt.Errorf("the commit object is %d bytes, over %d", obj.Size(), maxSignedCommitBytes)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// newVerifier reads the allowed-signers file for mode; nil when mode is
// empty (no verification).
func newVerifier(mode, allowedSigners string) (*verifier, error) {
	switch mode {
	case "":
		if allowedSigners != "" {
			return nil, invalidf("SKILLS_ALLOWED_SIGNERS is set but SKILLS_VERIFY is not: set SKILLS_VERIFY=%s to serve only signed commits", gitsync.VerifySigned)
		}
		return nil, nil
	case gitsync.VerifySigned:
	default:
		return nil, invalidf("SKILLS_VERIFY=%q: want %q (or unset)", mode, gitsync.VerifySigned)
	}
	if allowedSigners == "" {
		return nil, invalidf("SKILLS_VERIFY=%s needs SKILLS_ALLOWED_SIGNERS, the file of keys allowed to sign (git's allowed_signers format)", gitsync.VerifySigned)
	}
	signers, err := loadAllowedSigners(allowedSigners)
	if err != nil {
		return nil, err
	}
	return &verifier{signers: signers}, nil
}

// invalidf is an error wrapping core.ErrInvalidArgument.
func invalidf(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, core.ErrInvalidArgument)...)
}
