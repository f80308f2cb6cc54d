package gate

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/rules"
	"github.com/profan-dev/profan/stats"
	"github.com/profan-dev/profan/units"
)

// Check is one evaluated gate condition for one kernel (or run).
type Check struct {
	Kernel    string
	Launch    string
	Kind      string // require, finding, run-finding, regression, new-finding, missing
	Name      string // the condition, rule or metric
	Status    string // pass, fail, skip, suppressed
	Message   string
	Source    string
	Finding   *profan.Finding
	Locations []profan.Location
}

// Failed reports whether the check failed.
func (c Check) Failed() bool { return c.Status == "fail" }

// Result is a gate's outcome: every check, and how many failed.
type Result struct {
	Checks []Check
	Failed int
}

// Passed reports whether every condition held: the exit status is 0 when
// it did, 1 when not.
func (r *Result) Passed() bool { return r.Failed == 0 }

// Condition is a parsed 'METRIC OP VALUE'.
type Condition struct {
	Metric string
	Op     string
	Value  float64
	Kernel *regexp.Regexp // nil: every kernel
	Text   string
}

var condRE = regexp.MustCompile(`^\s*([^<>=!\s]+)\s*(<=|>=|==|!=|<|>)\s*([^<>=!\s]\S*)\s*$`)

// ParseCondition parses 'METRIC OP VALUE'; the value may carry a unit.
func ParseCondition(s string) (Condition, error) {
	m := condRE.FindStringSubmatch(s)
	if m == nil {
		return Condition{}, fmt.Errorf("condition %q: want 'METRIC OP VALUE', e.g. 'gld_efficiency >= 80'", s)
	}
	v, err := ConditionValue(m[1], m[3])
	if err != nil {
		return Condition{}, fmt.Errorf("condition %q: %v", s, err)
	}
	return Condition{Metric: m[1], Op: m[2], Value: v, Text: strings.TrimSpace(s)}, nil
}

// ConditionValue reads the value of a condition on metric: a
// units.Quantity converted to the metric's unit (80% of a fraction is 0.8;
// a duration needs a time unit).
func ConditionValue(metric, value string) (float64, error) {
	q, err := units.ParseQuantity(value)
	if err != nil {
		return 0, err
	}
	if err := q.NonNegative(); err != nil {
		return 0, err
	}
	d, ok := metrics.ByName(metric)
	if !ok {
		// A raw metric: stored in base units, its unit unknown here.
		return q.Value, nil
	}
	v, err := q.In(d.Unit, metrics.IsFraction(metric))
	if err != nil {
		return 0, fmt.Errorf("%s: %v", metric, err)
	}
	return v, nil
}

func (c Condition) holds(v float64) bool {
	switch c.Op {
	case "<":
		return v < c.Value
	case "<=":
		return v <= c.Value
	case ">":
		return v > c.Value
	case ">=":
		return v >= c.Value
	case "==":
		return v == c.Value
	case "!=":
		return v != c.Value
	}
	return false
}

// Watched are the canonical metrics the regression gate compares by
// default, besides duration: the efficiencies and transactions per request.
var Watched = []string{"duration", "gld_efficiency", "gst_efficiency", "shared_efficiency",
	"gld_transactions_per_request", "gst_transactions_per_request",
	"shared_load_transactions_per_request", "shared_store_transactions_per_request"}

// Policy is what a gate checks.
type Policy struct {
	Conditions []Condition
	// Selector says which findings fail and which are suppressed.
	Selector *rules.Selector
	// MaxRegression is the largest regression allowed against the
	// baseline (0.1 = 10%); NaN when there is no baseline.
	MaxRegression float64
	// SkipMissing skips, rather than fails, kernels a condition cannot be
	// evaluated on.
	SkipMissing bool
	// AllowMissing lets kernels of the baseline be absent from the run.
	AllowMissing bool
	// Lint fails on warning-level findings: a gate given no condition at
	// all is a linter.
	Lint bool
	// History holds, per noisy metric and kernel name, the run-to-run
	// spread of the kernel's stored series: the noise single launches are
	// tested against.
	History map[string]map[string]stats.Spread
}

