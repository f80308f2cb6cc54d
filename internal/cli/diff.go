package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/compare"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdict"
	"github.com/profan-dev/profan/internal/verdictdb"
	"github.com/spf13/cobra"
)

// DiffOptions are the flags of profan diff.
type DiffOptions struct {
	IO        *IOStreams
	DB        string
	A, B      string // run selectors or export files
	Baseline  string
	Run       string
	Format    string
	Threshold string
	All       bool
	Kernel    string // regular expression over kernel names
	deviceOpts
}

// NewCmdDiff builds profan diff.
func NewCmdDiff(io *IOStreams) *cobra.Command {
	opts := &DiffOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "diff (<old> <new> | --baseline <run> --run <run>) [--db <path>] [--format {text|json|markdown}]",
		Short: "Compare two runs or two exports kernel by kernel",
		Long: `Compare two runs: first the step (the wall and GPU busy share of each side's
timeline, per step with its spread and test where both traces mark several
steps; the idle time by cause, the kernel time by category, the changes
advised), then, benchstat-style, for each kernel name in either, the
canonical metrics that moved (medians over repeated launches, their spread
and the test that decided, the same as trend's), each judged in its better
direction, the metrics only one side has, and the findings that appeared or
disappeared. A metric that moved its better way while the kernel's duration
got worse is "better-but-slower", not better. The kernels that changed come
first, the largest change first; those that did not are left out (--all
lists them); a last line gives the geometric mean of the shared kernels'
duration ratios and each side's total kernel time, and warns when the two
sides share no kernel.

Each side is an export file (analysed now) or a stored run: an ID, latest
(the newest run; as the old side, the newest before the new one), or labels
key=value[,key=value] (the newest run having them). --baseline and --run
name the old and new sides as gate does.

Files are ncu, nvprof or nsys CSV exports or PyTorch profiler traces (JSON,
plain or .json.gz); a file given as - is standard input (plain or gzip),
named <stdin> in errors.`,
		Example: `  profan diff fixtures/ncu/series_v2.runs5.details.csv fixtures/ncu/series_v3.runs5.details.csv
  profan diff --db runs.db 3 4
  profan diff --db runs.db --baseline branch=main --run latest`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 2 && opts.Baseline == "" && opts.Run == "":
				opts.A, opts.B = args[0], args[1]
			case len(args) == 0 && opts.Baseline != "":
				opts.A, opts.B = opts.Baseline, opts.Run
				if opts.B == "" {
					opts.B = "latest"
				}
			default:
				return FlagErrorf("give two runs or exports, or --baseline (and --run)")
			}
			return diffRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db)")
	cmd.Flags().StringVar(&opts.Baseline, "baseline", "", "the old side: a run ID, latest, or key=value[,key=value]")
	cmd.Flags().StringVar(&opts.Run, "run", "", "the new side with --baseline (default latest)")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {"+strings.Join(report.DiffFormats(), "|")+"}")
	cmd.Flags().StringVar(&opts.Threshold, "threshold", "1%", "show metrics that moved by more than this (1%, 0.5%, 1.1x; a bare number is a percentage)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "show every kernel and metric, changed or not")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "compare only the kernels whose name matches this regular expression")
	opts.addFlags(cmd.Flags())
	return cmd
}

// diffSide is one side of a diff: a stored run or an export, its kernels
// grouped as they are read.
type diffSide struct {
	id     int64 // 0 for an export
	name   string
	groups *analysis.Grouper
	v      *verdict.Verdict // the side's verdict: its step, its advice
}

// isExport says whether a diff operand names an export file rather than a
// run: a run ID is digits; anything else that is a file is an export.
func isExport(spec string) bool {
	if spec == ingest.Stdin {
		return true
	}
	if _, err := strconv.ParseInt(spec, 10, 64); err == nil {
		return false
	}
	fi, err := os.Stat(spec)
	return err == nil && !fi.IsDir()
}

