package cli

import (
	"errors"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/rules"
	"github.com/profan-dev/profan/stats"
	"github.com/profan-dev/profan/store"
	"github.com/profan-dev/profan/units"
	"github.com/spf13/cobra"
)

// GateOptions are the flags of profan gate.
type GateOptions struct {
	IO            *IOStreams
	Files         []string
	DB            string
	Run           int64
	Require       []string
	Kernel        string
	FailOn        string
	Baseline      string
	MaxRegression string
	Config        string
	Format        string
	Device        string
	AllowMissing  bool
	PathMap       []string
	SkipMissing   bool
}

// NewCmdGate builds profan gate.
func NewCmdGate(io *IOStreams) *cobra.Command {
	opts := &GateOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "gate (<file>... | --db <path> --run <id>) [--require '<metric> <op> <value>']... [--fail-on <rules>] [--baseline <id> --max-regression <pct>]",
		Short: "Fail a CI job when kernels miss their targets or regress",
		Long: `Check kernels against conditions and exit 0 when every one holds, 1 when one
fails, 2 on bad input or usage.

--require 'METRIC OP VALUE' holds for every kernel matching --kernel (all by
default). METRIC is a canonical name (gld_efficiency, duration, ...) or a raw
ncu/nvprof name; OP is one of < <= > >= == !=; VALUE may carry a time unit
(ns, us, ms, s) or %.

--fail-on RULES fails on findings of these rules (IDs and globs, comma
separated, "all" for every rule).

--baseline RUN --max-regression PCT compares with a stored run (an ID; latest,
the newest run before --run; or labels key=value[,key=value], the newest run
having them): each kernel's duration and canonical efficiency metrics, each in
its better direction, may not get worse by more than PCT, and no finding may
appear that the baseline kernel did not have. Durations are noisy: the
regression must also be significant by the test trend uses (Mann-Whitney U
over the launches when both runs have three or more, else a t-test against
the run-to-run spread of the kernel's stored history).

--config FILE (TOML) adds [[require]] conditions, fail_on rules, thresholds
and [[suppress]] entries, each with a mandatory reason.`,
		Example: `  profan gate run.csv --require 'gld_efficiency >= 80' --require 'duration < 100us' --kernel '^transpose'
  profan gate run.csv --fail-on uncoalesced-global,shared-bank-conflict --format github
  profan gate --db runs.db --run 4 --baseline 3 --max-regression 10% --format junit > gate.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if len(args) == 0 && opts.Run == 0 {
				return FlagErrorf("give export files, or --db and --run")
			}
			if len(args) > 0 && opts.Run != 0 {
				return FlagErrorf("give export files or --run, not both")
			}
			return gateRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db), for --run and --baseline")
	cmd.Flags().Int64Var(&opts.Run, "run", 0, "check a stored run instead of files")
	cmd.Flags().StringArrayVar(&opts.Require, "require", nil, "condition 'METRIC OP VALUE' (repeatable)")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "only kernels whose name matches this regexp")
	cmd.Flags().StringVar(&opts.FailOn, "fail-on", "", "fail on findings of these rules (IDs, globs, comma separated)")
	cmd.Flags().StringVar(&opts.Baseline, "baseline", "", "stored run to compare with: an ID, latest (the newest run before --run), or key=value[,key=value] (the newest run with these labels)")
	cmd.Flags().StringVar(&opts.MaxRegression, "max-regression", "", "largest regression allowed against --baseline, e.g. 10%")
	cmd.Flags().StringVar(&opts.Config, "config", "", "config file (TOML) with conditions, thresholds and suppressions")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json|junit|sarif|github}")
	cmd.Flags().StringVar(&opts.Device, "device", "", "GPU to assume when the export does not name it")
	addPathMapFlag(cmd.Flags(), &opts.PathMap)
	cmd.Flags().BoolVar(&opts.AllowMissing, "allow-missing", false, "let kernels of the baseline be absent from the run (listed, not failed)")
	cmd.Flags().BoolVar(&opts.SkipMissing, "skip-missing", false, "skip, rather than fail, kernels a --require cannot be evaluated on")
	return cmd
}

// Check is one evaluated gate condition for one kernel.
type Check struct {
	Kernel    string            `json:"kernel"`
	Launch    string            `json:"launch,omitempty"`
	Kind      string            `json:"kind"`   // require, finding, regression, new-finding
	Name      string            `json:"name"`   // the condition, rule or metric
	Status    string            `json:"status"` // pass, fail, skip, suppressed
	Message   string            `json:"message"`
	Source    string            `json:"source,omitempty"`
	Finding   *profan.Finding   `json:"-"`
	Locations []profan.Location `json:"-"`
}

// Failed reports whether the check failed.
func (c Check) Failed() bool { return c.Status == "fail" }

// condition is a parsed --require.
type condition struct {
	Metric string
	Op     string
	Value  float64
	Kernel *regexp.Regexp
	Text   string
}

var condRE = regexp.MustCompile(`^\s*([^<>=!\s]+)\s*(<=|>=|==|!=|<|>)\s*([^<>=!\s]\S*)\s*$`)

// parseCondition parses 'METRIC OP VALUE'; the value is a units.Quantity
// converted to the metric's unit (80% of a fraction is 0.8; a duration
// needs a time unit).
func parseCondition(s string) (condition, error) {
	m := condRE.FindStringSubmatch(s)
	if m == nil {
		return condition{}, fmt.Errorf("condition %q: want 'METRIC OP VALUE', e.g. 'gld_efficiency >= 80'", s)
	}
	v, err := conditionValue(m[1], m[3])
	if err != nil {
		return condition{}, fmt.Errorf("condition %q: %v", s, err)
	}
	return condition{Metric: m[1], Op: m[2], Value: v, Text: strings.TrimSpace(s)}, nil
}

// conditionValue reads the value of a condition on metric.
func conditionValue(metric, value string) (float64, error) {
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

func (c condition) holds(v float64) bool {
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

// watched are the canonical metrics the regression gate compares by
// default, besides duration: the efficiencies and transactions per request.
var watched = []string{"duration", "gld_efficiency", "gst_efficiency", "shared_efficiency",
	"gld_transactions_per_request", "gst_transactions_per_request",
	"shared_load_transactions_per_request", "shared_store_transactions_per_request"}

func gateRun(opts *GateOptions) error {
	cfg := &Config{Thresholds: rules.DefaultThresholds}
	if opts.Config != "" {
		var err error
		if cfg, err = loadConfig(opts.Config); err != nil {
			return err
		}
	}
	var conds []condition
	for _, r := range opts.Require {
		c, err := parseCondition(r)
		if err != nil {
			return usageErrorf("--require: %v", err)
		}
		conds = append(conds, c)
	}
	for i, r := range cfg.Require {
		c, err := parseCondition(r.Metric + " " + r.Op + " " + r.Value.Text)
		if err != nil {
			return fmt.Errorf("%s: require %d: %v", opts.Config, i+1, err)
		}
		if r.Kernel != "" {
			if c.Kernel, err = regexp.Compile(r.Kernel); err != nil {
				return fmt.Errorf("%s: require kernel: %v", opts.Config, err)
			}
		}
		conds = append(conds, c)
	}
	var kernelRE *regexp.Regexp
	if opts.Kernel != "" {
		var err error
		if kernelRE, err = regexp.Compile(opts.Kernel); err != nil {
			return usageErrorf("--kernel: %v", err)
		}
	}
	failOn := append(splitList(opts.FailOn), cfg.FailOn...)
	for _, p := range failOn {
		if _, err := rules.Select(p); err != nil && p != "all" {
			return unknownError("rule", strings.TrimPrefix(p, "-"), ruleIDs(), "profan explain --list")
		}
	}
	// With no condition at all, gate is a linter: warning-level findings
	// fail it.
	lint := len(conds) == 0 && len(failOn) == 0 && opts.Baseline == "" && opts.Config == ""
	if lint {
		fmt.Fprintln(opts.IO.ErrOut, "gate: no conditions given (--require, --fail-on, --baseline, --config): failing on warning-level findings, like a linter")
	}
	maxReg := math.NaN()
	if opts.MaxRegression != "" {
		v, err := parseRelative(opts.MaxRegression)
		if err != nil {
			return &UsageError{msg: "--max-regression " + err.Error()}
		}
		maxReg = v
	}
	if opts.Baseline != "" && math.IsNaN(maxReg) {
		maxReg = 0.05
	}
	if !math.IsNaN(maxReg) && opts.Baseline == "" {
		return FlagErrorf("--max-regression needs --baseline")
	}
	pm, err := parsePathMap(opts.PathMap)
	if err != nil {
		return err
	}
	sups, err := compileSuppressions(cfg.Suppress)
	if err != nil {
		return fmt.Errorf("%s: %v", opts.Config, err)
	}

	// The kernels under test.
	aopt, eng, err := analysisOptions("all", "", opts.Device)
	if err != nil {
		return err
	}
	eng.T = cfg.Thresholds
	var views, base []kernelView
	var hist map[string]map[string]stats.Spread
	if len(opts.Files) > 0 {
		if views, err = viewsFromFiles(opts.Files, aopt); err != nil {
			return err
		}
	}
	if opts.Run != 0 || opts.Baseline != "" {
		db, err := openDB(dbPath(opts.DB, opts.IO))
		if err != nil {
			return err
		}
		defer db.Close()
		if opts.Run != 0 {
			if views, err = viewsFromDB(db, opts.Run); err != nil {
				return err // names the run
			}
		}
		if opts.Baseline != "" {
			id, err := resolveBaseline(db, opts.Baseline, opts.Run)
			if err != nil {
				return err
			}
			if base, err = viewsFromDB(db, id); err != nil {
				return fmt.Errorf("--baseline: %w", err)
			}
			fmt.Fprintf(opts.IO.ErrOut, "baseline: run %d\n", id)
			var names []string
			for _, g := range group(views) {
				names = append(names, g.Name)
			}
			if hist, err = historySpreads(db, names, watched); err != nil {
				return err
			}
		}
	}
	if kernelRE != nil {
		views = filterViews(views, kernelRE)
		base = filterViews(base, kernelRE)
		if len(views) == 0 {
			return usageErrorf("--kernel %q matches no kernel", opts.Kernel)
		}
	}

	for _, vs := range [][]kernelView{views, base} {
		for _, v := range vs {
			pm.findings(v.Findings)
		}
	}
	var checks []Check
	for _, c := range conds {
		cs, err := requireChecks(c, views, opts.SkipMissing)
		if err != nil {
			return err
		}
		checks = append(checks, cs...)
	}
	checks = append(checks, findingChecks(views, failOn, sups, lint)...)
	if opts.Baseline != "" {
		checks = append(checks, missingChecks(base, views, opts.AllowMissing)...)
		checks = append(checks, regressionChecks(base, views, maxReg, sups, hist)...)
	}
	failed := 0
	for _, c := range checks {
		if c.Failed() {
			failed++
		}
	}
	if err := writeGate(opts.IO, opts.Format, checks, failed); err != nil {
		return err
	}
	if failed > 0 {
		return &GateFailedError{Failed: failed}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func filterViews(vs []kernelView, re *regexp.Regexp) []kernelView {
	var out []kernelView
	for _, v := range vs {
		if re.MatchString(v.K.Name) || re.MatchString(v.K.DisplayName()) {
			out = append(out, v)
		}
	}
	return out
}

// requireChecks evaluates one condition on every kernel. A kernel the
// condition cannot be evaluated on (its metric is missing or unreadable)
// fails, or with skipMissing is skipped; a metric no kernel has is a usage
// error under skipMissing, so that a gate never passes by checking nothing.
// A name that is neither canonical nor a raw metric of any kernel is a
// typo: a usage error with a suggestion.
func requireChecks(c condition, views []kernelView, skipMissing bool) ([]Check, error) {
	if _, ok := metrics.ByName(c.Metric); !ok {
		known := false
		for _, v := range views {
			if _, ok := v.K.Value(c.Metric); ok {
				known = true
				break
			}
		}
		if !known {
			return nil, unknownError("metric", c.Metric, metricNames(views), "canonical names: profan explain --metrics")
		}
	}
	var out []Check
	found := false
	for _, v := range views {
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
		return nil, &UsageError{msg: fmt.Sprintf("--require %q: no kernel has metric %s, so nothing would be checked", c.Text, c.Metric)}
	}
	return out, nil
}

// metricNames are the names a metric may be given by: the canonical ones
// and the raw ones of these kernels.
func metricNames(views []kernelView) []string {
	names := slices.Clone(metrics.Names())
	seen := map[string]bool{}
	for _, v := range views {
		for _, m := range v.K.Metrics {
			if !seen[m.Name] {
				seen[m.Name] = true
				names = append(names, m.Name)
			}
		}
	}
	return names
}

func ruleIDs() []string {
	var ids []string
	for _, r := range rules.All {
		ids = append(ids, r.ID)
	}
	return ids
}

// parseRelative reads an allowed regression or a change threshold: 10%,
// 10 (percent), 1.5x.
func parseRelative(s string) (float64, error) {
	q, err := units.ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	return q.Relative()
}

// missingChecks lists the kernels of the baseline absent from the run: each
// fails, unless allowed.
func missingChecks(base, cur []kernelView, allow bool) []Check {
	have := map[string]bool{}
	for _, v := range cur {
		have[v.Name()] = true
	}
	var out []Check
	for _, g := range group(base) {
		if have[g.Name] {
			continue
		}
		ch := Check{Kernel: g.Name, Kind: "missing", Name: "baseline kernel", Source: g.Views[0].Source}
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

// ruleMatches reports whether rule id is selected by one of the patterns.
func ruleMatches(id string, patterns []string) bool {
	for _, p := range patterns {
		if p == "all" || p == id {
			return true
		}
		if ok, _ := path.Match(p, id); ok {
			return true
		}
	}
	return false
}

type suppression struct {
	Suppression
	re *regexp.Regexp
}

func compileSuppressions(ss []Suppression) ([]suppression, error) {
	var out []suppression
	for _, s := range ss {
		x := suppression{Suppression: s}
		if s.Kernel != "" {
			re, err := regexp.Compile(s.Kernel)
			if err != nil {
				return nil, fmt.Errorf("suppression of %s: kernel: %v", s.Rule, err)
			}
			x.re = re
		}
		out = append(out, x)
	}
	return out, nil
}

func suppressed(sups []suppression, rule string, k *profan.Kernel) (string, bool) {
	for _, s := range sups {
		if s.Rule != rule {
			continue
		}
		if s.re == nil || s.re.MatchString(k.Name) || s.re.MatchString(k.DisplayName()) {
			return s.Reason, true
		}
	}
	return "", false
}

// findingChecks turns findings into checks: failing for the rules in
// failOn, informational for the others.
// In lint mode (no conditions given) every warning-level finding fails.
func findingChecks(views []kernelView, failOn []string, sups []suppression, lint bool) []Check {
	var out []Check
	for _, v := range views {
		for i := range v.Findings {
			f := v.Findings[i]
			ch := Check{Kernel: v.Name(), Launch: v.K.ID, Kind: "finding", Name: f.Rule, Message: f.Message, Source: v.Source, Finding: &f, Locations: f.Locations}
			switch reason, ok := suppressed(sups, f.Rule, v.K); {
			case ok:
				ch.Status, ch.Message = "suppressed", f.Message+" (suppressed: "+reason+")"
			case ruleMatches(f.Rule, failOn), lint && f.Severity >= profan.Warning:
				ch.Status = "fail"
			default:
				ch.Status = "pass" // reported, not gated
			}
			out = append(out, ch)
		}
	}
	return out
}

// regressionChecks compares each kernel with the same kernel of the
// baseline: watched metrics in their worse direction, and new findings.
func regressionChecks(base, cur []kernelView, maxReg float64, sups []suppression, hist map[string]map[string]stats.Spread) []Check {
	byName := map[string]*kernelGroup{}
	for _, g := range group(base) {
		byName[g.Name] = g
	}
	var out []Check
	for _, g := range group(cur) {
		b, ok := byName[g.Name]
		if !ok {
			out = append(out, Check{Kernel: g.Name, Kind: "regression", Name: "baseline", Status: "skip", Message: "not in the baseline run", Source: g.Views[0].Source})
			continue
		}
		for _, m := range watched {
			d, _ := metrics.ByName(m)
			xb, xc := b.samples(m), g.samples(m)
			if len(xb) == 0 || len(xc) == 0 {
				continue
			}
			mb, mc := stats.Median(xb), stats.Median(xc)
			worse := rel(mb, mc) * float64(-d.Better) // positive when worse
			if mb == 0 {
				worse = 0
				if (mc > 0) == (d.Better < 0) && mc != 0 {
					worse = math.Inf(1)
				}
			}
			ch := Check{Kernel: g.Name, Kind: "regression", Name: m, Source: g.Views[0].Source}
			msg := fmt.Sprintf("%s %s → %s (%+.1f%%) against the baseline", m, metrics.Format(mb, d.Unit), metrics.Format(mc, d.Unit), finiteOr(rel(mb, mc), 0)*100)
			c := compareMetric(m, xb, xc, hist[m][g.Name], stats.DefaultThresholds.MinRelChange)
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
		had := b.rules()
		for _, r := range sortedRules(g.rules()) {
			if _, ok := had[r]; ok {
				continue
			}
			f := g.rules()[r]
			ch := Check{Kernel: g.Name, Kind: "new-finding", Name: r, Source: g.Views[0].Source, Finding: &f, Locations: f.Locations,
				Message: "new since the baseline: " + f.Message}
			if reason, ok := suppressed(sups, r, g.Views[0].K); ok {
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

// fmtPct prints a fraction as a percentage without trailing zeros: 10%, 2.5%.
func fmtPct(f float64) string {
	return strconv.FormatFloat(f*100, 'f', -1, 64) + "%"
}

// resolveBaseline finds the run a --baseline names: a run ID; latest, the
// newest run (before run, when the gate checks a stored run); or labels
// key=value[,key=value], the newest run having them all (before run).
func resolveBaseline(db *store.DB, spec string, run int64) (int64, error) {
	spec = strings.TrimSpace(spec)
	if id, err := strconv.ParseInt(spec, 10, 64); err == nil {
		if id <= 0 {
			return 0, usageErrorf("--baseline %s: run IDs start at 1", spec)
		}
		return id, nil
	}
	var labels map[string]string
	if spec != "latest" {
		var err error
		if labels, err = parseLabels(splitList(spec)); err != nil || len(labels) == 0 {
			return 0, usageErrorf("--baseline %q: want a run ID, latest, or labels key=value[,key=value]", spec)
		}
	}
	r, err := db.LatestRun(bg, labels, run)
	if errors.Is(err, store.ErrNotFound) {
		what := "no stored run"
		if labels != nil {
			what = "no stored run labelled " + labelString(labels)
		}
		if run > 0 {
			what += fmt.Sprintf(" before run %d", run)
		}
		return 0, fmt.Errorf("--baseline %s: %s", spec, what)
	}
	if err != nil {
		return 0, err
	}
	return r.ID, nil
}
