package wasmproc

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Guest paths of the two mounts every run may get.
const (
	// SkillMount is where the skill's resource directory appears, read-only.
	SkillMount = "/skill"
	// CwdMount is where the request's working directory appears, read-write,
	// when it differs from the skill directory.
	CwdMount = "/cwd"
)

// Mount is one extra read-only mount of config wasm.mounts.
type Mount struct{ Guest, Host string }

// CheckMounts checks wasm.mounts (guest path → host directory) and returns
// them sorted by guest path with absolute host paths. The server calls it at
// start-up, so that a bad mount is an error then and not at the first run.
func CheckMounts(m map[string]string) ([]Mount, error) {
	mounts := make([]Mount, 0, len(m))
	for guest, host := range m {
		clean := path.Clean(guest)
		switch {
		case !strings.HasPrefix(guest, "/") || clean != guest:
			return nil, fmt.Errorf("checking wasm mount %q: guest path must be absolute and clean", guest)
		case clean == "/" || clean == SkillMount || clean == CwdMount:
			return nil, fmt.Errorf("checking wasm mount %q: guest path is reserved", guest)
		}
		abs, err := filepath.Abs(host)
		if err != nil {
			return nil, fmt.Errorf("checking wasm mount %q: %w", guest, err)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("checking wasm mount %q: %w", guest, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("checking wasm mount %q: host path %q is not a directory", guest, host)
		}
		mounts = append(mounts, Mount{Guest: guest, Host: abs})
	}
	sort.Slice(mounts, func(i, j int) bool { return mounts[i].Guest < mounts[j].Guest })
	return mounts, nil
}
