package cli

import (
	"strconv"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/gate"
	"github.com/profan-dev/profan/history"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/report"
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
	hist, err := history.Spreads(bg, db, names, defNames)
	if err != nil {
		return err
	}
	diffs := history.Compare(va, vb, threshold, opts.All, hist)
	if opts.Kernel != "" {
		kept := diffs[:0]
		for _, d := range diffs {
			if match(&profan.Kernel{Name: d.Kernel}) {
				kept = append(kept, d)
			}
		}
		diffs = kept
	}
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Diff == nil {
		return formatError(opts.Format, report.DiffFormats()...)
	}
	return f.Diff(opts.IO.Out, &history.Diff{A: opts.A, B: opts.B, Kernels: diffs}, report.Options{})
}
