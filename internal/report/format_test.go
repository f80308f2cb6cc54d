package report

import "testing"

// TestRegistry: every format has a unique name, renders something, and is
// found by its name and aliases.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range registry {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if seen[n] {
				t.Errorf("format name %q used twice", n)
			}
			seen[n] = true
			if g, ok := Lookup(n); !ok || g != f {
				t.Errorf("Lookup(%q) = %v, %v", n, g, ok)
			}
		}
		if f.Kernels == nil && f.Gate == nil && f.Trend == nil && f.Diff == nil && f.Runs == nil && f.Model == nil {
			t.Errorf("format %s renders nothing", f.Name)
		}
	}
	for _, n := range []string{"text", "json", "markdown", "html", "junit", "sarif", "github", "csv"} {
		if !seen[n] {
			t.Errorf("format %s is not registered", n)
		}
	}
	if _, ok := Lookup("yaml"); ok {
		t.Error("Lookup(yaml) found a format")
	}
}
