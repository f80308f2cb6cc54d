// Package gate is profan's CI policy: conditions on metrics, findings
// that fail, regressions against a baseline, and the exit status, decided
// from verdicts only (analysis.RunVerdict, or what the run database
// stored of one), gathered into kernel groups by analysis.Grouper. It does
// no I/O and no analysis.
package gate

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/units"
)

// Kind is what a check gates.
type Kind string

// The kinds of check.
const (
	kindRequire    Kind = "require"          // a condition on a metric
	kindFinding    Kind = "finding"          // a rule's finding on a kernel
	kindRunFinding Kind = "run-finding"      // a rule's finding on the run
	kindRegression Kind = "regression"       // a metric against the baseline
	kindNewFinding Kind = "new-finding"      // a finding the baseline lacked
	kindResolved   Kind = "resolved-finding" // a baseline finding this run lacks (never fails)
	kindMissing    Kind = "missing"          // a baseline kernel this run lacks
)

// Status is a check's outcome.
type Status string

// The outcomes of a check.
const (
	statusPass       Status = "pass"
	statusFail       Status = "fail"
	statusSkip       Status = "skip"
	statusSuppressed Status = "suppressed"
)

// Check is one evaluated gate condition for one kernel (or run).
type Check struct {
	Kernel    string
	Launch    string
	Kind      Kind
	Name      string // the condition, rule or metric
	Status    Status
	Message   string
	Source    string
	Finding   *profan.Finding
	Locations []profan.Location
	// Measure is the numbers a check compared, where it compared numbers;
	// nil else.
	Measure *Measure
	// Headroom is the verdict's sentence on the kernel's headroom no
	// finding explains (or what the page lacks to tell it), on a
	// kernel's finding checks; "" else.
	Headroom string
}

// headroom is a group's headroom sentence, as analyze states it: its
// representative launch's, else its first's.
func headroom(g *analysis.Group) string {
	if g.Rep != nil {
		return g.Rep.Limiter.Headroom.Sentence()
	}
	if g.First != nil {
		return g.First.Limiter.Headroom.Sentence()
	}
	return ""
}

// Measure is what a check compared: a metric's median in the run (New)
// against a condition's value, or against the baseline's median (Old),
// with the largest regression allowed and the test that decided; a
// finding's kernel share against --min-share. Fields that do not apply are
// NaN (numbers) or empty.
type Measure struct {
	Metric    string  // the metric, or "share" (of the capture's kernel time)
	Unit      string  // the metric's unit: s, %, ratio, ...
	Old       float64 // the baseline's median
	New       float64 // the run's median
	Delta     float64 // (New-Old)/Old
	Op        Op      // the condition's comparison (require); >= for a share
	Threshold float64 // require: the condition's value; regression: the largest regression allowed, a fraction; share: --min-share
	Test      string  // regression: the test that decided (stats.Method)
	P         float64 // its p-value
	// OldSpan and NewSpan are the wall spans of the baseline's and the
	// run's timelines, for the busy share's regression check; NaN else.
	OldSpan, NewSpan float64
}

func newMeasure(metric string) *Measure {
	unit := ""
	if d, ok := metrics.ByName(metric); ok {
		unit = d.Unit
	}
	nan := math.NaN()
	return &Measure{Metric: metric, Unit: unit, Old: nan, New: nan, Delta: nan, Threshold: nan, P: nan, OldSpan: nan, NewSpan: nan}
}

// Failed reports whether the check failed.
func (c Check) Failed() bool { return c.Status == statusFail }

// Result is a gate's outcome: every check, and how many failed.
type Result struct {
	Checks []Check
	Failed int
	// Baseline is the stored run the checks compared with; nil when the
	// gate had no --baseline.
	Baseline *Baseline
}

// Baseline is the stored run a gate compared with, as reports name it;
// or, when none could be found and the gate went on without (Missing says
// why), none.
type Baseline struct {
	Run     int64
	Labels  map[string]string
	Program string
	Missing string
}

