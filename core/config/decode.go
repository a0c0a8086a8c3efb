package config

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// decoder walks a generic YAML value against a typed destination so that every
// type error can name its dotted key (yaml.v2 only reports line numbers).
type decoder struct {
	file     string
	warnings []string
}

func (d *decoder) fail(key, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", d.file, key, fmt.Sprintf(format, args...))
}

// into decodes raw into the value dst points to; key is the dotted path so far.
func (d *decoder) into(dst any, raw any, key string) error {
	return d.value(reflect.ValueOf(dst).Elem(), raw, key)
}

func (d *decoder) value(v reflect.Value, raw any, key string) error {
	if raw == nil { // `key:` with no value keeps the default
		return nil
	}
	switch v.Kind() {
	case reflect.Struct:
		return d.structure(v, raw, key)
	case reflect.Bool:
		b, ok := raw.(bool)
		if !ok {
			return d.fail(key, "want true or false, got %s", describe(raw))
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, ok := asInt(raw)
		if !ok {
			return d.fail(key, "want a whole number, got %s", describe(raw))
		}
		v.SetInt(n)
	case reflect.Float64:
		f, ok := asFloat(raw)
		if !ok {
			return d.fail(key, "want a number, got %s", describe(raw))
		}
		v.SetFloat(f)
	case reflect.String:
		s, ok := raw.(string)
		if !ok {
			return d.fail(key, "want a string, got %s", describe(raw))
		}
		v.SetString(s)
	case reflect.Slice:
		return d.list(v, raw, key)
	case reflect.Map:
		return d.mapping(v, raw, key)
	default:
		return d.fail(key, "unsupported setting type %s", v.Kind())
	}
	return nil
}

func (d *decoder) structure(v reflect.Value, raw any, key string) error {
	m, ok := raw.(map[any]any)
	if !ok {
		return d.fail(orTop(key), "want a mapping, got %s", describe(raw))
	}
	fields := map[string]int{}
	for i := 0; i < v.NumField(); i++ {
		if tag := strings.Split(v.Type().Field(i).Tag.Get("yaml"), ",")[0]; tag != "" {
			fields[tag] = i
		}
	}
	entries, keys := stringKeys(m)
	for _, k := range keys {
		child := join(key, k)
		i, known := fields[k]
		if !known {
			d.warnings = append(d.warnings, fmt.Sprintf("%s: %s: unknown key (ignored)", d.file, child))
			continue
		}
		if err := d.value(v.Field(i), entries[k], child); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) list(v reflect.Value, raw any, key string) error {
	items, ok := raw.([]any)
	if !ok {
		return d.fail(key, "want a list, got %s", describe(raw))
	}
	out := reflect.MakeSlice(v.Type(), len(items), len(items))
	for i, item := range items {
		if err := d.value(out.Index(i), item, fmt.Sprintf("%s[%d]", key, i)); err != nil {
			return err
		}
	}
	v.Set(out)
	return nil
}

// mapping merges into the map: defaults stay unless a key overrides them.
func (d *decoder) mapping(v reflect.Value, raw any, key string) error {
	m, ok := raw.(map[any]any)
	if !ok {
		return d.fail(key, "want a mapping, got %s", describe(raw))
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	entries, keys := stringKeys(m)
	for _, k := range keys {
		elem := reflect.New(v.Type().Elem()).Elem()
		if err := d.value(elem, entries[k], join(key, k)); err != nil {
			return err
		}
		v.SetMapIndex(reflect.ValueOf(k), elem)
	}
	return nil
}

// stringKeys returns m with its keys printed as strings (yaml.v2 keys may be
// ints or bools) and those keys sorted.
func stringKeys(m map[any]any) (map[string]any, []string) {
	out := make(map[string]any, len(m))
	keys := make([]string, 0, len(m))
	for k, val := range m {
		ks := fmt.Sprint(k)
		out[ks] = val
		keys = append(keys, ks)
	}
	sort.Strings(keys)
	return out, keys
}

func asInt(raw any) (int64, bool) {
	switch n := raw.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		if n > math.MaxInt64 {
			return 0, false
		}
		return int64(n), true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n), true
		}
	}
	return 0, false
}

func asFloat(raw any) (float64, bool) {
	switch n := raw.(type) {
	case float64:
		return n, true
	case int, int64, uint64:
		i, ok := asInt(n)
		return float64(i), ok
	}
	return 0, false
}

func describe(raw any) string {
	switch x := raw.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case []any:
		return "a list"
	case map[any]any:
		return "a mapping"
	default:
		return fmt.Sprintf("%v", x)
	}
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func orTop(key string) string {
	if key == "" {
		return "(top level)"
	}
	return key
}
