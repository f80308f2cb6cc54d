package cli

import (
	"encoding/json"
	"fmt"
	"github.com/profan-dev/profan"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/profan-dev/profan/gate"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/stats"
	"github.com/profan-dev/profan/store"
	"github.com/spf13/cobra"
)

// DiffOptions are the flags of profan diff.
type DiffOptions struct {
	IO        *IOStreams
	DB        string
	A, B      int64
	Format    string
	Threshold string
	All       bool
	Kernel    string // regular expression over kernel names
}

// NewCmdDiff builds profan diff.
func NewCmdDiff(io *IOStreams) *cobra.Command {
	opts := &DiffOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "diff <run-a> <run-b> [--db <path>] [--format {text|json}]",
		Short: "Compare two stored runs kernel by kernel",
		Long: `Compare two runs: for each kernel name in either, the canonical metrics that moved
(medians over repeated launches) with the direction that is better, and the
findings that appeared or disappeared.`,
		Example: `  profan diff --db runs.db 3 4`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.A, err = strconv.ParseInt(args[0], 10, 64); err != nil {
				return FlagErrorf("run %q is not a run ID", args[0])
			}
			if opts.B, err = strconv.ParseInt(args[1], 10, 64); err != nil {
				return FlagErrorf("run %q is not a run ID", args[1])
			}
			return diffRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db)")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json}")
	cmd.Flags().StringVar(&opts.Threshold, "threshold", "1%", "show metrics that moved by more than this (1%, 0.5%, 1.1x; a bare number is a percentage)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "show every metric, moved or not")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "compare only the kernels whose name matches this regular expression")
	return cmd
}

// KernelDiff is one kernel's difference between two runs.
type KernelDiff struct {
	Kernel    string        `json:"kernel"`
	Status    string        `json:"status"` // both, only-a, only-b
	LaunchesA int           `json:"launches_a"`
	LaunchesB int           `json:"launches_b"`
	Metrics   []MetricDelta `json:"metrics"`
	Appeared  []string      `json:"findings_appeared"`
	Gone      []string      `json:"findings_disappeared"`
}

// MetricDelta is one metric's move, with the evidence behind its verdict
// (benchstat-style: samples, their spread, the test).
type MetricDelta struct {
	Metric  string  `json:"metric"`
	Unit    string  `json:"unit"`
	A       float64 `json:"a"` // median over run A's launches
	B       float64 `json:"b"`
	NA      int     `json:"n_a"` // launches with a value
	NB      int     `json:"n_b"`
	SpreadA float64 `json:"spread_a"` // half the range of the launches, relative to their median
	SpreadB float64 `json:"spread_b"`
	Rel     float64 `json:"rel_change"`
	Verdict string  `json:"verdict"` // better, worse, changed, same
	// Test is what decided the verdict: exact (a counter), launches
	// (Mann-Whitney U), history (t-test against the run-to-run spread of
	// the kernel's stored runs), floor (no spread known: the 5% floor).
	Test stats.Method `json:"test"`
	P    float64      `json:"p,omitempty"`
	// History is the run-to-run spread the history test used.
	History string `json:"history,omitempty"`
}

// historySpreads returns, for each noisy metric and each of the named
// kernels, the run-to-run spread of its stored series (as trend computes
// it): the noise that single launches are tested against.
func historySpreads(db *store.DB, names []string, metricNames []string) (map[string]map[string]stats.Spread, error) {
	out := map[string]map[string]stats.Spread{}
	if len(names) == 0 {
		return out, nil
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	re := regexp.MustCompile("^(?:" + strings.Join(q, "|") + ")$")
	for _, m := range metricNames {
		if !gate.Noisy(m) {
			continue
		}
		pts, err := db.Trend(bg, store.TrendQuery{Kernel: re, Metric: m})
		if err != nil {
			return nil, err
		}
		out[m] = map[string]stats.Spread{}
		for _, s := range buildSeries(pts, m) {
			out[m][s.Kernel] = s.Spread
		}
	}
	return out, nil
}

// halfRange is half the range of xs relative to its median: the ± of a
// benchstat line.
func halfRange(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	m := stats.Median(xs)
	if m == 0 {
		return 0
	}
	return (hi - lo) / 2 / math.Abs(m)
}

func diffRun(opts *DiffOptions) error {
	match, err := kernelFilter(opts.Kernel)
	if err != nil {
		return err
	}
	threshold, err := parseRelative(opts.Threshold)
	if err != nil {
		return &UsageError{msg: "--threshold " + err.Error()}
	}
	db, err := openDB(dbPath(opts.DB, opts.IO))
	if err != nil {
		return err
	}
	defer db.Close()
	va, err := viewsFromDB(db, opts.A)
	if err != nil {
		return err // names the run
	}
	vb, err := viewsFromDB(db, opts.B)
	if err != nil {
		return err
	}
	var names []string
	for _, g := range gate.GroupByName(vb) {
		names = append(names, g.Name)
	}
	defNames := make([]string, len(metrics.Defs))
	for i, d := range metrics.Defs {
		defNames[i] = d.Name
	}
	hist, err := historySpreads(db, names, defNames)
	if err != nil {
		return err
	}
	diffs := diffViews(va, vb, threshold, opts.All, hist)
	if opts.Kernel != "" {
		kept := diffs[:0]
		for _, d := range diffs {
			if match(&profan.Kernel{Name: d.Kernel}) {
				kept = append(kept, d)
			}
		}
		diffs = kept
	}
	if opts.Format == "json" {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			A       int64        `json:"a"`
			B       int64        `json:"b"`
			Kernels []KernelDiff `json:"kernels"`
		}{opts.A, opts.B, diffs})
	}
	if opts.Format != "text" && opts.Format != "" {
		return formatError(opts.Format, "text", "json")
	}
	for i, d := range diffs {
		if i > 0 {
			fmt.Fprintln(opts.IO.Out)
		}
		switch d.Status {
		case "only-a":
			fmt.Fprintf(opts.IO.Out, "- %s  (only in run %d)\n", d.Kernel, opts.A)
			continue
		case "only-b":
			fmt.Fprintf(opts.IO.Out, "+ %s  (only in run %d)\n", d.Kernel, opts.B)
			continue
		}
		fmt.Fprintf(opts.IO.Out, "%s  (run %d: %d launches, run %d: %d)\n", d.Kernel, opts.A, d.LaunchesA, opts.B, d.LaunchesB)
		tw := tabwriter.NewWriter(opts.IO.Out, 0, 0, 2, ' ', 0)
		if len(d.Metrics) > 0 {
			fmt.Fprintf(tw, "  METRIC\tRUN %d\t\tRUN %d\t\tDELTA\tVERDICT\tTEST\n", opts.A, opts.B)
		}
		for _, m := range d.Metrics {
			pct := fmt.Sprintf("%+.1f%%", m.Rel*100)
			if m.A == 0 {
				pct = "from 0"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Metric,
				metrics.Format(m.A, m.Unit), spreadN(m.SpreadA, m.NA), metrics.Format(m.B, m.Unit), spreadN(m.SpreadB, m.NB),
				pct, m.Verdict, testText(m))
		}
		tw.Flush()
		for _, r := range d.Appeared {
			fmt.Fprintf(opts.IO.Out, "  + finding %s appeared\n", r)
		}
		for _, r := range d.Gone {
			fmt.Fprintf(opts.IO.Out, "  - finding %s disappeared\n", r)
		}
		if len(d.Metrics) == 0 && len(d.Appeared) == 0 && len(d.Gone) == 0 {
			fmt.Fprintln(opts.IO.Out, "  no change")
		}
	}
	return nil
}

