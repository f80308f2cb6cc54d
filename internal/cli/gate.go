package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/compare"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/units"
	"github.com/profan-dev/profan/internal/verdictdb"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// GateOptions are the flags of profan gate.
type GateOptions struct {
	IO      *IOStreams
	Files   []string
	DB      string
	Run     int64
	Require []string
	Kernel  string
	FailOn  string
	Config  string
	Format  string
	deviceOpts
	Verbose      bool
	PathMap      []string
	SkipMissing  bool
	MinShare     string
	AllowAppErrs bool
	baselineOpts
}

// baselineOpts are the flags of a gate's comparison with a stored run.
type baselineOpts struct {
	Baseline      string // a run ID, latest or labels
	MaxRegression string
	AllowMissing  bool
	// MissingBaseline is what a gate with --baseline does when there is
	// none to compare with (no database, no run of the workload): fail
	// (exit 2) or pass (go on without the regression checks).
	MissingBaseline string
}

// addFlags registers --baseline, --max-regression, --allow-missing and
// --missing-baseline.
func (b *baselineOpts) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&b.Baseline, "baseline", "", "stored run to compare with: an ID, latest (the newest run before --run), or key=value[,key=value] (the newest run with these labels)")
	fs.StringVar(&b.MaxRegression, "max-regression", "", "largest regression allowed against --baseline, e.g. 10%")
	fs.BoolVar(&b.AllowMissing, "allow-missing", false, "let kernels of the baseline be absent from the run (listed, not failed)")
	fs.StringVar(&b.MissingBaseline, "missing-baseline", "fail", "when --baseline finds no run to compare with (no database yet, no run of this workload): fail (exit 2) or pass (no regression checks, said in the output)")
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
ncu/nvprof name; OP is one of < <= > >= == !=; VALUE is 50us, 1.2ms, 80%
(of a fraction metric such as achieved_occupancy: 0.8), 2x or a number; a
duration needs a time unit. A kernel whose export lacks the metric fails the
condition, unless --skip-missing skips it.

--fail-on RULES fails on findings of these rules (IDs and globs, comma
separated, "all" for every rule).

--baseline RUN --max-regression PCT compares with a stored run (an ID; latest,
the newest run before --run; or labels key=value[,key=value], the newest run
having them): each kernel's duration and canonical efficiency metrics, each in
its better direction, may not get worse by more than PCT, and no finding may
appear that the baseline kernel did not have; a kernel of the baseline
absent from the run fails, unless --allow-missing. Durations are noisy: the
regression must also be significant by the test trend uses (Mann-Whitney U
over the launches when both runs have three or more, else a t-test against
the run-to-run spread of the kernel's stored history).

--config FILE (TOML) adds [[require]] conditions, fail_on rules, thresholds,
min_share and [[suppress]] entries, each with a mandatory reason.

Every check is made on a kernel group (the launches of one kernel name),
never on a launch: a condition holds for the median of the group's launches
(their range is said); a finding fails only on a group that takes at least
--min-share of the capture's kernel time (default 0.5%; 0 gates all), and is
listed otherwise. With no condition at all (no --require, --fail-on or
--baseline, and no [[require]] or fail_on in --config), gate is a linter:
warning-level findings fail it. An export that records an application or
profiler error (==ERROR==) stops the gate with exit 2, unless
--allow-app-errors. --path-map FROM=TO rewrites source paths in every
format; -v lists the passing checks too.

Files are ncu, nvprof or nsys CSV exports or PyTorch profiler traces (JSON,
plain or .json.gz); a file given as - is standard input (plain or gzip),
named <stdin> in errors.`,
		Example: `  profan gate run.csv --require 'gld_efficiency >= 80' --require 'duration < 100us' --kernel '^transpose'
  profan gate run.csv --fail-on uncoalesced-global,shared-bank-conflict --format github
  profan gate --db runs.db --run 4 --baseline 3 --max-regression 10% --format junit > gate.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Verbose, _ = cmd.Flags().GetBool("verbose")
			opts.Files = args
			if len(args) == 0 && opts.Run == 0 {
				return FlagErrorf("give export files, or --db and --run")
			}
			if len(args) > 0 && opts.Run != 0 {
				return FlagErrorf("give export files or --run, not both")
			}
			return gateRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db), for --run and --baseline")
	cmd.Flags().Int64Var(&opts.Run, "run", 0, "check a stored run instead of files")
	cmd.Flags().StringArrayVar(&opts.Require, "require", nil, "condition 'METRIC OP VALUE' (repeatable)")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "only kernels whose name matches this regexp")
	cmd.Flags().StringVar(&opts.FailOn, "fail-on", "", "fail on findings of these rules (IDs, globs, comma separated)")
	cmd.Flags().StringVar(&opts.Config, "config", "", "config file (TOML) with conditions, thresholds and suppressions")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {"+strings.Join(report.GateFormats(), "|")+"}")
	opts.deviceOpts.addFlags(cmd.Flags())
	addPathMapFlag(cmd.Flags(), &opts.PathMap)
	cmd.Flags().BoolVar(&opts.SkipMissing, "skip-missing", false, "skip, rather than fail, kernels a --require cannot be evaluated on, or a rule --fail-on names cannot run on")
	cmd.Flags().StringVar(&opts.MinShare, "min-share", "", "smallest share of the capture's kernel time a kernel must take for its findings to fail (default 0.5%, or the config's min_share)")
	opts.baselineOpts.addFlags(cmd.Flags())
	cmd.Flags().BoolVar(&opts.AllowAppErrs, "allow-app-errors", false, "gate an export that records an application or profiler error (==ERROR==) instead of stopping with exit 2")
	return cmd
}

