package core

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry holds plugins of one kind (runners, matchers, sinks) by name. It is a
// value built in cmd/skillscmd, never a package-level global. It is safe for concurrent use.
type Registry[T any] struct {
	kind  string
	mu    sync.RWMutex
	items map[string]T
}

// NewRegistry returns an empty registry; kind names the plugin kind in errors ("runner").
func NewRegistry[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, items: map[string]T{}}
}

// Register adds v under name. An empty or duplicate name is a programming error and panics.
func (r *Registry[T]) Register(name string, v T) {
	if name == "" {
		panic(fmt.Sprintf("core: register %s: empty name", r.kind))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.items[name]; dup {
		panic(fmt.Sprintf("core: register %s: duplicate name %q", r.kind, name))
	}
	r.items[name] = v
}

// Lookup returns the entry named name, or an error wrapping ErrNotFound that lists
// the known names, sorted.
func (r *Registry[T]) Lookup(name string) (T, error) {
	r.mu.RLock()
	v, ok := r.items[name]
	r.mu.RUnlock()
	if !ok {
		var zero T
		known := r.Names()
		list := "none"
		if len(known) > 0 {
			list = strings.Join(known, ", ")
		}
		return zero, fmt.Errorf("%s %q: %w (known: %s)", r.kind, name, ErrNotFound, list)
	}
	return v, nil
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.items))
	for n := range r.items {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
