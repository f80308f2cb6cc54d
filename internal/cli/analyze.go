package cli

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/spf13/cobra"
)

// AnalyzeOptions are the flags of profan analyze.
type AnalyzeOptions struct {
	IO      *IOStreams
	Files   []string
	Format  string
	Input   string // importer name; empty sniffs
	Checks  string
	Config  string
	Verbose bool
	PathMap []string
	deviceOpts
	Top      int
	Kernel   string // regular expression over kernel names
	Launches bool   // --launches: every launch in the JSON
}

// NewCmdAnalyze builds profan analyze. runF replaces the run function in
// tests.
func NewCmdAnalyze(io *IOStreams, runF func(*AnalyzeOptions) error) *cobra.Command {
	opts := &AnalyzeOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "analyze <file>...",
		Short: "Summarize each kernel's memory efficiency and say what to fix",
		Long: `Read ncu, nvprof or nsys CSV exports and PyTorch profiler traces (JSON, plain or
.json.gz) and print where the step's time goes (a trace's timeline), what to
change first with its gain in time, and, per kernel, the key memory metrics, the
memory model's reading of the access pattern, and findings with advice. The format of each file is detected from its
header.

A file given as - is standard input (plain or gzip), named <stdin> in errors.`,
		Example: `  profan analyze fixtures/ncu/transpose.full.details.csv
  profan analyze fixtures/timeline/train_small.json.gz
  profan analyze run.csv --format json | jq '.kernels[].findings'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			// -v (every canonical metric, the rules skipped) is the root's.
			opts.Verbose, _ = cmd.Flags().GetBool("verbose")
			if runF != nil {
				return runF(opts)
			}
			return analyzeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {"+strings.Join(report.KernelFormats(), "|")+"}")
	cmd.Flags().StringVar(&opts.Input, "input-format", "", "skip sniffing and read every table as this format")
	cmd.Flags().StringVar(&opts.Checks, "checks", "all", "rules to run: all, -ID, globs (e.g. all,-low-occupancy,*-memcpy)")
	cmd.Flags().StringVar(&opts.Config, "config", "", "config file with thresholds and suppressions")
	opts.addFlags(cmd.Flags())
	cmd.Flags().IntVar(&opts.Top, "top", 10, "details of the N kernels that take the most time, after the summary table (0: all)")
	cmd.Flags().BoolVar(&opts.Launches, "launches", false, "json: list every launch under \"kernels\" (default: each kernel group's longest launch; groups hold every launch's id)")
	cmd.Flags().StringVarP(&opts.Kernel, "kernel", "k", "", "analyze only the kernels whose name matches this regular expression")
	addPathMapFlag(cmd.Flags(), &opts.PathMap)
	return cmd
}

func analyzeRun(ctx context.Context, opts *AnalyzeOptions) error {
	if opts.Top < 0 {
		return FlagErrorf("--top must be 0 (all) or more, not %d", opts.Top)
	}
	match, err := kernelFilter(opts.Kernel)
	if err != nil {
		return err
	}
	pm, err := parsePathMap(opts.PathMap)
	if err != nil {
		return err
	}
	st, err := loadSettings(opts.Checks, nil, opts.Config, opts.deviceOpts)
	if err != nil {
		return err
	}
	w, err := report.New(opts.Format, opts.IO.Out, report.Options{Color: opts.IO.Color && opts.Format == "text", Verbose: opts.Verbose, Top: opts.Top, Launches: opts.Launches,
		Cause: rules.CauseOf})
	if err != nil {
		return formatError(opts.Format, report.KernelFormats()...)
	}
	// Parsing runs on one goroutine, analysis on another; each kernel's
	// verdict goes to the verdict as soon as it is made (and to a format
	// that lists every launch), the verdict is rendered once made.
	vs := analysis.NewStream(st.Opt, false)
	b := analysis.NewBuilder(report.KeepsIDs(opts.Format), st.Engine())
	// No format keeps a kernel's verdict past its Kernel call (JSON
	// writes each at once): the verdicts are transient, and the groups
	// copy the few they keep.
	b.Transient()
	if len(opts.Files) == 1 {
		vs.SkipJoins() // a trace joins an ncu export given with it
	}
	matched := 0
	runs, err := readTransient(ctx, vs, opts.Files, ingest.Options{Format: opts.Input, Concurrent: true}, st.Opt, match, pm, func(a *analysis.Kernel) error {
		matched++
		b.Add(a)
		return w.Kernel(a)
	})
	if err != nil {
		return err
	}
	reportReading(opts.IO, runs, opts.Verbose)
	if opts.Kernel != "" && matched == 0 {
		return usageErrorf("--kernel %q matches no kernel", opts.Kernel)
	}
	if err := w.End(b.Finish(runs, vs.Finish(runs))); err != nil {
		return err
	}
	if opts.Config != "" {
		fmt.Fprintf(opts.IO.ErrOut, "%s: %d finding(s) suppressed\n", opts.Config, vs.Suppressed)
	}
	return nil
}

// reportReading prints, on standard error, the notes met while reading
// and, with -v, what was read of each export and which lines were
// skipped, by rule.
func reportReading(io *IOStreams, runs []*profan.Run, verbose bool) {
	for _, run := range runs {
		for _, m := range run.Messages {
			switch {
			case m.Level == profan.LevelNote && m.Line > 0:
				fmt.Fprintf(io.ErrOut, "%s:%d: note: %s\n", safe.Term(run.Source), m.Line, safe.Term(m.Text))
			case m.Level == profan.LevelNote:
				fmt.Fprintf(io.ErrOut, "note: %s\n", safe.Term(m.Text))
			}
		}
		if verbose {
			fmt.Fprintf(io.ErrOut, "%s: %s\n", safe.Term(run.Source), run.Accounting)
		}
	}
}

// kernelFilter compiles --kernel: a regular expression over the kernel's
// name as printed and its demangled form; empty matches every kernel.
func kernelFilter(expr string) (func(*profan.Kernel) bool, error) {
	if expr == "" {
		return func(*profan.Kernel) bool { return true }, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, FlagErrorf("--kernel: %v", err)
	}
	return func(k *profan.Kernel) bool {
		return re.MatchString(k.Name) || (k.Demangled != "" && re.MatchString(k.Demangled))
	}, nil
}
