package skillscmd

import "testing"

// The command tunes the collector around rebuilds unless the operator set
// GOGC, whose choice is then left alone.
func TestGCPolicyLeavesAnOperatorsGOGC(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		gogc string
		want bool
	}{
		{"GOGC unset", "", true},
		{"GOGC set", "50", false},
		{"GOGC off", "off", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := gcPolicy(func(k string) string {
				if k == "GOGC" {
					return tc.gogc
				}
				return ""
			}) != nil
			if got != tc.want {
				t.Errorf("gcPolicy with GOGC=%q installs a policy: %v, want %v", tc.gogc, got, tc.want)
			}
		})
	}
}
