package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/profan-dev/profan/gate"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/stats"
	"github.com/profan-dev/profan/store"
	"github.com/spf13/cobra"
)

// TrendOptions are the flags of profan trend.
type TrendOptions struct {
	IO     *IOStreams
	DB     string
	Kernel string
	Metric string
	Labels []string
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
		RunE: func(cmd *cobra.Command, args []string) error { return trendRun(opts) },
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db)")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "kernel name regexp (matched against mangled and demangled names)")
	cmd.Flags().StringVarP(&opts.Metric, "metric", "m", "", "canonical metric (profan explain --metrics) or raw ncu/nvprof name")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "only runs with this label: key=value (repeatable)")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json|csv}")
	return cmd
}

// Series is one kernel's values run by run.
type Series struct {
	Kernel  string
	Runs    []RunValues
	Changes []Change
	Method  string
	// Spread is the run-to-run spread of the series' medians (noisy
	// metrics), which diff and gate test single launches against.
	Spread stats.Spread
}

// RunValues are a kernel's values in one run (one per launch).
type RunValues struct {
	Run    int64
	Labels map[string]string
	Values []float64
}

// Median is the run's value.
func (r RunValues) Median() float64 { return stats.Median(r.Values) }

// Change is a detected change point.
type Change struct {
	Run  int64   `json:"run"`
	From float64 `json:"from"`
	To   float64 `json:"to"`
	Rel  float64 `json:"rel_change"`
	P    float64 `json:"p,omitempty"`
	// Method is what decided the change: exact, launches, history, floor.
	Method stats.Method `json:"method"`
}

// buildSeries groups points by kernel and run and finds the change points.
func buildSeries(pts []store.Point, metric string) []*Series {
	var order []string
	by := map[string]*Series{}
	for _, p := range pts {
		s, ok := by[p.Kernel]
		if !ok {
			s = &Series{Kernel: p.Kernel}
			by[p.Kernel] = s
			order = append(order, p.Kernel)
		}
		if n := len(s.Runs); n == 0 || s.Runs[n-1].Run != p.Run {
			s.Runs = append(s.Runs, RunValues{Run: p.Run, Labels: p.Labels})
		}
		r := &s.Runs[len(s.Runs)-1]
		r.Values = append(r.Values, p.Value)
	}
	out := make([]*Series, 0, len(order))
	for _, k := range order {
		s := by[k]
		detectChanges(s, gate.Noisy(metric))
		out = append(out, s)
	}
	return out
}

func detectChanges(s *Series, isNoisy bool) {
	med := make([]float64, len(s.Runs))
	for i, r := range s.Runs {
		med[i] = r.Median()
	}
	add := func(i int, p float64, m stats.Method) {
		s.Changes = append(s.Changes, Change{Run: s.Runs[i].Run, From: med[i-1], To: med[i], Rel: stats.Rel(med[i-1], med[i]), P: p, Method: m})
	}
	if !isNoisy {
		s.Method = "exact: a hardware counter; a move of more than 1% between consecutive runs"
		for _, i := range stats.ChangePoints(med, stats.Deterministic) {
			add(i, 0, stats.Exact)
		}
		return
	}
	th := stats.NoisyThresholds
	shifts, spread := th.LevelShifts(med)
	s.Spread = spread
	byIndex := map[int]stats.Shift{}
	for _, sh := range shifts {
		byIndex[sh.Index] = sh
	}
	var used []string
	uses := func(m string) {
		if !slices.Contains(used, m) {
			used = append(used, m)
		}
	}
	for i := 1; i < len(s.Runs); i++ {
		a, b := s.Runs[i-1].Values, s.Runs[i].Values
		if len(a) >= 3 && len(b) >= 3 {
			uses(fmt.Sprintf("launches: Mann-Whitney U over the launches of consecutive runs of 3 launches or more (p < %.2g, medians %.0f%% apart)", th.Alpha, th.MinRelChange*100))
			if changed, p, m := th.CompareRuns(a, b, spread); changed {
				add(i, p, m)
			}
			continue
		}
		if spread.Known() {
			uses(fmt.Sprintf("history: one launch per run, so levels are cut by least squares and each step is t-tested against the %s (p < %.2g over the %d positions, steps over %.0f%%)", spread, th.Alpha, len(med)-1, th.MinRelChange*100))
		} else {
			uses(fmt.Sprintf("floor: one launch per run and no run-to-run spread known yet (no level held by two runs): steps of more than %.0f%%", th.MinRelChange*100))
		}
		if sh, ok := byIndex[i]; ok {
			add(i, sh.P, sh.Method)
		}
	}
	s.Method = strings.Join(used, "; ")
	if s.Method == "" {
		s.Method = "a single run: nothing to compare"
	}
}