// diffViews compares two runs' kernels by name.
func diffViews(va, vb []gate.Kernel, threshold float64, all bool, hist map[string]map[string]stats.Spread) []KernelDiff {
	ga, gb := gate.GroupByName(va), gate.GroupByName(vb)
	byB := map[string]*gate.Group{}
	for _, g := range gb {
		byB[g.Name] = g
	}
	seen := map[string]bool{}
	var out []KernelDiff
	for _, a := range ga {
		seen[a.Name] = true
		b, ok := byB[a.Name]
		if !ok {
			out = append(out, KernelDiff{Kernel: a.Name, Status: "only-a", LaunchesA: len(a.Kernels)})
			continue
		}
		d := KernelDiff{Kernel: a.Name, Status: "both", LaunchesA: len(a.Kernels), LaunchesB: len(b.Kernels), Metrics: []MetricDelta{}, Appeared: []string{}, Gone: []string{}}
		for _, def := range metrics.Defs {
			xa, xb := a.Samples(def.Name), b.Samples(def.Name)
			if len(xa) == 0 || len(xb) == 0 {
				continue
			}
			ma, mb := stats.Median(xa), stats.Median(xb)
			r := stats.Rel(ma, mb)
			if !all && (math.Abs(r) <= threshold || ma == mb) {
				continue
			}
			sp := hist[def.Name][a.Name]
			c := gate.CompareMetric(def.Name, xa, xb, sp, threshold)
			md := MetricDelta{Metric: def.Name, Unit: def.Unit, A: ma, B: mb, NA: len(xa), NB: len(xb),
				SpreadA: halfRange(xa), SpreadB: halfRange(xb), Rel: finiteOr(r, 0),
				Verdict: verdict(def.Better, c.Changed, ma, mb), Test: c.Method, P: c.P}
			if c.Method == stats.History {
				md.History = sp.String()
			}
			d.Metrics = append(d.Metrics, md)
		}
		ra, rb := a.Rules(), b.Rules()
		for _, r := range gate.SortedRules(rb) {
			if _, ok := ra[r]; !ok {
				d.Appeared = append(d.Appeared, r)
			}
		}
		for _, r := range gate.SortedRules(ra) {
			if _, ok := rb[r]; !ok {
				d.Gone = append(d.Gone, r)
			}
		}
		out = append(out, d)
	}
	for _, b := range gb {
		if !seen[b.Name] {
			out = append(out, KernelDiff{Kernel: b.Name, Status: "only-b", LaunchesB: len(b.Kernels)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Status == "both" && out[j].Status != "both" })
	return out
}

// spreadN is a benchstat-style sample description: ±3% n=5, or n=1.
func spreadN(spread float64, n int) string {
	if n < 2 {
		return fmt.Sprintf("n=%d", n)
	}
	return fmt.Sprintf("±%.0f%% n=%d", spread*100, n)
}

// testText says what decided a verdict.
func testText(m MetricDelta) string {
	switch m.Test {
	case stats.Exact:
		return "exact (counter)"
	case stats.Launches:
		return "Mann-Whitney U " + formatP(m.P)
	case stats.History:
		return "history t-test " + formatP(m.P) + ", " + m.History
	}
	return "floor (5%, no run-to-run spread known)"
}

func verdict(better int, changed bool, a, b float64) string {
	if !changed {
		return "same"
	}
	switch {
	case better == 0:
		return "changed"
	case (b > a) == (better > 0):
		return "better"
	}
	return "worse"
}

func finiteOr(v, d float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return d
	}
	return v
}
