package rules_test

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/rules"
)

func TestSelectorLists(t *testing.T) {
	for _, tt := range []struct {
		failOn []string
		rule   string
		want   bool
	}{
		{[]string{"all"}, "small-grid", true},
		{[]string{"all,-small-grid"}, "small-grid", false},
		{[]string{"all,-small-grid"}, "uncoalesced-global", true},
		{[]string{"all", "-small-grid"}, "small-grid", false}, // --fail-on, then the config's fail_on
		{[]string{"-small-grid,all"}, "small-grid", true},     // left to right: the last match decides
		{[]string{"-small-grid"}, "small-grid", false},        // a list that starts with an exclusion starts from all
		{[]string{"-small-grid"}, "uncoalesced-global", true},
		{[]string{"", "-small-grid"}, "memory-bound", true},
		{[]string{"*-memcpy"}, "pageable-memcpy", true},
		{[]string{"*-memcpy"}, "small-grid", false},
		{[]string{"all,-*-bound"}, "memory-bound", false},
		{nil, "small-grid", false},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			s, err := rules.NewSelector("", tt.failOn, nil)
			if err != nil {
				t.Fatalf("%v: %v", tt.failOn, err)
			}
			if got := s.Fails(tt.rule); got != tt.want {
				t.Errorf("fail-on %v, rule %s: got %v, want %v", tt.failOn, tt.rule, got, tt.want)
			}
			if !s.Runs(tt.rule) {
				t.Errorf("checks all: %s does not run", tt.rule)
			}
		})
	}
	s, err := rules.NewSelector("all,-low-occupancy", nil, nil)
	if err != nil || s.Runs("low-occupancy") || !s.Runs("small-grid") {
		t.Errorf("--checks all,-low-occupancy: runs low-occupancy %v, small-grid %v (%v)", s.Runs("low-occupancy"), s.Runs("small-grid"), err)
	}
	// --checks -small-grid alone once turned every rule off without a word.
	s, err = rules.NewSelector("-small-grid", nil, nil)
	if err != nil || s.Runs("small-grid") || !s.Runs("uncoalesced-global") || !s.Runs("low-occupancy") {
		t.Errorf("--checks -small-grid: runs small-grid %v, uncoalesced-global %v (%v)", s.Runs("small-grid"), s.Runs("uncoalesced-global"), err)
	}
}

// TestSelectorNamed holds FailsNamed: a rule the fail-on lists name by
// its ID, which a gate may not pass without checking.
func TestSelectorNamed(t *testing.T) {
	for _, tt := range []struct {
		failOn []string
		rule   string
		want   bool
	}{
		{[]string{"atomic-serialization"}, "atomic-serialization", true},
		{[]string{"uncoalesced-global,atomic-serialization"}, "atomic-serialization", true},
		{[]string{"all"}, "atomic-serialization", false},
		{[]string{"atomic-*"}, "atomic-serialization", false},
		{[]string{"atomic-serialization,-atomic-serialization"}, "atomic-serialization", false},
		{[]string{"atomic-serialization", "all"}, "atomic-serialization", false}, // the last match decides
		{[]string{"-small-grid"}, "atomic-serialization", false},
		{nil, "atomic-serialization", false},
	} {
		s, err := rules.NewSelector("", tt.failOn, nil)
		if err != nil {
			t.Fatalf("%v: %v", tt.failOn, err)
		}
		if got := s.FailsNamed(tt.rule); got != tt.want {
			t.Errorf("fail-on %v, rule %s: FailsNamed got %v, want %v", tt.failOn, tt.rule, got, tt.want)
		}
	}
}

func TestSelectorSuppressions(t *testing.T) {
	s, err := rules.NewSelector("", nil, []rules.Suppression{
		{Rule: "small-grid", Kernel: "^warmup", Reason: "start-up"},
		{Rule: "*-memcpy", Reason: "pinned in the next release"},
	})
	if err != nil {
		t.Fatal(err)
	}
	warm, main := &profan.Kernel{Name: "warmup_kernel"}, &profan.Kernel{Name: "main_kernel"}
	for _, tt := range []struct {
		rule string
		k    *profan.Kernel
		want bool
	}{
		{"small-grid", warm, true},
		{"small-grid", main, false},
		{"pageable-memcpy", nil, true}, // run-level: suppressions without a kernel apply
		{"sync-memcpy", main, true},
		{"uncoalesced-global", warm, false},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			if _, got := s.Suppressed(tt.rule, tt.k); got != tt.want {
				t.Errorf("%s on %v: suppressed %v, want %v", tt.rule, tt.k, got, tt.want)
			}
		})
	}
}

func TestSelectorErrors(t *testing.T) {
	for _, tt := range []struct {
		checks string
		failOn []string
		sups   []rules.Suppression
		want   string
	}{
		{"all,-no-such-rule", nil, nil, "--checks"},
		{"", []string{"all,-smal-grid"}, nil, "--fail-on"},
		{"", nil, []rules.Suppression{{Rule: "small-grid"}}, "no reason"},
		{"", nil, []rules.Suppression{{Rule: "nope", Reason: "x"}}, "unknown rule"},
		{"", nil, []rules.Suppression{{Rule: "small-grid", Kernel: "(", Reason: "x"}}, "kernel"},
	} {
		t.Run(tt.checks, func(t *testing.T) {
			_, err := rules.NewSelector(tt.checks, tt.failOn, tt.sups)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%q %v %v: got %v, want an error naming %q", tt.checks, tt.failOn, tt.sups, err, tt.want)
			}
		})
	}
}