func diffRun(ctx context.Context, opts *DiffOptions) error {
	match, err := kernelFilter(opts.Kernel)
	if err != nil {
		return err
	}
	threshold, err := parseRelative(opts.Threshold)
	if err != nil {
		return &UsageError{msg: "--threshold " + err.Error()}
	}
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Diff == nil {
		return formatError(opts.Format, report.DiffFormats()...)
	}
	for _, spec := range []string{opts.A, opts.B} {
		// A directory is no run's name (an ID, latest, key=value).
		if _, nan := strconv.ParseInt(spec, 10, 64); nan != nil && spec != "latest" && !strings.Contains(spec, "=") {
			if fi, err := os.Stat(spec); err == nil && fi.IsDir() {
				return fmt.Errorf("%s: a directory, not an export file", safe.Term(spec))
			}
		}
		if !isExport(spec) && strings.ContainsAny(spec, "./") && !strings.Contains(spec, "=") {
			return fmt.Errorf("%s: no such export file (a run is an ID, latest or labels key=value)", safe.Term(spec))
		}
	}
	d := &differ{ctx: ctx, opts: opts}
	if !isExport(opts.A) || !isExport(opts.B) {
		if d.db, err = openDB(ctx, dbPath(opts.DB, opts.IO)); err != nil {
			return err
		}
		defer d.db.Close()
	}
	// The new side first: an old side given as latest or labels is the
	// newest such run before it.
	b, err := d.side(opts.B, "new side", 0)
	if err != nil {
		return err
	}
	a, err := d.side(opts.A, "old side", b.id)
	if err != nil {
		return err
	}
	diffs, sum, err := d.compare(a, b, threshold)
	if err != nil {
		return err
	}
	if sum.Shared == 0 && sum.KernelsA > 0 && sum.KernelsB > 0 && opts.Format == "json" {
		// The text and Markdown say it in the output.
		fmt.Fprintf(opts.IO.ErrOut, "warning: %s and %s share no kernel: nothing is compared (two different programs?)\n", safe.Term(a.name), safe.Term(b.name))
	}
	if opts.Kernel != "" {
		kept := diffs[:0]
		for _, d := range diffs {
			if match(&profan.Kernel{Name: d.Kernel}) {
				kept = append(kept, d)
			}
		}
		diffs = kept
	}
	rd := reportDiff(a.id, b.id, a.name, b.name, diffs, sum)
	rd.Step = diffStep(a.v, b.v)
	return f.Diff(opts.IO.Out, rd, report.Options{})
}

// differ reads the two sides of a diff.
type differ struct {
	ctx  context.Context // the command's
	opts *DiffOptions
	db   *store.DB // nil when both sides are exports
	st   *settings
}

// settings loads the analysis settings once, when a side first needs
// them.
func (d *differ) settings() (*settings, error) {
	if d.st != nil {
		return d.st, nil
	}
	st, err := loadSettings("all", nil, "", d.opts.deviceOpts)
	d.st = st
	return st, err
}

// side reads one side of a diff: an export, analysed now, or the stored
// run spec names (of latest or labels, the newest before the run before,
// when not 0); what names it in errors.
func (d *differ) side(spec, what string, before int64) (diffSide, error) {
	s := diffSide{name: spec, groups: compare.NewGrouper()}
	st, err := d.settings()
	if err != nil {
		return s, err
	}
	b := analysis.NewBuilder(false, st.Engine())
	add := func(a *analysis.Kernel) error {
		s.groups.Add(a)
		b.Add(a)
		return nil
	}
	if isExport(spec) {
		vs := analysis.NewStream(st.Opt, false)
		runs, err := readVerdicts(d.ctx, vs, []string{spec}, ingest.Options{}, st.Opt, nil, nil, add)
		if err == nil {
			s.v = b.Finish(runs, vs.Finish(runs))
		}
		return s, err
	}
	id, err := resolveRun(d.ctx, d.db, what, spec, before)
	if err != nil {
		return s, err
	}
	s.id, s.name = id, fmt.Sprintf("run %d", id)
	rv, err := eachStored(d.ctx, d.opts.IO, d.db, id, st.Opt, add)
	if err != nil {
		return s, err // an error names the run
	}
	rec, ok, err := verdictdb.Advice(d.ctx, d.db, id)
	if err != nil {
		return s, err
	}
	if ok {
		b.Recommend(rec)
	}
	s.v = b.Finish([]*profan.Run{rv.Run}, []*analysis.RunVerdict{rv})
	return s, nil
}

// compare compares the two sides' kernels: with a database, against the
// run-to-run spreads and series stored of the new side's kernels.
func (d *differ) compare(a, b diffSide, threshold float64) ([]compare.KernelDiff, compare.Summary, error) {
	if d.db == nil {
		diffs, sum := compare.Kernels(a.groups, b.groups, threshold, d.opts.All, nil, nil)
		return diffs, sum, nil
	}
	var names []string
	for _, g := range b.groups.InOrder() {
		names = append(names, g.Name)
	}
	hist, stored, err := compare.History(d.ctx, d.db, names, a.id, b.id)
	if err != nil {
		return nil, compare.Summary{}, err
	}
	diffs, sum := compare.Kernels(a.groups, b.groups, threshold, d.opts.All, hist, stored)
	return diffs, sum, nil
}
