package gate_test

import (
	"errors"
	"math"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/rules"
)

var xRun = &profan.Run{Source: "x.csv"}

// kernel is a verdict as a run database stores it.
func kernel(id, name string, dur float64, fs ...profan.Finding) *analysis.Kernel {
	return analysis.Restore(xRun, &profan.Kernel{ID: id, Name: name, Duration: math.NaN()},
		analysis.Stored{Metrics: map[string]float64{"duration": dur}, Findings: fs}, analysis.Options{})
}

// collect groups kernels as a gate does, keeping every canonical metric.
func collect(ks []*analysis.Kernel) *analysis.Grouper {
	c := analysis.NewGrouper(false)
	c.BySource = true
	c.KeepAllSamples()
	for _, k := range ks {
		c.Add(k)
	}
	return c
}

func TestEvaluate(t *testing.T) {
	grid := profan.Finding{Rule: "small-grid", Severity: profan.Warning, Message: "few blocks"}
	mem := profan.Finding{Rule: "memory-bound", Severity: profan.Info, Message: "memory"}
	page := profan.Finding{Rule: "pageable-memcpy", Severity: profan.Warning, Message: "31 host transfers"}
	ks := []*analysis.Kernel{kernel("0", "a", 2e-6, grid, mem), kernel("1", "b", 9e-6)}
	runs := []*analysis.RunVerdict{{Run: &profan.Run{Source: "trace.csv"}, Findings: []profan.Finding{page}}}
	cond, err := gate.ParseCondition("duration < 5us")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		pol    gate.Policy
		failed int
	}{
		{"nothing gated", gate.Policy{Selector: mustSelector("all"), MaxRegression: math.NaN()}, 0},
		{"fail on all", gate.Policy{Selector: mustSelector("all", "all"), MaxRegression: math.NaN()}, 3},
		{"exclusion", gate.Policy{Selector: mustSelector("all", "all,-small-grid"), MaxRegression: math.NaN()}, 2},
		{"run-level rule", gate.Policy{Selector: mustSelector("all", "pageable-memcpy"), MaxRegression: math.NaN()}, 1},
		{"lint fails on warnings", gate.Policy{Selector: mustSelector("all"), MaxRegression: math.NaN(), Lint: true}, 2},
		{"condition", gate.Policy{Conditions: []gate.Condition{cond}, Selector: mustSelector("all"), MaxRegression: math.NaN()}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := gate.Evaluate(tt.pol, collect(ks), runs, nil)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if r.Failed != tt.failed || r.Passed() != (tt.failed == 0) {
				t.Errorf("%s: %d failed, want %d: %+v", tt.name, r.Failed, tt.failed, r.Checks)
			}
		})
	}
}

func TestEvaluateSuppressed(t *testing.T) {
	sel, err := rules.NewSelector("all", []string{"all"}, []rules.Suppression{{Rule: "small-grid", Reason: "start-up"}})
	if err != nil {
		t.Fatal(err)
	}
	grid := profan.Finding{Rule: "small-grid", Severity: profan.Warning}
	// A stored verdict made before the suppression, and a fresh one that
	// kept the finding aside: both are listed as suppressed, neither fails.
	ks := []*analysis.Kernel{kernel("0", "a", 1, grid),
		analysis.Restore(xRun, &profan.Kernel{ID: "1", Name: "b"}, analysis.Stored{Suppressed: []analysis.Suppressed{{Finding: grid, Reason: "start-up"}}}, analysis.Options{})}
	r, err := gate.Evaluate(gate.Policy{Selector: sel, MaxRegression: math.NaN()}, collect(ks), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sup := 0
	for _, c := range r.Checks {
		if c.Status == "suppressed" {
			sup++
		}
	}
	if r.Failed != 0 || sup != 2 {
		t.Errorf("%d failed, %d suppressed, want 0 and 2: %+v", r.Failed, sup, r.Checks)
	}
}

func TestEvaluateBaseline(t *testing.T) {
	base := []*analysis.Kernel{kernel("0", "a", 1e-6), kernel("1", "gone", 1e-6)}
	cur := []*analysis.Kernel{kernel("0", "a", 2e-6, profan.Finding{Rule: "small-grid", Severity: profan.Warning})}
	pol := gate.Policy{Selector: mustSelector("all"), MaxRegression: 0.1}
	r, err := gate.Evaluate(pol, collect(cur), nil, collect(base))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[gate.Kind]string{}
	for _, c := range r.Checks {
		if c.Failed() {
			kinds[c.Kind] = c.Kernel
		}
	}
	if kinds["regression"] != "a" || kinds["new-finding"] != "a" || kinds["missing"] != "gone" {
		t.Errorf("failed checks %v, want a regression and a new finding on a, and the missing kernel gone", kinds)
	}
	pol.AllowMissing = true
	if r, _ = gate.Evaluate(pol, collect(cur), nil, collect(base)); r.Failed != 2 {
		t.Errorf("--allow-missing: %d failed, want 2", r.Failed)
	}
}

func TestEvaluateErrors(t *testing.T) {
	ks := []*analysis.Kernel{kernel("0", "a", 1)}
	c, _ := gate.ParseCondition("gld_efficiency >= 80")
	_, err := gate.Evaluate(gate.Policy{Conditions: []gate.Condition{c}, SkipMissing: true, MaxRegression: math.NaN()}, collect(ks), nil, nil)
	var miss *gate.MissingMetricError
	if !errors.As(err, &miss) {
		t.Errorf("a metric no kernel has, under --skip-missing: got %v, want MissingMetricError", err)
	}
	c.Metric = "gld_eficiency"
	_, err = gate.Evaluate(gate.Policy{Conditions: []gate.Condition{c}, MaxRegression: math.NaN()}, collect(ks), nil, nil)
	var unknown *gate.UnknownMetricError
	if !errors.As(err, &unknown) {
		t.Errorf("a typo: got %v, want UnknownMetricError", err)
	}
}

// mustSelector is rules.NewSelector for lists known to be valid.
func mustSelector(checks string, failOn ...string) *rules.Selector {
	s, err := rules.NewSelector(checks, failOn, nil)
	if err != nil {
		panic(err)
	}
	return s
}

// TestConditionSpellings: a condition's value may have its unit apart
// ('duration < 72.288 us') and in the exports' spellings (usec); each is
// the one threshold. A unit that is not one is refused.
func TestConditionSpellings(t *testing.T) {
	want, err := gate.ParseCondition("duration <= 72288ns")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"duration <= 72.288 us", "duration<=72.288usec", " duration <= 0.072288 msecond ", "duration <= 72,288 ns"} {
		c, err := gate.ParseCondition(s)
		if err != nil || c.Value != want.Value {
			t.Errorf("%q: %v %v, want %v", s, c.Value, err, want.Value)
		}
	}
	for _, s := range []string{"duration <= 72 288ns", "duration <= 72.288 parsecs", "duration <= 1_0_0us", "duration <= 0x1p3s", "duration <= 72.288 us us"} {
		if c, err := gate.ParseCondition(s); err == nil {
			t.Errorf("%q: read as %v", s, c.Value)
		}
	}
}
