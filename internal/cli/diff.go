package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"text/tabwriter"

	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/stats"
	"github.com/spf13/cobra"
)

// DiffOptions are the flags of profan diff.
type DiffOptions struct {
	IO        *IOStreams
	DB        string
	A, B      int64
	Format    string
	Threshold float64
	All       bool
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
	cmd.Flags().Float64Var(&opts.Threshold, "threshold", 1, "show metrics that moved by more than this percent")
	cmd.Flags().BoolVar(&opts.All, "all", false, "show every metric, moved or not")
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

// MetricDelta is one metric's move.
type MetricDelta struct {
	Metric  string  `json:"metric"`
	Unit    string  `json:"unit"`
	A       float64 `json:"a"`
	B       float64 `json:"b"`
	Rel     float64 `json:"rel_change"`
	Verdict string  `json:"verdict"` // better, worse, changed, same
}

func diffRun(opts *DiffOptions) error {
	db, err := openDB(dbPath(opts.DB, opts.IO))
	if err != nil {
		return err
	}
	defer db.Close()
	va, err := viewsFromDB(db, opts.A)
	if err != nil {
		return fmt.Errorf("run %d: %w", opts.A, err)
	}
	vb, err := viewsFromDB(db, opts.B)
	if err != nil {
		return fmt.Errorf("run %d: %w", opts.B, err)
	}
	diffs := diffViews(va, vb, opts.Threshold/100, opts.All)
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
		return FlagErrorf("unknown format %q (want text or json)", opts.Format)
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
		for _, m := range d.Metrics {
			pct := fmt.Sprintf("%+.1f%%", m.Rel*100)
			if m.A == 0 {
				pct = "from 0"
			}
			fmt.Fprintf(tw, "  %s\t%s\t→ %s\t%s\t%s\n", m.Metric, metrics.Format(m.A, m.Unit), metrics.Format(m.B, m.Unit), pct, m.Verdict)
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
func diffViews(va, vb []kernelView, threshold float64, all bool) []KernelDiff {
	ga, gb := group(va), group(vb)
	byB := map[string]*kernelGroup{}
	for _, g := range gb {
		byB[g.Name] = g
	}
	seen := map[string]bool{}
	var out []KernelDiff
	for _, a := range ga {
		seen[a.Name] = true
		b, ok := byB[a.Name]
		if !ok {
			out = append(out, KernelDiff{Kernel: a.Name, Status: "only-a", LaunchesA: len(a.Views)})
			continue
		}
		d := KernelDiff{Kernel: a.Name, Status: "both", LaunchesA: len(a.Views), LaunchesB: len(b.Views), Metrics: []MetricDelta{}, Appeared: []string{}, Gone: []string{}}
		for _, def := range metrics.Defs {
			xa, xb := a.samples(def.Name), b.samples(def.Name)
			if len(xa) == 0 || len(xb) == 0 {
				continue
			}
			ma, mb := stats.Median(xa), stats.Median(xb)
			r := rel(ma, mb)
			if !all && (math.Abs(r) <= threshold || ma == mb) {
				continue
			}
			d.Metrics = append(d.Metrics, MetricDelta{Metric: def.Name, Unit: def.Unit, A: ma, B: mb, Rel: finiteOr(r, 0), Verdict: verdict(def.Better, ma, mb, threshold)})
		}
		ra, rb := a.rules(), b.rules()
		for _, r := range sortedRules(rb) {
			if _, ok := ra[r]; !ok {
				d.Appeared = append(d.Appeared, r)
			}
		}
		for _, r := range sortedRules(ra) {
			if _, ok := rb[r]; !ok {
				d.Gone = append(d.Gone, r)
			}
		}
		out = append(out, d)
	}
	for _, b := range gb {
		if !seen[b.Name] {
			out = append(out, KernelDiff{Kernel: b.Name, Status: "only-b", LaunchesB: len(b.Views)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Status == "both" && out[j].Status != "both" })
	return out
}

func verdict(better int, a, b, threshold float64) string {
	r := rel(a, b)
	if math.Abs(r) <= threshold {
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
