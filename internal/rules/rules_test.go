package rules_test

import (
	"regexp"
	"testing"

	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/rules/rulestest"
)

var idRE = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// TestValidate checks the registry the way analysis.Validate does: unique
// kebab-case IDs, documentation, and a check.
func TestValidate(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules.All {
		if !idRE.MatchString(r.ID) {
			t.Errorf("rule ID %q is not kebab-case", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule ID %q registered twice", r.ID)
		}
		seen[r.ID] = true
		if r.Title == "" || r.Text == "" || r.Before == "" || r.After == "" {
			t.Errorf("%s: missing title, text or before/after example", r.ID)
		}
		n := 0
		for _, set := range []bool{r.Check != nil, r.CheckRun != nil, r.CheckApp != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: needs exactly one of Check, CheckRun and CheckApp", r.ID)
		}
		if r.Check != nil && len(r.Requires) == 0 {
			t.Errorf("%s: a kernel rule must say which metrics it requires", r.ID)
		}
		if r.CheckApp != nil && len(r.Requires) == 0 {
			t.Errorf("%s: an application rule must say which evidence it requires", r.ID)
		}
	}
	// The IDs the issue tracker promised users, which must never change.
	for _, id := range []string{"uncoalesced-global", "shared-bank-conflict", "tile-shared-memory", "uniform-load",
		"thread-divergence", "small-grid", "low-occupancy", "pageable-memcpy", "sync-memcpy",
		"memory-bound", "compute-bound", "latency-bound", "tensor-cores-unused"} {
		if !seen[id] {
			t.Errorf("rule %s is missing from the registry", id)
		}
	}
}

func TestSelect(t *testing.T) {
	for _, tt := range []struct {
		spec string
		want int
		err  bool
	}{
		{"all", len(rules.All), false},
		{"", len(rules.All), false},
		{"uncoalesced-global", 1, false},
		{"all,-low-occupancy", len(rules.All) - 1, false},
		{"*-memcpy", 2, false},
		{"*-bound", 3, false},
		{"all,-*-bound", len(rules.All) - 3, false},
		{"no-such-rule", 0, true},
	} {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := selectRules(tt.spec)
			if (err != nil) != tt.err {
				t.Errorf("Select(%q): error %v, want error %v", tt.spec, err, tt.err)
				return
			}
			if len(got) != tt.want {
				t.Errorf("Select(%q): got %d rules, want %d", tt.spec, len(got), tt.want)
			}
		})
	}
}

// TestFixtures runs every rule over the real captures and checks the
// findings against the expectation files kept beside them.
func TestFixtures(t *testing.T) {
	files := rulestest.Files("../../fixtures/ncu")
	files = append(files, rulestest.Files("../../fixtures/ncu-h100")...)
	files = append(files, rulestest.Files("testdata/nvprof")...)
	files = append(files, rulestest.Files("testdata/tensor-cores-unused")...)
	files = append(files, rulestest.Files("testdata/atomics")...)
	files = append(files, rulestest.Files("testdata/sol-check9")...)
	files = append(files, rulestest.Files("testdata/sol-check10")...)
	files = append(files, rulestest.Files("testdata/sol-check11")...)
	files = append(files, rulestest.Files("testdata/unpipelined-tiles")...)
	files = append(files, rulestest.Files("testdata/sol-check16")...)
	files = append(files, rulestest.Files("testdata/invariant-work")...)
	files = append(files, rulestest.Files("testdata/serial-loop")...)
	if len(files) == 0 {
		t.Fatal("no expectation files")
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) { rulestest.Run(t, f) })
	}
}

// Select returns the rules that a staticcheck-style list selects:
// "all", "ID", globs ("*-memcpy") and exclusions ("-low-occupancy"),
// applied left to right; empty selects all.
func selectRules(spec string) ([]*rules.Rule, error) {
	s, err := rules.NewSelector(spec, nil, nil)
	if err != nil {
		return nil, err
	}
	return s.Rules(), nil
}

// skipShort skips a test that reads every fixture, or a calibration, when
// go test runs with -short, the edit-test loop; CI runs it, and so does
// the calibration run before every landing (CONTRIBUTING.md).
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("every fixture or a calibration: runs without -short, as CI does")
	}
}
