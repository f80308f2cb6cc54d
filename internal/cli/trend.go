package cli

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/store"
	"github.com/spf13/cobra"
)

// TrendOptions are the flags of profan trend.
type TrendOptions struct {
	IO *IOStreams
	labeledDB
	Kernel string
	Metric string
	Format string
}

// NewCmdTrend builds profan trend.
func NewCmdTrend(io *IOStreams) *cobra.Command {
	opts := &TrendOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "trend --kernel <regexp> --metric <name> [--db <path>] [--label <key=value>]... [--format {text|json|csv}]",
		Short: "Show a metric of some kernels across runs, with its change points",
		Long: `Show the value of one metric (canonical or raw name) of the kernels whose name
matches --kernel, run after run, and mark where it changed.

Change detection depends on the metric, and each change says which method
decided it. Hardware counters (sectors, requests, instructions, efficiencies)
are nearly deterministic: a change is a move of more than 1% between
consecutive runs (exact). Durations, throughputs and occupancies are noisy:
when both runs have three launches or more, their launches are compared with
a Mann-Whitney U test (launches: p < 0.05 and medians more than 5% apart);
with one launch per run, the series is cut into levels by least squares and
each step is t-tested against the run-to-run spread of the runs that share a
level (history), or, while no two runs share a level, taken when over 5%
(floor).`,
		Example: `  profan trend --db runs.db --kernel '^transpose' --metric duration
  profan trend --db runs.db --kernel transpose --metric gst_transactions_per_request --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return trendRun(cmd.Context(), opts) },
	}
	opts.labeledDB.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "kernel name regexp (matched against mangled and demangled names)")
	cmd.Flags().StringVarP(&opts.Metric, "metric", "m", "", "canonical metric (profan explain --metrics) or raw ncu/nvprof name")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json|csv}")
	return cmd
}

func trendRun(ctx context.Context, opts *TrendOptions) error {
	if gate.IsTimelineMetric(opts.Metric) {
		return trendTimeline(ctx, opts)
	}
	if opts.Kernel == "" || opts.Metric == "" {
		return FlagErrorf("--kernel and --metric are required (--kernel is not, for a timeline figure: %s)", strings.Join(gate.TimelineMetricNames(), ", "))
	}
	re, err := regexp.Compile(opts.Kernel)
	if err != nil {
		return FlagErrorf("--kernel: %v", err)
	}
	db, labels, err := opts.open(ctx, opts.IO)
	if err != nil {
		return err
	}
	defer db.Close()
	pts, err := db.Trend(ctx, store.TrendQuery{Kernel: re, Metric: opts.Metric, Labels: labels})
	if err != nil {
		return err
	}
	if err := olderTrendNote(ctx, opts.IO, db, pointRuns(map[int64]bool{}, pts)); err != nil {
		return err
	}
	if _, canonical := metrics.ByName(opts.Metric); len(pts) == 0 && !canonical {
		// Neither canonical nor a raw metric of any matching kernel: a typo.
		return unknownError("metric", opts.Metric, metrics.Names(), "canonical names: profan explain --metrics")
	}
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Trend == nil {
		return formatError(opts.Format, report.TrendFormats()...)
	}
	unit := ""
	if d, ok := metrics.ByName(opts.Metric); ok {
		unit = d.Unit
	}
	t := reportTrend(opts.Metric, unit, pts)
	if len(t.Series) == 0 && f == report.Text {
		fmt.Fprintf(opts.IO.ErrOut, "no values of %s for kernels matching %q\n", opts.Metric, opts.Kernel)
		return nil
	}
	return f.Trend(opts.IO.Out, t, report.Options{})
}

// trendTimeline is the trend of a figure of the runs' timelines (the GPU
// busy share, an idle share): one series, "timeline", of the runs stored
// with one.
func trendTimeline(ctx context.Context, opts *TrendOptions) error {
	db, labels, err := opts.open(ctx, opts.IO)
	if err != nil {
		return err
	}
	defer db.Close()
	runs, err := db.Runs(ctx, store.RunFilter{Labels: labels})
	if err != nil {
		return err
	}
	tls, err := db.Timelines(ctx)
	if err != nil {
		return err
	}
	byRun := map[int64]store.TimelineFigures{}
	for _, f := range tls {
		byRun[f.Run] = f
	}
	var pts []store.Point
	for _, r := range runs {
		f, ok := byRun[r.ID]
		if !ok {
			continue
		}
		pts = append(pts, store.Point{Run: r.ID, Labels: r.Labels, Created: r.Created, Kernel: "timeline", Value: 100 * timelineFigure(f, opts.Metric)})
	}
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Trend == nil {
		return formatError(opts.Format, report.TrendFormats()...)
	}
	// Shares in percent, as every other command prints them.
	t := reportTrend(opts.Metric, "%", pts)
	if len(t.Series) == 0 && f == report.Text {
		fmt.Fprintf(opts.IO.ErrOut, "no stored run has a timeline (ingest a trace: a PyTorch profiler trace, nsys cuda_gpu_trace, nvprof --print-gpu-trace)\n")
		return nil
	}
	return f.Trend(opts.IO.Out, t, report.Options{})
}

// timelineFigure is a stored timeline's figure for a gate metric.
func timelineFigure(f store.TimelineFigures, metric string) float64 {
	switch metric {
	case "gpu_busy":
		return f.BusyShare
	case "idle":
		return 1 - f.BusyShare
	}
	return f.IdleShare(strings.TrimPrefix(metric, "idle_"))
}