func gateRun(ctx context.Context, opts *GateOptions) error {
	g, err := newGateJob(ctx, opts)
	if err != nil {
		return err
	}
	// The verdicts under test: made now from the exports, or as stored,
	// gathered into kernel groups as they come, so that memory grows with
	// the kernels, not the launches.
	if err := g.readFiles(); err != nil {
		return err
	}
	if err := g.openDB(); err != nil {
		return err
	}
	if g.db != nil {
		defer g.db.Close()
		if err := g.readStored(); err != nil {
			return err
		}
	}
	if g.pol.Kernels != nil && g.cur.Len() == 0 {
		return usageErrorf("--kernel %q matches no kernel", opts.Kernel)
	}
	return g.evaluate()
}

// gateJob is one gate: its flags, the policy they make, and what it read.
type gateJob struct {
	ctx  context.Context // the command's
	opts *GateOptions
	st   *settings
	pol  gate.Policy
	pm   pathMap
	// cur and base group the run's kernels and the baseline's (nil
	// without one).
	cur, base *analysis.Grouper
	runs      []*analysis.RunVerdict
	work      store.WorkloadBuilder // the workload gated, whatever --kernel keeps
	baseInfo  *gate.Baseline
	db        *store.DB
}

// newGateJob reads the flags and the config into a gate's policy.
func newGateJob(ctx context.Context, opts *GateOptions) (*gateJob, error) {
	if f, ok := report.Lookup(opts.Format); !ok || f.Gate == nil {
		return nil, formatError(opts.Format, report.GateFormats()...)
	}
	if opts.MissingBaseline != "fail" && opts.MissingBaseline != "pass" {
		return nil, FlagErrorf("--missing-baseline %s: want pass or fail", safe.Quote(opts.MissingBaseline))
	}
	cfg := &Config{Thresholds: rules.DefaultThresholds}
	if opts.Config != "" {
		var err error
		if cfg, err = loadConfig(opts.Config); err != nil {
			return nil, err
		}
	}
	conds, kernels, failOn, err := gateFlags(opts)
	if err != nil {
		return nil, err
	}
	conds = append(conds, cfg.Conditions...)
	// The settings add the config's fail_on to the flag's: given once.
	st, err := newSettings(cfg, "all", failOn, opts.deviceOpts)
	if err != nil {
		return nil, err
	}
	pol := gate.NewPolicy(conds, st.Sel, len(failOn) > 0 || len(cfg.FailOn) > 0, opts.Baseline != "")
	pol.Kernels, pol.SkipMissing, pol.AllowMissing = kernels, opts.SkipMissing, opts.AllowMissing
	if pol.Lint {
		fmt.Fprintln(opts.IO.ErrOut, "gate: no conditions given (--require, --fail-on, --baseline, or [[require]] and fail_on in --config): failing on warning-level findings, like a linter")
	}
	if err := gateQuantities(opts, cfg, &pol); err != nil {
		return nil, err
	}
	pm, err := parsePathMap(opts.PathMap)
	if err != nil {
		return nil, err
	}
	return &gateJob{ctx: ctx, opts: opts, st: st, pol: pol, pm: pm, cur: pol.Grouper(opts.Baseline != "")}, nil
}

