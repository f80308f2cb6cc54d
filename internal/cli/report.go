package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/compare"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/report/html"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdict"
	"github.com/profan-dev/profan/internal/verdictdb"
	"github.com/spf13/cobra"
)

// ReportOptions are the flags of profan report.
type ReportOptions struct {
	IO      *IOStreams
	Files   []string
	DB      string
	Run     int64
	Labels  []string
	Kernel  string
	Metrics []string
	XLabel  string
	HTML    string
	Title   string
	deviceOpts
	Config  string
	PathMap []string
	Now     func() time.Time
}

// NewCmdReport builds profan report.
func NewCmdReport(io *IOStreams) *cobra.Command {
	opts := &ReportOptions{IO: io, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "report (<file>... | --db <path> [--run <id> | --label key=value...]) [--kernel <regexp>] --html <out>",
		Short: "Write a self-contained HTML report: roofline, efficiency, findings, trends",
		Long: `Write one HTML file (inline CSS and SVG, no script, nothing fetched) with,
for a trace, its timeline (the wall by cause and its strips per device and
stream), what to change first with its gain, a summary of the kernels, a
roofline chart per GPU, each kernel's ideal versus actual sectors, its
distance to its speed of light and its findings with their source lines,
and, from a run database, trend charts of the chosen metrics with their
change points. The page states the verdict analyze states; a stored run's
is the one ingest stored.

With files (ncu, nvprof or nsys CSV exports, PyTorch profiler traces), the
report covers them as analyze reads them. With --db, it covers the newest
run (or --run; or, with --label, the newest run having the labels) and draws
the trends of the kernels matching --kernel across all runs (with --label,
the runs having the labels). --kernel keeps the kernels whose name matches. Launches of the same
kernel form a group: the summary lists the groups by total time, each with its
share of the capture, and each group has one card with its launches folded.`,
		Example: `  profan report fixtures/ncu/transpose.import.details.csv fixtures/ncu/transpose.source.cuda-sass.csv --html transpose.html
  profan report --db runs.db --kernel '^transpose' --html trends.html`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if opts.HTML == "" {
				return FlagErrorf("--html is required")
			}
			if len(args) == 0 && opts.DB == "" && opts.IO.Getenv(store.EnvDB) == "" {
				return FlagErrorf("give export files or --db")
			}
			db := ""
			if len(args) == 0 {
				db = dbPath(opts.DB, opts.IO)
			}
			if err := checkOutput(opts.HTML, args, db); err != nil {
				return err
			}
			return reportRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.HTML, "html", "", "output file (required; - for standard output; never an input or the database)")
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db)")
	cmd.Flags().Int64Var(&opts.Run, "run", 0, "stored run to report (default the newest)")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "with --db: only runs with this label, key=value (repeatable): the newest is reported, their trends drawn")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "kernels to report and draw trends for (regexp; default all)")
	cmd.Flags().StringSliceVarP(&opts.Metrics, "metric", "m", []string{"duration", "gld_transactions_per_request", "gst_transactions_per_request", "shared_load_transactions_per_request", "dram_throughput"}, "metrics to draw trends of")
	cmd.Flags().StringVar(&opts.Title, "title", "", "report title")
	cmd.Flags().StringVar(&opts.XLabel, "x-label", "", "label key whose values name the runs on the trend charts' x axis (default the run IDs)")
	opts.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&opts.Config, "config", "", "config file (TOML) with thresholds and suppressions, as analyze and gate read it")
	addPathMapFlag(cmd.Flags(), &opts.PathMap)
	return cmd
}

