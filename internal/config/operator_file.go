package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readOperatorFile reads the operator's settings file at path and returns
// its absolute path and bytes. A file that is missing, unreadable, not a
// regular file, or inside one of the content directories is refused, the
// error naming SKILLS_CONFIG: the content's authors would otherwise write
// the operator's settings.
func readOperatorFile(path string, content []string) (string, []byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil, fmt.Errorf("%s=%s: %w", EnvOperatorFile, path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, fmt.Errorf("%s=%s: the operator's settings file cannot be read: %w", EnvOperatorFile, path, unwrapPath(err))
	}
	if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("%s=%s: the operator's settings file is not a regular file", EnvOperatorFile, path)
	}
	for _, dir := range content {
		d, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		if real == d || strings.HasPrefix(real, d+string(filepath.Separator)) {
			return "", nil, fmt.Errorf("%s=%s: the operator's settings file lies inside the content (%s): whoever writes the skills would write it; keep it outside",
				EnvOperatorFile, path, dir)
		}
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return "", nil, fmt.Errorf("%s=%s: the operator's settings file cannot be read: %w", EnvOperatorFile, path, unwrapPath(err))
	}
	return abs, data, nil
}

// unwrapPath drops the *PathError's repetition of the path.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// pluginsKey is the top-level key of the plugins' sections.
const pluginsKey = "plugins"

// plugins takes the plugins section out of the document root and returns
// the rest. With sections (the operator's file) each plugins.KIND.NAME is
// decoded into the value of that key, a key no plugin declared warned
// about; without (the content's file) only the section's line is noted, for
// applyAccess to ignore it.
func (d *decoder) plugins(root *yaml.Node, sections map[string]any) *yaml.Node {
	if root.Kind != yaml.MappingNode {
		return root
	}
	rest := *root
	rest.Content = nil
	for i := 0; i+1 < len(root.Content); i += 2 {
		kn, vn := resolveAlias(root.Content[i]), root.Content[i+1]
		if kn.Value != pluginsKey {
			rest.Content = append(rest.Content, root.Content[i], vn)
			continue
		}
		d.lines[pluginsKey] = kn.Line
		if sections == nil {
			continue
		}
		d.pluginKinds(resolveAlias(vn), kn.Line, sections)
	}
	return &rest
}

// pluginKinds decodes plugins: {KIND: {NAME: section}}.
func (d *decoder) pluginKinds(n *yaml.Node, line int, sections map[string]any) {
	if n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.fail(line, pluginsKey, "want a mapping of plugin kinds (sinks, matchers, runners), got %s", DescribeNode(n))
		return
	}
	d.entries(n, pluginsKey, func(kind string, kn, vn *yaml.Node) {
		kindKey := join(pluginsKey, kind)
		vn = resolveAlias(vn)
		if vn.Kind != yaml.MappingNode {
			d.fail(kn.Line, kindKey, "want a mapping of plugin names, got %s", DescribeNode(vn))
			return
		}
		d.entries(vn, kindKey, func(name string, nn, sn *yaml.Node) {
			key := join(kindKey, name)
			dst, ok := sections[key]
			if !ok {
				d.warn(nn.Line, key, "unknown plugin section: no plugin of this build declares it (ignored)")
				return
			}
			d.value(reflectElem(dst), sn, key, nn.Line)
		})
	})
}