// gateFlags reads --require, --kernel and --fail-on.
func gateFlags(opts *GateOptions) ([]gate.Condition, *regexp.Regexp, []string, error) {
	var conds []gate.Condition
	for _, r := range opts.Require {
		c, err := gate.ParseCondition(r)
		if err != nil {
			return nil, nil, nil, usageErrorf("--require: %v", err)
		}
		conds = append(conds, c)
	}
	var kernels *regexp.Regexp
	if opts.Kernel != "" {
		var err error
		if kernels, err = regexp.Compile(opts.Kernel); err != nil {
			return nil, nil, nil, usageErrorf("--kernel: %v", err)
		}
	}
	failOn := splitList(opts.FailOn)
	for _, p := range failOn {
		if _, err := rules.ParseList(p); err != nil {
			return nil, nil, nil, unknownError("rule", strings.TrimPrefix(p, "-"), ruleIDs(), "profan explain --list")
		}
	}
	return conds, kernels, failOn, nil
}

// gateQuantities sets the policy's --min-share (over the config's
// min_share) and --max-regression.
func gateQuantities(opts *GateOptions, cfg *Config, pol *gate.Policy) error {
	for _, x := range []struct{ flag, v string }{{"min_share in " + opts.Config, cfg.MinShare.Text}, {"--min-share", opts.MinShare}} {
		if x.v == "" {
			continue
		}
		v, err := parseShare(x.v)
		if err != nil {
			return usageErrorf("%s: %v", x.flag, err)
		}
		pol.MinShare = v
	}
	if opts.MaxRegression != "" {
		v, err := parseRelative(opts.MaxRegression)
		if err != nil {
			return &UsageError{msg: "--max-regression " + err.Error()}
		}
		pol.MaxRegression = v
	}
	if !math.IsNaN(pol.MaxRegression) && opts.Baseline == "" {
		return FlagErrorf("--max-regression needs --baseline")
	}
	return nil
}

// readFiles reads the exports gated, if any, into the run's groups.
func (g *gateJob) readFiles() error {
	if len(g.opts.Files) == 0 {
		return nil
	}
	vs := analysis.NewStream(g.st.Opt, false)
	selects := func(k *profan.Kernel) bool {
		g.work.Add(k)
		return g.pol.Selects(k)
	}
	read, err := readVerdicts(g.ctx, vs, g.opts.Files, ingest.Options{Concurrent: true}, g.st.Opt, selects, g.pm, func(a *analysis.Kernel) error {
		g.cur.Add(a)
		return nil
	})
	if err != nil {
		return err
	}
	reportReading(g.opts.IO, read, g.opts.Verbose)
	if err := appErrors(g.opts.IO, read, g.opts.AllowAppErrs); err != nil {
		return err
	}
	g.runs = vs.Finish(read)
	// An ncu export and a trace of the same program, joined launch for
	// launch, count their kernels once, as analyze and report count them.
	analysis.CountOnce(g.cur, g.runs)
	return nil
}

// noBaseline goes on without a baseline when --missing-baseline pass
// allows it, and stops the gate otherwise.
func (g *gateJob) noBaseline(why string) error {
	if g.opts.MissingBaseline != "pass" {
		return fmt.Errorf("--baseline %s: %s; nothing to compare with (--missing-baseline pass lets the gate go on without, as on a first CI run)", safe.Quote(g.opts.Baseline), why)
	}
	fmt.Fprintf(g.opts.IO.ErrOut, "gate: no baseline: %s; regression checks skipped (--missing-baseline pass)\n", why)
	g.baseInfo = &gate.Baseline{Missing: why}
	return nil
}

// openDB opens the run database when the gate reads a stored run or a
// baseline; a baseline's database not made yet is no baseline.
func (g *gateJob) openDB() error {
	if g.opts.Run == 0 && g.opts.Baseline == "" {
		return nil
	}
	path := dbPath(g.opts.DB, g.opts.IO)
	db, err := openDB(g.ctx, path)
	switch {
	case g.opts.Run == 0 && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrNoRuns)):
		return g.noBaseline(fmt.Sprintf("no run database %s yet", store.Display(path)))
	case err != nil:
		return err
	}
	g.db = db
	return nil
}

// stored reads stored run id record by record into gr: a stored trace of
// 600,000 launches is never held whole.
func (g *gateJob) stored(gr *analysis.Grouper, id int64) (*analysis.RunVerdict, error) {
	return eachStored(g.ctx, g.opts.IO, g.db, id, g.st.Opt, func(a *analysis.Kernel) error {
		if g.pol.Selects(a.Record) {
			g.pm.verdict(a)
			gr.Add(a)
		}
		return nil
	})
}