func reportRun(ctx context.Context, opts *ReportOptions) error {
	pm, err := parsePathMap(opts.PathMap)
	if err != nil {
		return err
	}
	st, err := loadSettings("all", nil, opts.Config, opts.deviceOpts)
	if err != nil {
		return err
	}
	match, err := kernelFilter(opts.Kernel)
	if err != nil {
		return err
	}
	if len(opts.Files) > 0 {
		for _, m := range opts.Metrics {
			if _, ok := metrics.ByName(m); !ok {
				// Without a database no trend is drawn; a name no canonical
				// metric has is a typo all the same.
				return unknownError("metric", m, metrics.Names(), "canonical names: profan explain --metrics")
			}
		}
	}
	rep := &html.Report{Title: opts.Title, Generated: opts.Now().UTC().Format("2006-01-02 15:04 UTC")}
	// Launches are grouped as they are read: the report keeps one analysis
	// per kernel, whatever the number of launches; the verdict is made
	// once, as analyze makes it, and put on the page.
	b := analysis.NewBuilder(false, st.Engine())
	labels, err := parseLabels(opts.Labels)
	if err != nil {
		return err
	}
	if len(labels) > 0 && len(opts.Files) > 0 {
		return FlagErrorf("--label selects stored runs: give it with --db, not with files")
	}
	in := reportInput{ctx: ctx, opts: opts, st: st, match: match, pm: pm, b: b, rep: rep}
	var v *verdict.Verdict
	if len(opts.Files) > 0 {
		v, err = in.files()
	} else {
		v, err = in.stored(labels)
	}
	if err != nil {
		return err
	}
	report.SetVerdict(rep, v)
	if opts.HTML == "-" {
		if err := html.Write(opts.IO.Out, rep); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "wrote the report to standard output (%d launches of %s, %d trends)\n", v.Launches, plural(len(v.Groups), "kernel"), len(rep.Trends))
		return nil
	}
	if err := writeFileAtomic(ctx, opts.HTML, func(w io.Writer) error { return html.Write(w, rep) }); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %s (%d launches of %s, %d trends)\n", opts.HTML, v.Launches, plural(len(v.Groups), "kernel"), len(rep.Trends))
	return nil
}

// reportInput is what profan report reads its kernels with, and the page
// they go on.
type reportInput struct {
	ctx   context.Context // the command's
	opts  *ReportOptions
	st    *settings
	match func(*profan.Kernel) bool
	pm    pathMap
	b     *analysis.Builder
	rep   *html.Report
}

