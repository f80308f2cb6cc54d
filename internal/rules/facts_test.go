package rules

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// TestRuleFacts holds every rule to its facts: a cause, a scope, one
// check, thresholds that are fields of Thresholds; and every field of
// Thresholds to a range some rule (or the engine) declares, so that the
// config refuses a value at which no rule could fire.
func TestRuleFacts(t *testing.T) {
	for _, r := range All {
		if err := r.validate(); err != nil {
			t.Error(err)
		}
	}
	if err := DefaultThresholds.Validate(); err != nil {
		t.Errorf("the default thresholds: %v", err)
	}
	v := reflect.ValueOf(DefaultThresholds)
	for i := range v.NumField() {
		bad := DefaultThresholds
		key := thresholdKey(v.Type().Field(i))
		reflect.ValueOf(&bad).Elem().Field(i).SetFloat(math.Inf(1))
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s = +Inf: Validate says %v", key, err)
		}
	}
}

// TestNewRuleIsOneFile adds a rule as a contributor would, one value
// with its facts (its file) and one line in All, and holds that nothing
// else is needed: it validates, --checks selects it, its thresholds are
// checked, its cause groups it, and on a library kernel its scope decides
// what it says (cuDNN's kernel is not told to fix its source).
func TestNewRuleIsOneFile(t *testing.T) {
	r := &Rule{
		ID: "throwaway-spill", Title: "A throwaway rule", Text: "Says every kernel spills.",
		Severity: profan.Warning, Cause: CauseMemory, Scope: Algorithm, Locates: true,
		Thresholds: []*Threshold{minTrafficShare},
		Check: func(p *Pass) {
			p.report(estimate(0.5), Note{Message: "spills", Advice: "fix your source"})
		},
	}
	saved := All
	All = append(slices.Clone(All), r) // the registry line
	defer func() { All = saved }()

	if err := r.validate(); err != nil {
		t.Fatal(err)
	}
	if err := DefaultThresholds.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := CauseOf(r.ID); got != "memory" {
		t.Errorf("cause %q, want memory", got)
	}
	eng, err := NewEngine(r.ID)
	if err != nil {
		t.Fatal(err)
	}
	run := &profan.Run{Tool: profan.ToolNCU}
	for _, c := range []struct{ kernel, advice string }{
		{"void spill(float *)", "fix your source"},
		{"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(cudnn::winograd_nonfused::WinogradDataParams<float, float>)", "cuDNN chose this convolution algorithm"},
	} {
		a := analysis.Analyze(run, &profan.Kernel{ID: "k", Name: c.kernel}, analysis.Options{Rules: eng})
		if len(a.Findings) != 1 || !strings.HasPrefix(a.Findings[0].Advice, c.advice) {
			t.Errorf("%s: findings %+v, want one advising %q", c.kernel, a.Findings, c.advice)
		}
	}

	for _, broken := range []func(*Rule){
		func(r *Rule) { r.Scope = 0 },
		func(r *Rule) { r.Cause = "" },
		func(r *Rule) { r.Thresholds = []*Threshold{share("no_such_key")} },
		func(r *Rule) { r.Library = func(*analysis.Kernel, *profan.Finding) bool { return true } },
		func(r *Rule) { r.CheckRun = func(*RunPass) {} },
	} {
		x := *r
		broken(&x)
		if err := x.validate(); err == nil {
			t.Errorf("%+v validates", x)
		}
	}
}