// MissingMetricError reports a condition no kernel can be checked
// against under SkipMissing: a gate that checks nothing must not pass.
type MissingMetricError struct{ Condition Condition }

func (e *MissingMetricError) Error() string {
	return fmt.Sprintf("--require %q: no kernel has metric %s, so nothing would be checked", e.Condition.Text, e.Condition.Metric)
}

// UnknownMetricError reports a metric that is neither canonical nor a raw
// metric of any kernel: a typo. Names are the names it may be given by.
type UnknownMetricError struct {
	Metric string
	Names  []string
}

func (e *UnknownMetricError) Error() string { return "unknown metric " + strconv.Quote(e.Metric) }

// Evaluate checks the kernels and runs under test (and, with a baseline,
// their regressions) against the policy.
func Evaluate(p Policy, kernels []Kernel, runs []Run, baseline []Kernel) (*Result, error) {
	var checks []Check
	for _, c := range p.Conditions {
		cs, err := requireChecks(c, kernels, p.SkipMissing)
		if err != nil {
			return nil, err
		}
		checks = append(checks, cs...)
	}
	checks = append(checks, findingChecks(kernels, runs, p.Selector, p.Lint)...)
	if baseline != nil && !math.IsNaN(p.MaxRegression) {
		checks = append(checks, missingChecks(baseline, kernels, p.AllowMissing)...)
		checks = append(checks, regressionChecks(baseline, kernels, p.MaxRegression, p.Selector, p.History)...)
	}
	r := &Result{Checks: checks}
	for _, c := range checks {
		if c.Failed() {
			r.Failed++
		}
	}
	return r, nil
}

// requireChecks evaluates one condition on every kernel. A kernel the
// condition cannot be evaluated on (its metric is missing or unreadable)
// fails, or with skipMissing is skipped; a metric no kernel has is an error
// under skipMissing, so that a gate never passes by checking nothing. A
// name that is neither canonical nor a raw metric of any kernel is a typo.
func requireChecks(c Condition, kernels []Kernel, skipMissing bool) ([]Check, error) {
	if _, ok := metrics.ByName(c.Metric); !ok {
		known := false
		for _, v := range kernels {
			if _, ok := v.K.Value(c.Metric); ok {
				known = true
				break
			}
		}
		if !known {
			return nil, &UnknownMetricError{Metric: c.Metric, Names: metricNames(kernels)}
		}
	}
	var out []Check
	found := false
	for _, v := range kernels {
		if c.Kernel != nil && !c.Kernel.MatchString(v.K.Name) && !c.Kernel.MatchString(v.K.DisplayName()) {
			continue
		}
		x, ok := v.Value(c.Metric)
		ch := Check{Kernel: v.Name(), Launch: v.K.ID, Kind: "require", Name: c.Text, Source: v.Source}
		switch {
		case !ok && skipMissing:
			ch.Status, ch.Message = "skip", fmt.Sprintf("%s: not in this export (skipped: --skip-missing)", c.Metric)
		case !ok:
			ch.Status, ch.Message = "fail", fmt.Sprintf("%s: not in this export, so the condition cannot be evaluated (--skip-missing skips such kernels)", c.Metric)
		case c.holds(x):
			found = true
			ch.Status, ch.Message = "pass", fmt.Sprintf("%s = %s", c.Metric, formatMetric(c.Metric, x))
		default:
			found = true
			ch.Status, ch.Message = "fail", fmt.Sprintf("%s = %s, want %s %s", c.Metric, formatMetric(c.Metric, x), c.Op, formatMetric(c.Metric, c.Value))
		}
		out = append(out, ch)
	}
	if !found && skipMissing {
		return nil, &MissingMetricError{Condition: c}
	}
	return out, nil
}