// Passed reports whether every condition held: the exit status is 0 when
// it did, 1 when not.
func (r *Result) Passed() bool { return r.Failed == 0 }

// Op is a condition's comparison.
type Op string

// The comparisons a condition may make.
const (
	opLess      Op = "<"
	opLessEq    Op = "<="
	opGreater   Op = ">"
	opGreaterEq Op = ">="
	opEqual     Op = "=="
	opNotEqual  Op = "!="
)

// ops lists the comparisons, for messages.
var ops = []Op{opLess, opLessEq, opGreater, opGreaterEq, opEqual, opNotEqual}

// parseOp reads a comparison.
func parseOp(s string) (Op, error) {
	if o := Op(strings.TrimSpace(s)); slices.Contains(ops, o) {
		return o, nil
	}
	return "", fmt.Errorf("op %q is not one of < <= > >= == !=", s)
}

// Condition is 'METRIC OP VALUE', its value in the metric's unit.
type Condition struct {
	Metric string
	Op     Op
	Value  float64
	Kernel *regexp.Regexp // nil: every kernel
	Text   string         // as the user wrote it, for messages
}

// condRE reads 'METRIC OP VALUE'; the value's unit may stand apart from
// its number ('duration < 50 us'), as in a config's value.
var condRE = regexp.MustCompile(`^\s*([^<>=!\s]+)\s*(<=|>=|==|!=|<|>)\s*([^<>=!\s]\S*?(?:\s+(?:` + unitAlternatives() + `))?)\s*$`)

// unitAlternatives is the quantity units as a regexp alternation.
func unitAlternatives() string {
	us := units.QuantityUnits()
	for i, u := range us {
		us[i] = regexp.QuoteMeta(u)
	}
	return strings.Join(us, "|")
}

// ParseCondition parses 'METRIC OP VALUE'; the value may carry a unit.
func ParseCondition(s string) (Condition, error) {
	m := condRE.FindStringSubmatch(s)
	if m == nil {
		return Condition{}, fmt.Errorf("condition %q: want 'METRIC OP VALUE', e.g. 'gld_efficiency >= 80'", s)
	}
	c, err := NewCondition(m[1], Op(m[2]), m[3])
	if err != nil {
		return Condition{}, fmt.Errorf("condition %q: %v", s, err)
	}
	c.Text = strings.TrimSpace(s)
	return c, nil
}

// NewCondition makes the condition metric op value from its parts (a
// config file's fields): value is a units.Quantity ("80", "50us", "80%").
func NewCondition(metric string, op Op, value string) (Condition, error) {
	metric = strings.TrimSpace(metric)
	if metric == "" {
		return Condition{}, fmt.Errorf("no metric")
	}
	if _, err := parseOp(string(op)); err != nil {
		return Condition{}, err
	}
	v, err := conditionValue(metric, value)
	if err != nil {
		return Condition{}, err
	}
	return Condition{Metric: metric, Op: op, Value: v, Text: fmt.Sprintf("%s %s %s", metric, op, strings.TrimSpace(value))}, nil
}

