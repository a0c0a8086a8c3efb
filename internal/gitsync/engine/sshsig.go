package engine

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// The SSHSIG format (OpenSSH's PROTOCOL.sshsig), which `git commit -S` with
// gpg.format=ssh writes into a commit's gpgsig header through `ssh-keygen -Y
// sign`. golang.org/x/crypto/ssh parses the keys and checks the signature
// itself; this file reads the envelope around it.
const (
	sshsigMagic     = "SSHSIG"
	sshsigVersion   = 1
	sshsigArmorHead = "-----BEGIN SSH SIGNATURE-----"
	sshsigArmorTail = "-----END SSH SIGNATURE-----"
	// gitNamespace is the namespace git signs commits and tags in.
	gitNamespace = "git"
)

// sshSignature is a parsed SSHSIG blob.
type sshSignature struct {
	key       ssh.PublicKey
	namespace string
	hashAlg   string // "sha256" or "sha512"
	sig       *ssh.Signature
}

// sshsigBlob is the wire form of the blob after its magic preamble.
type sshsigBlob struct {
	Version   uint32
	PublicKey []byte
	Namespace string
	Reserved  []byte
	HashAlg   string
	Signature []byte
}

// sshsigSigned is the wire form of what the signature is made over.
type sshsigSigned struct {
	Namespace string
	Reserved  []byte
	HashAlg   string
	Hash      []byte
}

// isSSHSignature reports whether an armored signature is an SSH one (not
// OpenPGP or X.509).
func isSSHSignature(armored string) bool {
	return strings.HasPrefix(strings.TrimSpace(armored), sshsigArmorHead)
}

// parseSSHSignature reads one armored SSHSIG block: nothing may stand
// before, after or between the armor lines but base64 and line breaks.
func parseSSHSignature(armored string) (*sshSignature, error) {
	text := strings.TrimSpace(armored)
	if !strings.HasPrefix(text, sshsigArmorHead) || !strings.HasSuffix(text, sshsigArmorTail) {
		return nil, errors.New("not one armored SSH signature")
	}
	body := strings.TrimSuffix(strings.TrimPrefix(text, sshsigArmorHead), sshsigArmorTail)
	body = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, body)
	raw, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("the SSH signature's armor is not base64: %w", err)
	}
	if !bytes.HasPrefix(raw, []byte(sshsigMagic)) {
		return nil, errors.New("the SSH signature lacks the SSHSIG preamble")
	}
	var blob sshsigBlob
	if err := ssh.Unmarshal(raw[len(sshsigMagic):], &blob); err != nil {
		return nil, fmt.Errorf("reading the SSH signature: %w", err)
	}
	if blob.Version != sshsigVersion {
		return nil, fmt.Errorf("SSH signature version %d is not supported (want %d)", blob.Version, sshsigVersion)
	}
	if blob.HashAlg != "sha256" && blob.HashAlg != "sha512" {
		return nil, fmt.Errorf("SSH signature hash algorithm %q is not supported (want sha256 or sha512)", blob.HashAlg)
	}
	key, err := ssh.ParsePublicKey(blob.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("reading the SSH signature's public key: %w", err)
	}
	sig := new(ssh.Signature)
	if err := ssh.Unmarshal(blob.Signature, sig); err != nil {
		return nil, fmt.Errorf("reading the SSH signature's signature: %w", err)
	}
	return &sshSignature{key: key, namespace: blob.Namespace, hashAlg: blob.HashAlg, sig: sig}, nil
}

// verify checks that s signs message in namespace with s.key. An RSA
// signature must use SHA-2 (rsa-sha2-256/512), as ssh-keygen -Y verify
// requires: ssh-rsa (SHA-1) is refused.
func (s *sshSignature) verify(message []byte, namespace string) error {
	if s.namespace != namespace {
		return fmt.Errorf("the signature is in namespace %q, not %q", s.namespace, namespace)
	}
	if s.sig.Format == ssh.KeyAlgoRSA {
		return errors.New("the signature uses ssh-rsa (SHA-1), which is refused")
	}
	var digest []byte
	switch s.hashAlg {
	case "sha256":
		h := sha256.Sum256(message)
		digest = h[:]
	default:
		h := sha512.Sum512(message)
		digest = h[:]
	}
	signed := append([]byte(sshsigMagic), ssh.Marshal(sshsigSigned{Namespace: namespace, HashAlg: s.hashAlg, Hash: digest})...)
	if err := s.key.Verify(signed, s.sig); err != nil {
		return fmt.Errorf("the signature does not verify: %w", err)
	}
	return nil
}
