package cli

import (
	"context"

	"github.com/profan-dev/profan/internal/ingestdb"
	"github.com/spf13/cobra"
)

// IngestOptions are the flags of profan ingest.
type IngestOptions struct {
	IO     *IOStreams
	Files  []string
	DB     string
	Labels []string
	deviceOpts
	Input   string
	Config  string
	Verbose bool

	ctx context.Context // the command's: cancelled on Ctrl-C
}

// NewCmdIngest builds profan ingest.
func NewCmdIngest(io *IOStreams, runF func(*IngestOptions) error) *cobra.Command {
	opts := &IngestOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "ingest <file>... [--db <path>] [--label <key=value>]...",
		Short: "Store exports as runs in the run database",
		Long: `Store each export as one run: its kernels, their raw metrics, the canonical
metrics profan derives and its findings. Each run is written in one
transaction (all or nothing). An export whose content is already stored
keeps its run, which gains the --label keys it lacks (said on stdout); a
label it has with another value is an error, never replaced. A source page
is stored with the details page of its report, never alone. The database is --db, else $PROFAN_DB, else
profan.db in the current directory (SQLite, created on first use).

Bad input stores nothing: a run is written in one transaction, rolled back on
an error, and when several files are given the others are read before the
first is written.

Files are ncu, nvprof or nsys CSV exports or PyTorch profiler traces (JSON,
plain or .json.gz); a file given as - is standard input (plain or gzip),
named <stdin> in errors.`,
		Example: `  profan ingest fixtures/ncu/series_v*.runs5.details.csv --db runs.db --label branch=main
  PROFAN_DB=runs.db profan ingest run.csv --label commit=$(git rev-parse --short HEAD)`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Verbose, _ = cmd.Flags().GetBool("verbose")
			opts.Files = args
			opts.ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return ingestRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database: a SQLite file (default $PROFAN_DB or profan.db) or a postgres:// URL")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "label the runs: key=value (repeatable)")
	opts.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&opts.Config, "config", "", "config file (TOML): the thresholds and suppressions the stored verdict is made with, as analyze reads it")
	cmd.Flags().StringVar(&opts.Input, "input-format", "", "skip sniffing and read every table as this format")
	return cmd
}

func ingestRun(opts *IngestOptions) error {
	labels, err := parseLabels(opts.Labels)
	if err != nil {
		return err
	}
	ctx := opts.ctx
	if ctx == nil {
		ctx = context.Background() // options made without a command (tests)
	}
	st, err := loadSettings("all", nil, opts.Config, opts.deviceOpts)
	if err != nil {
		return err
	}
	res, err := ingestdb.Ingest(ctx, dbPath(opts.DB, opts.IO), opts.Files, ingestdb.Options{
		Labels: labels, Format: opts.Input, Analysis: st.Opt, Out: opts.IO.Out, ErrOut: opts.IO.ErrOut,
		Kept: opts.IO.keep})
	if res != nil {
		// Notes and -v accounting once everything is stored: the first
		// file's come from its storing read.
		reportReading(opts.IO, res.Runs, opts.Verbose)
	}
	return err
}