// storedTimeline is the timeline stored with run id; nil when none is.
func (g *gateJob) storedTimeline(id int64) (*analysis.Timeline, error) {
	f, ok, err := g.db.Timeline(g.ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	return verdictdb.Timeline(f), nil
}

// readStored reads the stored run gated (--run) and the baseline.
func (g *gateJob) readStored() error {
	if id := g.opts.Run; id != 0 {
		r, err := g.stored(g.cur, id)
		if err != nil {
			return err
		}
		tl, err := g.storedTimeline(id)
		if err != nil {
			return err
		}
		if tl != nil {
			r.Timeline = tl
		}
		g.runs = append(g.runs, r)
	}
	if g.opts.Baseline == "" {
		return nil
	}
	b, err := g.findBaseline()
	if err != nil || g.baseInfo != nil {
		return err
	}
	return g.readBaseline(b)
}

// findBaseline finds the run --baseline names, of the workload gated.
func (g *gateJob) findBaseline() (compare.Baseline, error) {
	w := g.work.Workload()
	if g.opts.Run != 0 {
		var err error
		if w, err = g.db.Workload(g.ctx, g.opts.Run); err != nil {
			return compare.Baseline{}, err
		}
	}
	b, err := resolveBaseline(g.ctx, g.db, g.opts.Baseline, g.opts.Run, w)
	var none *compare.NoBaselineError
	if errors.As(err, &none) {
		err = g.noBaseline(none.Reason)
	}
	return b, err
}

// readBaseline reads baseline run b into the baseline's groups, with its
// timeline and the run-to-run spreads of the runs --baseline selects from.
func (g *gateJob) readBaseline(b compare.Baseline) error {
	id := b.Run.ID
	g.base = g.pol.Grouper(true)
	if _, err := g.stored(g.base, id); err != nil {
		return fmt.Errorf("--baseline: %w", err)
	}
	g.baseInfo = &gate.Baseline{Run: id, Labels: b.Run.Labels, Program: b.Program}
	var err error
	if g.pol.BaseTimeline, err = g.storedTimeline(id); err != nil {
		return err
	}
	say := fmt.Sprintf("baseline: run %d", id)
	if cur := g.work.Workload(); g.opts.Run == 0 && b.Program != "" && cur.Program != "" && b.Program != cur.Program {
		say += fmt.Sprintf(" (program %s; this capture's is %s)", b.Program, cur.Program)
	}
	if b.Skipped > 0 {
		say += fmt.Sprintf(" (the newest of this workload: %d newer runs with these labels are other workloads)", b.Skipped)
	}
	fmt.Fprintln(g.opts.IO.ErrOut, say)
	var names []string
	for _, gr := range g.cur.InOrder() {
		names = append(names, gr.Name)
	}
	// The run-to-run history of the runs --baseline selects from
	// (labelled branch=main,workload=app): other programs' runs share
	// kernel names, never their spread.
	labels, _ := runLabels("--baseline", strings.TrimSpace(g.opts.Baseline))
	g.pol.History, err = compare.Spreads(g.ctx, g.db, names, gate.Watched, labels)
	return err
}

// evaluate checks the groups read against the policy and writes the
// result; a failed gate is a GateFailedError.
func (g *gateJob) evaluate() error {
	opts := g.opts
	res, err := gate.Evaluate(g.pol, g.cur, g.runs, g.base)
	if res != nil {
		res.Baseline = g.baseInfo
		if opts.Format == "github" {
			repoRelative(res, repoRoot(opts.IO))
		}
	}
	var unknown *gate.UnknownMetricError
	var miss *gate.MissingMetricError
	var unrun *gate.MissingRuleError
	switch {
	case errors.As(err, &unknown):
		return unknownError("metric", unknown.Metric, unknown.Names, "canonical names: profan explain --metrics")
	case errors.As(err, &miss):
		return &UsageError{msg: miss.Error()}
	case errors.As(err, &unrun):
		return &UsageError{msg: unrun.Error()}
	case err != nil:
		return err
	}
	if err := g.checkedSomething(res); err != nil {
		return err
	}
	if err := report.WriteGate(opts.Format, formatOut(opts.IO.Out, opts.Format), reportGate(res), report.Options{Color: opts.IO.Color, Version: version(), Verbose: opts.Verbose, Rules: ruleDocs()}); err != nil {
		return err
	}
	if !res.Passed() {
		return &GateFailedError{Failed: res.Failed}
	}
	return nil
}

// checkedSomething refuses a gate that made no check on runs with no
// kernel launch (an nsys cuda_api_sum alone, a stored run of none): it
// would pass on nothing, and a gate never passes by checking nothing.
func (g *gateJob) checkedSomething(res *gate.Result) error {
	if len(res.Checks) > 0 || g.cur.Len() > 0 {
		return nil
	}
	what := strings.Join(g.opts.Files, ", ")
	if g.opts.Run != 0 {
		what = fmt.Sprintf("run %d of %s", g.opts.Run, dbPath(g.opts.DB, g.opts.IO))
	}
	return usageErrorf("%s: no kernel launch to gate, so nothing would be checked", safe.Term(what))
}

// appErrors refuses exports that record an application or profiler
// error: the capture may have stopped early, and a gate must not pass on
// kernels that were never run or read. allow gates them anyway, said on
// stderr.
func appErrors(io *IOStreams, runs []*profan.Run, allow bool) error {
	for _, run := range runs {
		for _, m := range run.Errors() {
			where := fmt.Sprintf("%s:%d", safe.Term(run.Source), m.Line)
			if allow {
				fmt.Fprintf(io.ErrOut, "%s: warning: the export records an error, gated anyway (--allow-app-errors): %s\n", where, safe.Term(m.Text))
				continue
			}
			return fmt.Errorf("%s: the export records an error: %s; the capture may be incomplete, so the gate stops here (--allow-app-errors gates it anyway)",
				where, safe.Term(m.Text))
		}
	}
	return nil
}

// parseShare reads a share of the capture: 0.5% or 0.5 (percent), 0 for
// none; at most 100%.
func parseShare(s string) (float64, error) {
	q, err := units.ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	if q.Unit == units.QTimes {
		// 2x reads as +100% where a change is meant: a share so large
		// would gate nothing.
		return 0, fmt.Errorf("%q is a ratio: want a share of the capture such as 0.5%%", s)
	}
	v, err := q.Relative()
	if err != nil {
		return 0, err
	}
	if v < 0 || v > 1 {
		return 0, fmt.Errorf("%q is not a share of the capture between 0 and 100%%", s)
	}
	return v, nil
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

// resolveBaseline finds the run a --baseline names: a run ID; latest, the
// newest run (before run, when the gate checks a stored run); or labels
// key=value[,key=value], the newest run having them all (before run). Of
// latest and labels, only runs of the workload gated count
// (compare.FindBaseline): another program's run labelled alike is no
// baseline. The error is a *compare.NoBaselineError when none is.
func resolveBaseline(ctx context.Context, db *store.DB, spec string, run int64, cur store.Workload) (compare.Baseline, error) {
	spec = strings.TrimSpace(spec)
	if id, ok, err := runID("--baseline", spec); err != nil {
		return compare.Baseline{}, err
	} else if ok {
		r, err := db.Run(ctx, id)
		if err != nil {
			return compare.Baseline{}, fmt.Errorf("--baseline: %w", err)
		}
		return compare.Baseline{Run: r}, nil
	}
	labels, err := runLabels("--baseline", spec)
	if err != nil {
		return compare.Baseline{}, err
	}
	return compare.FindBaseline(ctx, db, labels, run, cur)
}

// runLabels reads the labels of a run selector other than an ID: none for
// latest.
func runLabels(what, spec string) (map[string]string, error) {
	if spec == "latest" {
		return nil, nil
	}
	labels, err := parseLabels(splitList(spec))
	if err != nil || len(labels) == 0 {
		return nil, usageErrorf("%s %q: want a run ID, latest, or labels key=value[,key=value]", what, spec)
	}
	return labels, nil
}

// runID reads a run selector that is a run ID; ok is false for one that
// is not.
func runID(what, spec string) (id int64, ok bool, err error) {
	id, err = strconv.ParseInt(spec, 10, 64)
	if err != nil {
		return 0, false, nil
	}
	if id <= 0 {
		return 0, false, usageErrorf("%s %s: run IDs start at 1", what, spec)
	}
	return id, true, nil
}

// resolveRun finds the run a selector names (an ID, latest, or labels, as
// resolveBaseline reads them) whatever its workload; what names it in
// errors.
func resolveRun(ctx context.Context, db *store.DB, what, spec string, run int64) (int64, error) {
	spec = strings.TrimSpace(spec)
	if id, ok, err := runID(what, spec); ok || err != nil {
		return id, err
	}
	labels, err := runLabels(what, spec)
	if err != nil {
		return 0, err
	}
	r, err := db.LatestRun(ctx, labels, run)
	if errors.Is(err, store.ErrNotFound) {
		none := "no stored run"
		if labels != nil {
			none = "no stored run labelled " + report.LabelText(labels)
		}
		if run > 0 {
			none += fmt.Sprintf(" before run %d", run)
		}
		return 0, fmt.Errorf("%s %s: %s", what, spec, none)
	}
	if err != nil {
		return 0, err
	}
	return r.ID, nil
}