func trendRun(opts *TrendOptions) error {
	if opts.Kernel == "" || opts.Metric == "" {
		return FlagErrorf("--kernel and --metric are required")
	}
	re, err := regexp.Compile(opts.Kernel)
	if err != nil {
		return FlagErrorf("--kernel: %v", err)
	}
	labels, err := parseLabels(opts.Labels)
	if err != nil {
		return err
	}
	db, err := openDB(dbPath(opts.DB, opts.IO))
	if err != nil {
		return err
	}
	defer db.Close()
	pts, err := db.Trend(bg, store.TrendQuery{Kernel: re, Metric: opts.Metric, Labels: labels})
	if err != nil {
		return err
	}
	if _, canonical := metrics.ByName(opts.Metric); len(pts) == 0 && !canonical {
		// Neither canonical nor a raw metric of any matching kernel: a typo.
		return unknownError("metric", opts.Metric, metrics.Names(), "canonical names: profan explain --metrics")
	}
	series := buildSeries(pts, opts.Metric)
	unit := ""
	if d, ok := metrics.ByName(opts.Metric); ok {
		unit = d.Unit
	}
	switch opts.Format {
	case "json":
		type jp struct {
			Run    int64             `json:"run"`
			Labels map[string]string `json:"labels"`
			Value  float64           `json:"value"`
			Kernel string            `json:"kernel"`
			Launch string            `json:"launch"`
		}
		type jc struct {
			Kernel string `json:"kernel"`
			Change
		}
		out := struct {
			Metric  string            `json:"metric"`
			Unit    string            `json:"unit"`
			Points  []jp              `json:"points"`
			Changes []jc              `json:"changes"`
			Methods map[string]string `json:"methods"`
		}{Metric: opts.Metric, Unit: unit, Points: []jp{}, Changes: []jc{}, Methods: map[string]string{}}
		for _, p := range pts {
			out.Points = append(out.Points, jp{p.Run, p.Labels, p.Value, p.Kernel, p.Launch})
		}
		for _, s := range series {
			out.Methods[s.Kernel] = s.Method
			for _, c := range s.Changes {
				out.Changes = append(out.Changes, jc{s.Kernel, c})
			}
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "csv":
		w := csv.NewWriter(opts.IO.Out)
		w.Write([]string{"run", "labels", "kernel", "launch", "value"})
		for _, p := range pts {
			w.Write([]string{strconv.FormatInt(p.Run, 10), labelString(p.Labels), p.Kernel, p.Launch, strconv.FormatFloat(p.Value, 'g', -1, 64)})
		}
		w.Flush()
		return w.Error()
	case "text", "":
		if len(series) == 0 {
			fmt.Fprintf(opts.IO.ErrOut, "no values of %s for kernels matching %q\n", opts.Metric, opts.Kernel)
			return nil
		}
		for i, s := range series {
			if i > 0 {
				fmt.Fprintln(opts.IO.Out)
			}
			writeSeriesText(opts.IO, s, opts.Metric, unit)
		}
		return nil
	}
	return formatError(opts.Format, "text", "json", "csv")
}

func writeSeriesText(io *IOStreams, s *Series, metric, unit string) {
	med := make([]float64, len(s.Runs))
	for i, r := range s.Runs {
		med[i] = r.Median()
	}
	fmt.Fprintf(io.Out, "%s  %s  %s\n", s.Kernel, metric, stats.Sparkline(med))
	changed := map[int64]Change{}
	for _, c := range s.Changes {
		changed[c.Run] = c
	}
	tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tLABELS\tLAUNCHES\tVALUE\tCHANGE")
	for i, r := range s.Runs {
		mark := ""
		if c, ok := changed[r.Run]; ok {
			arrow := "▲"
			if c.To < c.From {
				arrow = "▼"
			}
			mark = fmt.Sprintf("%s %+.1f%%", arrow, c.Rel*100)
			mark += " (" + string(c.Method)
			if c.Method == stats.Launches || c.Method == stats.History {
				mark += ", " + formatP(c.P)
			}
			mark += ")"
		} else if i > 0 {
			mark = "~"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\n", r.Run, labelString(r.Labels), len(r.Values), metrics.Format(med[i], unit), mark)
	}
	tw.Flush()
	fmt.Fprintf(io.Out, "change detection: %s; ~ = no significant change\n", s.Method)
}

// formatP prints a p-value, p=0.008, or p<0.001 below 0.001.
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}
