package cli

import (
	"context"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/store"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// RunsOptions are the flags of profan runs.
type RunsOptions struct {
	IO     *IOStreams
	Format string
	Limit  int
	labeledDB
}

// labeledDB are the flags of the commands that read the stored runs
// having labels (runs, trend): --db and --label.
type labeledDB struct {
	DB     string
	Labels []string
}

// addFlags registers --db and --label.
func (l *labeledDB) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&l.DB, "db", "", "run database (default $PROFAN_DB or profan.db)")
	fs.StringArrayVarP(&l.Labels, "label", "l", nil, "only runs with this label: key=value (repeatable)")
}

// open parses the labels and opens the database for reading.
func (l *labeledDB) open(ctx context.Context, io *IOStreams) (*store.DB, map[string]string, error) {
	labels, err := parseLabels(l.Labels)
	if err != nil {
		return nil, nil, err
	}
	db, err := openDB(ctx, dbPath(l.DB, io))
	if err != nil {
		return nil, nil, err
	}
	return db, labels, nil
}

// NewCmdRuns builds profan runs.
func NewCmdRuns(io *IOStreams) *cobra.Command {
	opts := &RunsOptions{IO: io}
	cmd := &cobra.Command{
		Use:     "runs [--db <path>] [--label <key=value>]... [--format {text|json}]",
		Short:   "List the stored runs",
		Example: `  profan runs --db runs.db --label branch=main --format json`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return runsRun(cmd.Context(), opts) },
	}
	opts.labeledDB.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json}")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "only the newest N runs")
	return cmd
}

func runsRun(ctx context.Context, opts *RunsOptions) error {
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Runs == nil {
		return formatError(opts.Format, report.RunsFormats()...)
	}
	db, labels, err := opts.open(ctx, opts.IO)
	if err != nil {
		return err
	}
	defer db.Close()
	rs, err := db.Runs(ctx, store.RunFilter{Labels: labels, Limit: opts.Limit})
	if err != nil {
		return err
	}
	return f.Runs(opts.IO.Out, reportRuns(rs), report.Options{})
}

// reportRuns are stored runs as report renders them.
func reportRuns(rs []store.RunRecord) []report.Run {
	out := make([]report.Run, len(rs))
	for i, r := range rs {
		out[i] = report.Run{ID: r.ID, Digest: r.Digest, Source: r.Source, Tool: r.Tool, Format: r.Format, Device: r.Device,
			Labels: r.Labels, Created: r.Created, Captured: r.Captured, Kernels: r.Kernels, Names: r.Names}
	}
	return out
}
