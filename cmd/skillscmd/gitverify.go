package skillscmd

import (
	"context"
	"flag"
	"path/filepath"

	"github.com/hashicorp/go-hclog"
	gitsync "github.com/skills-mcp/skills-mcp/internal/gitsync" // syncs in the helper skills-mcp-git (issue 19)
)

// The operator's verification settings: the environment or a flag, never
// the content's own config.yaml (content must not vouch for itself).
const (
	envVerify         = "SKILLS_VERIFY"
	envAllowedSigners = "SKILLS_ALLOWED_SIGNERS"
)

// verifyFlags are --verify and --allowed-signers.
type verifyFlags struct {
	mode    string
	signers string
}

func (v *verifyFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&v.mode, "verify", getenv(envVerify),
		"git mode: \""+gitsync.VerifySigned+"\" serves only commits whose SSH signature verifies against --allowed-signers (default $SKILLS_VERIFY)")
	fs.StringVar(&v.signers, "allowed-signers", getenv(envAllowedSigners),
		"git mode with --verify signed: the allowed-signers file (git's gpg.ssh.allowedSignersFile format) (default $SKILLS_ALLOWED_SIGNERS)")
}

// check refuses verification outside git mode; the helper checks the rest
// (the value, the file and its lines) when the syncer is made.
func (v *verifyFlags) check(gitMode bool) error {
	if v.mode != "" && !gitMode {
		return usagef("%s=%s needs git mode (SKILLS_REPO): a local skills directory has no commits to verify", envVerify, v.mode)
	}
	if v.signers != "" && !gitMode {
		return usagef("%s is set but skills come from a local directory: it applies to git mode (SKILLS_REPO) only", envAllowedSigners)
	}
	return nil
}

// env is getenv with the flags' values, the allowed-signers path made
// absolute (the helper reads it).
func (v *verifyFlags) env(getenv func(string) string) func(string) string {
	signers := v.signers
	if signers != "" {
		if abs, err := filepath.Abs(signers); err == nil {
			signers = abs
		}
	}
	return func(k string) string {
		switch k {
		case envVerify:
			return v.mode
		case envAllowedSigners:
			return signers
		}
		return getenv(k)
	}
}

// verifyCache has the helper check the cached copy before anything reads it:
// a copy whose commit does not verify is emptied, so a serve that starts
// while the first sync is still running never shows unverified skills.
func verifyCache(ctx context.Context, s *gitsync.Syncer, log hclog.Logger) error {
	res, err := s.VerifyCache(ctx)
	if err != nil {
		return usagef("git mode: checking the cached copy: %w", err)
	}
	if res.Verified {
		log.Info("the cached copy's commit is verified", "commit", res.CommitHash, "signer", res.Signer)
	}
	return nil
}

// verificationStatus is what refresh_skills says of verification: whether the
// served commit verified (nil when verification is off) and the commit the
// sync refused, with its signer and the reason.
func verificationStatus(s *gitsync.Syncer, res gitsync.Result) (*bool, string) {
	var verified *bool
	if s.Verifying() {
		v := res.Verified
		verified = &v
	}
	if res.Refused == nil {
		return verified, ""
	}
	msg := res.Refused.String()
	if res.CommitHash != "" {
		msg += "; the last verified commit " + res.CommitHash + " stays served"
	} else {
		msg += "; no verified commit, so no skills are served"
	}
	return verified, msg
}
