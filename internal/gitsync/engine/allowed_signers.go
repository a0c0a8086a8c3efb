package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/skills-mcp/skills-mcp/core"
)

// allowedSigner is one line of an allowed-signers file (ssh-keygen(1),
// ALLOWED SIGNERS; git's gpg.ssh.allowedSignersFile): the principals, the
// key, and the options that restrict it.
type allowedSigner struct {
	line        int
	principals  string // as written: comma-separated patterns
	key         ssh.PublicKey
	namespaces  []string  // empty: every namespace
	validAfter  time.Time // zero: no bound
	validBefore time.Time // zero: no bound
}

// maxAllowedSignersBytes bounds the file: a list of a team's keys is a few
// kilobytes.
const maxAllowedSignersBytes = 1 << 20

// loadAllowedSigners reads and parses the allowed-signers file at path.
// Every problem is an error wrapping core.ErrInvalidArgument that names the
// file and the line.
func loadAllowedSigners(path string) ([]allowedSigner, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading SKILLS_ALLOWED_SIGNERS %s: %w: %w", path, err, core.ErrInvalidArgument)
	}
	if fi.Size() > maxAllowedSignersBytes {
		return nil, fmt.Errorf("SKILLS_ALLOWED_SIGNERS %s is %d bytes, over the %d an allowed-signers file may hold: %w", path, fi.Size(), maxAllowedSignersBytes, core.ErrInvalidArgument)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading SKILLS_ALLOWED_SIGNERS %s: %w: %w", path, err, core.ErrInvalidArgument)
	}
	signers, err := parseAllowedSigners(data)
	if err != nil {
		return nil, fmt.Errorf("SKILLS_ALLOWED_SIGNERS %s: %w: %w", path, err, core.ErrInvalidArgument)
	}
	if len(signers) == 0 {
		return nil, fmt.Errorf("SKILLS_ALLOWED_SIGNERS %s lists no key, so no commit could ever be served: %w", path, core.ErrInvalidArgument)
	}
	return signers, nil
}

// parseAllowedSigners parses the lines of an allowed-signers file: blank
// lines and # comments are skipped; each other line is
// `principals [options] keytype base64-key [comment]`.
func parseAllowedSigners(data []byte) ([]allowedSigner, error) {
	var out []allowedSigner
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxAllowedSignersBytes)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s, err := parseAllowedSignerLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		s.line = n
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseAllowedSignerLine parses one non-comment line.
func parseAllowedSignerLine(line string) (allowedSigner, error) {
	principals, rest, err := cutField(line)
	if err != nil {
		return allowedSigner{}, err
	}
	if principals == "" || strings.Trim(principals, `"`) == "" {
		return allowedSigner{}, fmt.Errorf("no principals before the key")
	}
	if strings.TrimSpace(rest) == "" {
		return allowedSigner{}, fmt.Errorf("principals %s with no key after them (want: principals [options] keytype base64-key)", principals)
	}
	// What follows the principals has the syntax of an authorized_keys line:
	// options, then the key, then a comment.
	key, _, options, _, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return allowedSigner{}, fmt.Errorf("principals %s: the key does not parse (want: principals [options] keytype base64-key): %v", principals, err)
	}
	if _, ok := key.(*ssh.Certificate); ok {
		return allowedSigner{}, fmt.Errorf("principals %s: a certificate is not an allowed signer key", principals)
	}
	s := allowedSigner{principals: strings.Trim(principals, `"`), key: key}
	for _, opt := range options {
		name, value, hasValue := strings.Cut(opt, "=")
		value = strings.Trim(value, `"`)
		switch strings.ToLower(name) {
		case "namespaces":
			if !hasValue || value == "" {
				return allowedSigner{}, fmt.Errorf("principals %s: namespaces needs a value (namespaces=\"git\")", s.principals)
			}
			for _, ns := range strings.Split(value, ",") {
				if ns = strings.TrimSpace(ns); ns != "" {
					s.namespaces = append(s.namespaces, ns)
				}
			}
		case "valid-after", "valid-before":
			t, err := parseSignerTime(value)
			if err != nil {
				return allowedSigner{}, fmt.Errorf("principals %s: %s=%q: %v", s.principals, name, value, err)
			}
			if strings.EqualFold(name, "valid-after") {
				s.validAfter = t
			} else {
				s.validBefore = t
			}
		case "cert-authority":
			return allowedSigner{}, fmt.Errorf("principals %s: cert-authority (SSH certificates) is not supported; list each signer's key", s.principals)
		default:
			return allowedSigner{}, fmt.Errorf("principals %s: unknown option %q (known: namespaces, valid-after, valid-before)", s.principals, name)
		}
	}
	return s, nil
}

// cutField splits off the first whitespace-separated field of line, which
// may be double-quoted (principals with spaces in them).
func cutField(line string) (field, rest string, err error) {
	if strings.HasPrefix(line, `"`) {
		end := strings.Index(line[1:], `"`)
		if end < 0 {
			return "", "", fmt.Errorf("unterminated quoted principals")
		}
		return line[1 : end+1], strings.TrimSpace(line[end+2:]), nil
	}
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, "", nil
	}
	return line[:i], strings.TrimSpace(line[i:]), nil
}

// parseSignerTime reads the YYYYMMDD[HHMM[SS]] of valid-after and
// valid-before, in UTC with a trailing Z or local time without one, as
// ssh-keygen does.
func parseSignerTime(v string) (time.Time, error) {
	loc := time.Local
	if strings.HasSuffix(v, "Z") {
		v, loc = strings.TrimSuffix(v, "Z"), time.UTC
	}
	for _, layout := range []string{"20060102", "200601021504", "20060102150405"} {
		if len(v) == len(layout) {
			return time.ParseInLocation(layout, v, loc)
		}
	}
	return time.Time{}, fmt.Errorf("want YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS")
}

// allows reports whether s may sign in namespace at t.
func (s *allowedSigner) allows(namespace string, t time.Time) string {
	if len(s.namespaces) > 0 {
		ok := false
		for _, ns := range s.namespaces {
			if ns == namespace {
				ok = true
			}
		}
		if !ok {
			return fmt.Sprintf("the key of %s may sign only in namespaces %s, not %q", s.principals, strings.Join(s.namespaces, ","), namespace)
		}
	}
	if !s.validAfter.IsZero() && t.Before(s.validAfter) {
		return fmt.Sprintf("the key of %s is valid only after %s; the commit is dated %s", s.principals, s.validAfter.Format(time.RFC3339), t.Format(time.RFC3339))
	}
	if !s.validBefore.IsZero() && !t.Before(s.validBefore) {
		return fmt.Sprintf("the key of %s is valid only before %s; the commit is dated %s", s.principals, s.validBefore.Format(time.RFC3339), t.Format(time.RFC3339))
	}
	return ""
}