// files reads the export files given. They are streamed as analyze does:
// repeated launches of a trace share their verdict (the memo), and only
// the groups are kept; the stream also builds each trace's timeline.
func (in reportInput) files() (*verdict.Verdict, error) {
	aopt := in.st.Opt
	vs := analysis.NewStream(aopt, false)
	runs, err := readVerdicts(in.ctx, vs, in.opts.Files, ingest.Options{Concurrent: true}, aopt, in.match, in.pm, func(a *analysis.Kernel) error {
		in.b.Add(a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return in.b.Finish(runs, vs.Finish(runs)), nil
}

// stored reads a stored run (--run, else the newest having labels) and
// draws the trends of the runs having labels.
func (in reportInput) stored(labels map[string]string) (*verdict.Verdict, error) {
	opts := in.opts
	db, err := openDB(in.ctx, dbPath(opts.DB, opts.IO))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	runID := opts.Run
	if runID == 0 {
		rs, err := db.Runs(in.ctx, store.RunFilter{Limit: 1, Labels: labels})
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 && len(labels) > 0 {
			return nil, fmt.Errorf("database %s holds no run labelled %s", dbPath(opts.DB, opts.IO), report.LabelText(labels))
		}
		if len(rs) == 0 {
			return nil, fmt.Errorf("database %s holds no runs", store.Display(dbPath(opts.DB, opts.IO)))
		}
		runID = rs[len(rs)-1].ID
		if newest := rs[len(rs)-1]; newest.Kernels == 0 {
			// An API summary (nsys cuda_api_sum) is stored as a run
			// of its own, after the trace of its capture given with it:
			// the newest run that holds launches is the one to report.
			ks, err := db.Runs(in.ctx, store.RunFilter{Limit: 1, Labels: labels, Launches: true})
			if err != nil {
				return nil, err
			}
			if len(ks) > 0 {
				runID = ks[0].ID
				fmt.Fprintf(opts.IO.ErrOut, "note: run %d (%s), the newest, holds no kernel launches: reporting run %d (%s), the newest that does; --run %d reports run %d\n",
					newest.ID, safe.Term(newest.Source), runID, safe.Term(ks[0].Source), newest.ID, newest.ID)
			}
		}
	}
	// The verdict stored at ingest, as gate --run reads it: never
	// made again with other thresholds, unless an older profan made it.
	rv, err := eachStored(in.ctx, opts.IO, db, runID, in.st.Opt, func(a *analysis.Kernel) error {
		if !in.match(a.Record) {
			return nil
		}
		suppressStored(in.st, a)
		in.pm.verdict(a)
		in.b.Add(a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The advice made at ingest, from the whole timeline and the host
	// transfers (which the database does not keep), as analyze gave it.
	rec, ok, err := verdictdb.Advice(in.ctx, db, runID)
	if err != nil {
		return nil, err
	}
	if ok {
		in.b.Recommend(rec)
	}
	if in.rep.Title == "" {
		in.rep.Title = fmt.Sprintf("profan report: run %d (%s)", runID, rv.Run.Source)
	}
	v := in.b.Finish([]*profan.Run{rv.Run}, []*analysis.RunVerdict{rv})
	return v, in.trends(db, labels)
}

// trends draws the charts of the report's metrics over the stored runs
// having labels.
func (in reportInput) trends(db *store.DB, labels map[string]string) error {
	opts := in.opts
	re := regexp.MustCompile("")
	if opts.Kernel != "" {
		var err error
		if re, err = regexp.Compile(opts.Kernel); err != nil {
			return FlagErrorf("--kernel: %v", err)
		}
	}
	// Every stored run, so that a run lacking a metric is a gap in
	// its chart rather than a step the axis hides.
	all, err := db.Runs(in.ctx, store.RunFilter{Labels: labels})
	if err != nil {
		return err
	}
	if err := checkXLabel(opts.XLabel, all); err != nil {
		return err
	}
	topt := report.TrendOptions{Runs: reportRuns(all), XLabel: opts.XLabel}
	trendRuns := map[int64]bool{}
	for _, m := range opts.Metrics {
		pts, err := db.Trend(in.ctx, store.TrendQuery{Kernel: re, Metric: m, Labels: labels})
		if err != nil {
			return err
		}
		pointRuns(trendRuns, pts)
		unit := ""
		d, canonical := metrics.ByName(m)
		if canonical {
			unit = d.Unit
		} else if len(pts) == 0 {
			// Neither canonical nor a raw metric of any matching
			// kernel: a typo, whose chart would be silently missing.
			return unknownError("metric", m, metrics.Names(), "canonical names: profan explain --metrics")
		}
		in.rep.Trends = append(in.rep.Trends, report.TrendCharts(reportSeries(compare.Build(pts, m)), m, unit, topt)...)
	}
	return olderTrendNote(in.ctx, opts.IO, db, trendRuns)
}

// checkXLabel refuses an --x-label that no stored run has: every chart
// would fall back to run IDs without a word.
func checkXLabel(key string, runs []store.RunRecord) error {
	if key == "" {
		return nil
	}
	keys := map[string]bool{}
	for _, r := range runs {
		if _, ok := r.Labels[key]; ok {
			return nil
		}
		for k := range r.Labels {
			keys[k] = true
		}
	}
	known := slices.Sorted(maps.Keys(keys))
	list := "no run has labels"
	if len(known) > 0 {
		list = "the runs' label keys: " + strings.Join(known, ", ")
	}
	return unknownError("--x-label key", key, known, list)
}

// writeFileAtomic writes path through a temporary file beside it, renamed
// over it once complete: a full disk, a file size limit or a kill leaves
// the old file (or none), never a cut one.
//
// A cancelled ctx (Ctrl-C, SIGTERM) stops the writes and leaves no file:
// the old one, or none, stays.
func writeFileAtomic(ctx context.Context, path string, write func(io.Writer) error) (err error) {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	f, err := tempBeside(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	bw := bufio.NewWriter(ctxWriter{ctx: ctx, w: f})
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// checkOutput refuses an output file that is one of the inputs or the
// database (or its journal files): writing the report there would destroy
// what it reports on.
func checkOutput(out string, inputs []string, db string) error {
	if out == "-" {
		return nil
	}
	ost, err := os.Stat(out)
	if err != nil {
		return nil // a new file
	}
	if !ost.Mode().IsRegular() {
		return FlagErrorf("--html %s: not a regular file", out)
	}
	check := append([]string(nil), inputs...)
	if db != "" && !store.IsPostgres(db) {
		check = append(check, db, db+"-wal", db+"-shm", db+"-journal")
	}
	for _, in := range check {
		if st, err := os.Stat(in); err == nil && os.SameFile(ost, st) {
			return FlagErrorf("--html %s would overwrite %s, an input of this report: choose another output file", out, in)
		}
	}
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
