package metrics

import "testing"

// TestEvidenceNames: an evidence name is no canonical metric's, and each
// is defined once.
func TestEvidenceNames(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range evidence {
		if _, ok := ByName(d.Name); ok || seen[d.Name] {
			t.Errorf("evidence %q: defined twice", d.Name)
		}
		seen[d.Name] = true
		if d.Doc == "" || d.NCU == "" || d.eval == nil {
			t.Errorf("evidence %q: incomplete", d.Name)
		}
	}
}