// metricNames are the names a metric may be given by: the canonical ones
// and the raw ones of these kernels.
func metricNames(kernels []Kernel) []string {
	names := slices.Clone(metrics.Names())
	seen := map[string]bool{}
	for _, v := range kernels {
		for _, m := range v.K.Metrics {
			if !seen[m.Name] {
				seen[m.Name] = true
				names = append(names, m.Name)
			}
		}
	}
	return names
}

// missingChecks lists the baseline's kernels absent from the run: they
// went unread or unprofiled, which fails unless allowed.
func missingChecks(base, cur []Kernel, allow bool) []Check {
	have := map[string]bool{}
	for _, v := range cur {
		have[v.Name()] = true
	}
	var out []Check
	for _, g := range GroupByName(base) {
		if have[g.Name] {
			continue
		}
		ch := Check{Kernel: g.Name, Kind: "missing", Name: "baseline kernel", Source: g.Kernels[0].Source}
		if allow {
			ch.Status, ch.Message = "skip", "in the baseline run but not in this run (allowed: --allow-missing)"
		} else {
			ch.Status, ch.Message = "fail", "in the baseline run but not in this run: it went unread or unprofiled (--allow-missing allows this)"
		}
		out = append(out, ch)
	}
	return out
}

func formatMetric(name string, v float64) string {
	if d, ok := metrics.ByName(name); ok {
		return metrics.Format(v, d.Unit)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// findingChecks turns the verdicts' findings into checks: failing for the
// rules the selector fails on, informational for the others; suppressed
// findings are listed as such.
func findingChecks(kernels []Kernel, runs []Run, sel *rules.Selector, lint bool) []Check {
	var out []Check
	add := func(kind, kernel, launch, source string, f profan.Finding, suppressed string, isSup bool) {
		ch := Check{Kernel: kernel, Launch: launch, Kind: kind, Name: f.Rule, Message: f.Message, Source: source, Finding: &f, Locations: f.Locations}
		switch {
		case isSup:
			ch.Status, ch.Message = "suppressed", f.Message+" (suppressed: "+suppressed+")"
		case sel.Fails(f.Rule), lint && f.Severity >= profan.Warning:
			ch.Status = "fail"
		default:
			ch.Status = "pass" // reported, not gated
		}
		out = append(out, ch)
	}
	for _, r := range runs {
		for _, f := range r.Findings {
			add("run-finding", r.Source, "", r.Source, f, "", false)
		}
		for _, s := range r.Suppressed {
			add("run-finding", r.Source, "", r.Source, s.Finding, s.Reason, true)
		}
	}
	for _, v := range kernels {
		for _, f := range v.Findings {
			// Stored verdicts made before a suppression was configured.
			reason, sup := sel.Suppressed(f.Rule, v.K)
			add("finding", v.Name(), v.K.ID, v.Source, f, reason, sup)
		}
		for _, s := range v.Suppressed {
			add("finding", v.Name(), v.K.ID, v.Source, s.Finding, s.Reason, true)
		}
	}
	return out
}

// regressionChecks compares each kernel with the same kernel of the
// baseline: watched metrics in their worse direction, and new findings.
func regressionChecks(base, cur []Kernel, maxReg float64, sel *rules.Selector, hist map[string]map[string]stats.Spread) []Check {
	byName := map[string]*Group{}
	for _, g := range GroupByName(base) {
		byName[g.Name] = g
	}
	var out []Check
	for _, g := range GroupByName(cur) {
		b, ok := byName[g.Name]
		if !ok {
			out = append(out, Check{Kernel: g.Name, Kind: "regression", Name: "baseline", Status: "skip", Message: "not in the baseline run", Source: g.Kernels[0].Source})
			continue
		}
		for _, m := range Watched {
			d, _ := metrics.ByName(m)
			xb, xc := b.Samples(m), g.Samples(m)
			if len(xb) == 0 || len(xc) == 0 {
				continue
			}
			mb, mc := stats.Median(xb), stats.Median(xc)
			worse := stats.Rel(mb, mc) * float64(-d.Better) // positive when worse
			if mb == 0 {
				worse = 0
				if (mc > 0) == (d.Better < 0) && mc != 0 {
					worse = math.Inf(1)
				}
			}
			ch := Check{Kernel: g.Name, Kind: "regression", Name: m, Source: g.Kernels[0].Source}
			msg := fmt.Sprintf("%s %s → %s (%+.1f%%) against the baseline", m, metrics.Format(mb, d.Unit), metrics.Format(mc, d.Unit), finiteOr(stats.Rel(mb, mc), 0)*100)
			c := CompareMetric(m, xb, xc, hist[m][g.Name], stats.DefaultThresholds.MinRelChange)
			switch c.Method {
			case stats.Launches:
				msg += fmt.Sprintf(", Mann-Whitney U %s over %d and %d launches", formatP(c.P), len(xb), len(xc))
			case stats.History:
				msg += fmt.Sprintf(", history t-test %s against the %s", formatP(c.P), hist[m][g.Name])
			case stats.Floor:
				msg += ", one launch each and no run-to-run spread known: the size of the step alone decides"
			}
			significant := c.Method == stats.Exact || c.Method == stats.Floor || c.Changed
			switch {
			case worse > maxReg && significant:
				ch.Status, ch.Message = "fail", msg+fmt.Sprintf(": worse by more than %s", fmtPct(maxReg))
			case worse > maxReg:
				ch.Status, ch.Message = "pass", msg+": within the noise"
			default:
				ch.Status, ch.Message = "pass", msg
			}
			out = append(out, ch)
		}
		had := b.Rules()
		now := g.Rules()
		for _, r := range SortedRules(now) {
			if _, ok := had[r]; ok {
				continue
			}
			f := now[r]
			ch := Check{Kernel: g.Name, Kind: "new-finding", Name: r, Source: g.Kernels[0].Source, Finding: &f, Locations: f.Locations,
				Message: "new since the baseline: " + f.Message}
			if reason, ok := sel.Suppressed(r, g.Kernels[0].K); ok {
				ch.Status, ch.Message = "suppressed", ch.Message+" (suppressed: "+reason+")"
			} else if rule, ok := rules.ByID(r); ok && rule.Severity == profan.Info {
				ch.Status = "pass" // informational rules (roofline place) do not gate
			} else {
				ch.Status = "fail"
			}
			out = append(out, ch)
		}
	}
	return out
}

func finiteOr(v, d float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return d
	}
	return v
}

// Comparison is the one comparison of a metric between two runs.
type Comparison struct {
	Changed bool
	P       float64
	Method  stats.Method
}

// CompareMetric compares a metric's launches in two runs. Counters are
// compared exactly (a move of more than minRel); timings with
// stats.CompareRuns: the launches when both runs have three or more, else
// the run-to-run spread of the kernel's history, else the 5% floor.
func CompareMetric(metric string, xa, xb []float64, hist stats.Spread, minRel float64) Comparison {
	if !Noisy(metric) {
		return Comparison{Changed: math.Abs(stats.Rel(stats.Median(xa), stats.Median(xb))) > minRel && stats.Median(xa) != stats.Median(xb), Method: stats.Exact}
	}
	ch, p, m := stats.NoisyThresholds.CompareRuns(xa, xb, hist)
	return Comparison{Changed: ch, P: p, Method: m}
}

// fmtPct prints a fraction as a percentage without trailing zeros: 10%, 2.5%.
func fmtPct(f float64) string {
	return strconv.FormatFloat(f*100, 'f', -1, 64) + "%"
}

// formatP prints a p-value, p=0.008, or p<0.001 below 0.001.
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}

// Noisy reports whether a metric varies from run to run by nature.
func Noisy(metric string) bool {
	m := strings.ToLower(metric)
	for _, s := range []string{"duration", "time", "throughput", "per_second", "pct_of_peak", "peak_pct", "utilization", "occupancy", "sm_efficiency", "frequency", "cycles", "ipc"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}
