package skillscmd

import (
	"strings"
	"testing"
)

// TestValidateNamesURICollisions: serve sums up in one warning the skills the
// skills extension leaves out because another holds their skill:// URI;
// validate names each pair, at the file left out (issue 29).
func TestValidateNamesURICollisions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"zoho_invoice-automation/SKILL.md": agentSkill("zoho-invoice-automation", "Invoices A.", "# A\n"),
		"zoho-invoice-automation/SKILL.md": agentSkill("zoho-invoice-automation", "Invoices B.", "# B\n"),
		"ok/SKILL.md":                      agentSkill("ok", "Fine.", "# ok\n"),
	})
	out, _, _ := runCLI(t, nil, "validate", dir)
	want := "zoho_invoice-automation/SKILL.md:1: warning: not served as a skill:// resource: zoho-invoice-automation holds its URI " +
		"skill://zoho-invoice-automation (zoho-invoice-automation/SKILL.md)"
	if !strings.Contains(out, want) {
		t.Errorf("want %q in\n%s", want, out)
	}
	if strings.Count(out, "not served as a skill:// resource") != 1 {
		t.Errorf("want one pair named:\n%s", out)
	}
}
