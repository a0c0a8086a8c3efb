package buildinfo

import "testing"

// String names the version, and the commit when the build set one.
func TestString(t *testing.T) {
	saved := [2]string{version, commit}
	t.Cleanup(func() { version, commit = saved[0], saved[1] })
	for _, tc := range []struct{ version, commit, want string }{
		{"dev", "", "dev"},
		{"v1.2.3", "", "v1.2.3"},
		{"v1.2.3", "0123456789ab", "v1.2.3 (commit 0123456789ab)"},
	} {
		version, commit = tc.version, tc.commit
		if got := String(); got != tc.want {
			t.Errorf("String() with version %q, commit %q = %q, want %q", tc.version, tc.commit, got, tc.want)
		}
	}
}