// conditionValue reads the value of a condition on metric: a
// units.Quantity converted to the metric's unit (80% of a fraction is 0.8;
// a duration needs a time unit).
func conditionValue(metric, value string) (float64, error) {
	q, err := units.ParseQuantity(value)
	if err != nil {
		return 0, err
	}
	if err := q.NonNegative(); err != nil {
		return 0, err
	}
	if IsTimelineMetric(metric) {
		v, err := q.In("", true)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", metric, err)
		}
		return v, nil
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

// holds reports whether v meets the condition, both sides compared as
// units.AtThreshold rounds them: a kernel of exactly 72,288 ns meets
// "duration <= 72.288us" as it meets "duration <= 72288ns".
func (c Condition) holds(v float64) bool {
	v, t := units.AtThreshold(v), units.AtThreshold(c.Value)
	switch c.Op {
	case opLess:
		return v < t
	case opLessEq:
		return v <= t
	case opGreater:
		return v > t
	case opGreaterEq:
		return v >= t
	case opEqual:
		return v == t
	case opNotEqual:
		return v != t
	}
	return false
}

// exceeds reports whether v is past the limit max, compared as
// units.AtThreshold rounds them (a regression of exactly 5% is not past
// 5%, however the 5% was written).
func exceeds(v, max float64) bool { return units.AtThreshold(v) > units.AtThreshold(max) }

// Watched are the canonical metrics the regression gate compares by
// default, besides duration: the efficiencies and transactions per request.
var Watched = []string{"duration", "gld_efficiency", "gst_efficiency", "shared_efficiency",
	"gld_transactions_per_request", "gst_transactions_per_request",
	"shared_load_transactions_per_request", "shared_store_transactions_per_request"}

// Policy is what a gate checks.
type Policy struct {
	Conditions []Condition
	// Kernels matches the names of the kernels checked (nil: every one).
	Kernels *regexp.Regexp
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
	// MinShare is the smallest part of the capture's kernel time (0–1) a
	// kernel group must take for its findings to fail the gate: a finding
	// on a kernel of 0.01% of the capture is listed, not gated. 0 gates
	// every finding. A group whose time is unknown is gated.
	MinShare float64
	// History holds, per noisy metric and kernel name, the run-to-run
	// spread of the kernel's stored series: the noise single launches are
	// tested against.
	History map[string]map[string]stats.Spread
	// BaseTimeline is the baseline run's timeline, when it has one: the
	// runs' GPU busy share is held to it (an idle regression).
	BaseTimeline *analysis.Timeline
}

// defaultMinShare is --min-share's default: 0.5% of the capture.
const defaultMinShare = 0.005

// defaultMaxRegression is the largest regression a gate with a baseline
// allows when not told: 5%.
const defaultMaxRegression = 0.05

// NewPolicy returns the policy of a gate on conds that fails on the
// findings sel fails on; failOn says whether any rule was named to fail
// on, baseline whether the run is compared with a baseline (allowing
// defaultMaxRegression). With none of these, the gate is a linter:
// warning-level findings fail it (a config of thresholds or suppressions
// only gives none). A finding fails on groups of defaultMinShare or more.
func NewPolicy(conds []Condition, sel *rules.Selector, failOn, baseline bool) Policy {
	p := Policy{Conditions: conds, Selector: sel, MaxRegression: math.NaN(), MinShare: defaultMinShare,
		Lint: len(conds) == 0 && !failOn && !baseline}
	if baseline {
		p.MaxRegression = defaultMaxRegression
	}
	return p
}

// Selects reports whether the gate checks kernel k: its name, mangled or
// as displayed, matches p.Kernels (every kernel when nil).
func (p Policy) Selects(k *profan.Kernel) bool {
	return p.Kernels == nil || p.Kernels.MatchString(k.Name) || p.Kernels.MatchString(k.DisplayName())
}

// Grouper returns the grouper a gate with policy p reads the launches
// of a run (or of its baseline) into: by export and kernel name, keeping
// the samples of its conditions' metrics and, with a baseline, of the
// watched ones. A trace of 600,000 launches is then held as a few numbers
// per launch and two verdicts per kernel.
func (p Policy) Grouper(baseline bool) *analysis.Grouper {
	gr := analysis.NewGrouper(false)
	gr.BySource = true
	for _, c := range p.Conditions {
		if !IsTimelineMetric(c.Metric) {
			gr.KeepSamples(c.Metric)
		}
	}
	if baseline {
		gr.KeepSamples(Watched...)
	}
	return gr
}

// MissingMetricError reports a condition no kernel can be checked
// against under SkipMissing: a gate that checks nothing must not pass.
type MissingMetricError struct{ Condition Condition }

func (e *MissingMetricError) Error() string {
	if IsTimelineMetric(e.Condition.Metric) {
		return fmt.Sprintf("--require %q: no run given has a timeline (a trace with start times: a PyTorch profiler trace, nsys cuda_gpu_trace, nvprof --print-gpu-trace), so nothing would be checked", e.Condition.Text)
	}
	return fmt.Sprintf("--require %q: no kernel has metric %s, so nothing would be checked", e.Condition.Text, e.Condition.Metric)
}

// UnknownMetricError reports a metric that is neither canonical nor a raw
// metric of any kernel: a typo. Names are the names it may be given by.
type UnknownMetricError struct {
	Metric string
	Names  []string
}

func (e *UnknownMetricError) Error() string { return "unknown metric " + strconv.Quote(e.Metric) }

// Evaluate checks the kernel groups and runs under test (and, with a
// baseline, their regressions) against the policy. Every check is made on
// a kernel group, never on a launch: the output grows with the number of
// kernels, not with the length of the trace. cur and base are groupers
// that p.Grouper made.
func Evaluate(p Policy, cur *analysis.Grouper, runs []*analysis.RunVerdict, base *analysis.Grouper) (*Result, error) {
	var checks []Check
	for _, c := range p.Conditions {
		check := requireChecks
		if IsTimelineMetric(c.Metric) {
			check = func(c Condition, _ *analysis.Grouper, skip bool) ([]Check, error) {
				return timelineChecks(c, runs, skip)
			}
		}
		cs, err := check(c, cur, p.SkipMissing)
		if err != nil {
			return nil, err
		}
		checks = append(checks, cs...)
	}
	checks = append(checks, findingChecks(cur, runs, p)...)
	unrun, err := unrunChecks(cur, p)
	if err != nil {
		return nil, err
	}
	checks = append(checks, unrun...)
	if base != nil && !math.IsNaN(p.MaxRegression) {
		checks = append(checks, missingChecks(base, cur, p.AllowMissing)...)
		checks = append(checks, regressionChecks(base, cur, p)...)
		if p.BaseTimeline != nil {
			checks = append(checks, idleRegressions(p.BaseTimeline, runs, p.MaxRegression)...)
		}
	}
	r := &Result{Checks: checks}
	for _, c := range checks {
		if c.Failed() {
			r.Failed++
		}
	}
	return r, nil
}

// launchOf is the launch a group's check names: its only one, else none.
func launchOf(g *analysis.Group) string {
	if g.Records == 1 {
		return g.First.Record.ID
	}
	return ""
}

// launches says how many launches a figure is over: "", or " over N
// launches" (records, when summary rows stand for more).
func launches(g *analysis.Group, n int) string {
	switch {
	case g.Records == 1 && g.Launches == 1:
		return ""
	case g.Records == g.Launches:
		return fmt.Sprintf(" over %d launches", n)
	}
	return fmt.Sprintf(" over %d records of %d launches", n, g.Launches)
}

// requireChecks evaluates one condition on every kernel group: on the
// median of its launches' values, with their range said. A group the
// condition cannot be evaluated on (its metric is missing or unreadable on
// a launch) fails, or with skipMissing is skipped; a metric no group has is
// an error under skipMissing, so that a gate never passes by checking
// nothing. A name that is neither canonical nor a raw metric of any kernel
// is a typo.
func requireChecks(c Condition, cur *analysis.Grouper, skipMissing bool) ([]Check, error) {
	if _, ok := metrics.ByName(c.Metric); !ok {
		known := false
		for _, g := range cur.InOrder() {
			if len(g.Samples(c.Metric)) > 0 {
				known = true
				break
			}
		}
		if !known {
			return nil, &UnknownMetricError{Metric: c.Metric, Names: metricNames(cur)}
		}
	}
	var out []Check
	found, matched := false, false
	for _, g := range cur.InOrder() {
		k := g.First.Record
		if c.Kernel != nil && !c.Kernel.MatchString(k.Name) && !c.Kernel.MatchString(k.DisplayName()) {
			continue
		}
		matched = true
		xs := g.Samples(c.Metric)
		lacking := g.Records - len(xs)
		ch := Check{Kernel: g.Name, Launch: launchOf(g), Kind: kindRequire, Name: c.Text, Source: g.Source}
		if len(xs) == 0 {
			if skipMissing {
				ch.Status, ch.Message = statusSkip, fmt.Sprintf("%s: not in this export (skipped: --skip-missing)", c.Metric)
			} else {
				ch.Status, ch.Message = statusFail, fmt.Sprintf("%s: not in this export, so the condition cannot be evaluated (--skip-missing skips such kernels)", c.Metric)
			}
			out = append(out, ch)
			continue
		}
		found = true
		m := stats.Median(xs)
		ch.Measure = newMeasure(c.Metric)
		ch.Measure.New, ch.Measure.Op, ch.Measure.Threshold = m, c.Op, c.Value
		msg := fmt.Sprintf("%s = %s", c.Metric, formatMetric(c.Metric, m))
		if len(xs) > 1 {
			msg = fmt.Sprintf("%s: median %s%s (%s – %s)", c.Metric, formatMetric(c.Metric, m), launches(g, len(xs)),
				formatMetric(c.Metric, slices.Min(xs)), formatMetric(c.Metric, slices.Max(xs)))
		}
		switch {
		case lacking > 0 && !skipMissing:
			ch.Status, ch.Message = statusFail, fmt.Sprintf("%s; %d of the %d records lack it, so the condition cannot be evaluated on them (--skip-missing skips them)", msg, lacking, g.Records)
		case c.holds(m):
			ch.Status, ch.Message = statusPass, msg
		default:
			ch.Status, ch.Message = statusFail, fmt.Sprintf("%s, want %s %s", msg, c.Op, formatMetric(c.Metric, c.Value))
		}
		out = append(out, ch)
	}
	if !matched && c.Kernel != nil {
		return nil, &noKernelError{Condition: c}
	}
	if !found && skipMissing {
		return nil, &MissingMetricError{Condition: c}
	}
	return out, nil
}

// noKernelError reports a condition whose kernel pattern matches no
// kernel: it would check nothing, and a gate never passes on that.
type noKernelError struct{ Condition Condition }

func (e *noKernelError) Error() string {
	return fmt.Sprintf("condition %q: its kernel pattern %q matches no kernel, so nothing would be checked", e.Condition.Text, e.Condition.Kernel.String())
}

// metricNames are the names a metric may be given by: the canonical ones
// and the raw ones of the groups' first launches.
func metricNames(cur *analysis.Grouper) []string {
	names := slices.Clone(metrics.Names())
	seen := map[string]bool{}
	for _, g := range cur.InOrder() {
		for _, m := range g.First.Record.Metrics {
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
func missingChecks(base, cur *analysis.Grouper, allow bool) []Check {
	var out []Check
	for _, g := range base.InOrder() {
		if _, ok := cur.Group(g.Name); ok {
			continue
		}
		ch := Check{Kernel: g.Name, Kind: kindMissing, Name: "baseline kernel", Source: g.Source}
		if allow {
			ch.Status, ch.Message = statusSkip, "in the baseline run but not in this run (allowed: --allow-missing)"
		} else {
			ch.Status, ch.Message = statusFail, "in the baseline run but not in this run: it went unread or unprofiled (--allow-missing allows this)"
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

// regressionChecks compares each kernel group with the same group of the
// baseline: watched metrics in their worse direction, and new findings.
func regressionChecks(base, cur *analysis.Grouper, p Policy) []Check {
	maxReg, sel, hist := p.MaxRegression, p.Selector, p.History
	var out []Check
	for _, g := range cur.InOrder() {
		b, ok := base.Group(g.Name)
		if !ok {
			out = append(out, Check{Kernel: g.Name, Kind: kindRegression, Name: "baseline", Status: statusSkip, Message: "not in the baseline run", Source: g.Source})
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
			ch := Check{Kernel: g.Name, Kind: kindRegression, Name: m, Source: g.Source, Measure: newMeasure(m)}
			ch.Measure.Old, ch.Measure.New, ch.Measure.Delta, ch.Measure.Threshold = mb, mc, stats.Rel(mb, mc), maxReg
			msg := fmt.Sprintf("%s %s → %s (%+.1f%%) against the baseline", m, metrics.Format(mb, d.Unit), metrics.Format(mc, d.Unit), finiteOr(stats.Rel(mb, mc), 0)*100)
			c := stats.CompareMetric(metrics.Noisy(m), xb, xc, hist[m][g.Name], stats.DefaultThresholds.MinRelChange)
			ch.Measure.Test = string(c.Method)
			if c.Method == stats.Launches || c.Method == stats.History {
				ch.Measure.P = c.P
			}
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
			case exceeds(worse, maxReg) && significant:
				ch.Status, ch.Message = statusFail, msg+fmt.Sprintf(": worse by more than %s", fmtPct(maxReg))
			case exceeds(worse, maxReg):
				ch.Status, ch.Message = statusPass, msg+": within the noise"
			default:
				ch.Status, ch.Message = statusPass, msg
			}
			out = append(out, ch)
		}
		had := b.Rules()
		now := g.Rules()
		for _, r := range sortedRules(had) {
			if _, ok := now[r]; ok {
				continue
			}
			if rule, ok := rules.ByID(r); ok && rule.Severity == profan.Info {
				continue // a reading (latency-bound), not a problem solved
			}
			f := had[r]
			out = append(out, Check{Kernel: g.Name, Kind: kindResolved, Name: r, Source: g.Source, Status: statusPass,
				Message: "resolved since the baseline: " + f.Message})
		}
		for _, r := range sortedRules(now) {
			if _, ok := had[r]; ok {
				continue
			}
			f := now[r]
			ch := Check{Kernel: g.Name, Kind: kindNewFinding, Name: r, Source: g.Source, Finding: &f, Locations: f.Locations, Measure: shareMeasure(cur, g, p), Headroom: headroom(g),
				Message: "new since the baseline: " + f.Message}
			if reason, ok := sel.Suppressed(r, g.First.Record); ok {
				ch.Status, ch.Message = statusSuppressed, ch.Message+" (suppressed: "+reason+")"
			} else if skipped(b.First, r) {
				// The baseline's export lacked the rule's counters: the
				// finding may be as old as the kernel.
				ch.Status, ch.Message = statusPass, "not gated: the baseline's export lacks the counters this rule reads, so it could not have had it: "+f.Message
			} else if rule, ok := rules.ByID(r); ok && rule.Severity == profan.Info {
				ch.Status = statusPass // informational rules (roofline place) do not gate
			} else if share := cur.ShareOf(g); exceeds(p.MinShare, share) {
				ch.Status, ch.Message = statusPass, ch.Message+fmt.Sprintf(" (not gated: the kernel takes %s of the capture, under --min-share %s)", fmtShare(share), fmtPct(p.MinShare))
			} else {
				ch.Status = statusFail
			}
			out = append(out, ch)
		}
	}
	return out
}

// skipped reports whether rule could not run on a for want of counters
// its export could have held (a.Missing): not a rule that ran, or found
// nothing to read (a kernel without shared memory has no bank conflicts).
func skipped(a *analysis.Kernel, rule string) bool {
	for _, m := range a.Missing {
		if m.Rule == rule {
			return true
		}
	}
	return false
}

// shareMeasure is a finding check's numbers: the group's share of the
// capture's kernel time against --min-share.
func shareMeasure(cur *analysis.Grouper, g *analysis.Group, p Policy) *Measure {
	m := newMeasure("share")
	m.Unit, m.New, m.Op, m.Threshold = "fraction", cur.ShareOf(g), ">=", p.MinShare
	return m
}

// fmtShare prints a share of the capture: 0.04%, <0.01%.
func fmtShare(f float64) string {
	if f < 0.0001 {
		return "<0.01%"
	}
	return strconv.FormatFloat(f*100, 'f', 2, 64) + "%"
}

func finiteOr(v, d float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return d
	}
	return v
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

// sortedRules returns the rule IDs of m in order.
func sortedRules[T any](m map[string]T) []string { return slices.Sorted(maps.Keys(m)) }
