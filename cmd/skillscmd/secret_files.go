package skillscmd

import (
	"fmt"
	"os"
	"strings"
)

// withSecretFiles lets each secret of secretEnv come from a file, as
// Kubernetes and Docker mount secrets: when NAME is unset and NAME_FILE names
// a file, the file's content, surrounding white space trimmed, is NAME's
// value. The files are read once, at start. Setting both is an error, as is
// a file that cannot be read or is empty.
func withSecretFiles(getenv func(string) string) (func(string) string, error) {
	values := map[string]string{}
	for _, name := range secretEnv {
		path := strings.TrimSpace(getenv(name + "_FILE"))
		if path == "" {
			continue
		}
		if getenv(name) != "" {
			return nil, fmt.Errorf("%s and %s_FILE are both set: keep one", name, name)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s_FILE: %w", name, err)
		}
		v := strings.TrimSpace(string(b))
		if v == "" {
			return nil, fmt.Errorf("%s_FILE: %s is empty", name, path)
		}
		values[name] = v
	}
	if len(values) == 0 {
		return getenv, nil
	}
	return func(k string) string {
		if v, ok := values[k]; ok {
			return v
		}
		return getenv(k)
	}, nil
}
