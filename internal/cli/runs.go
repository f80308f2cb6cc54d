package cli

import (
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/store"
	"github.com/spf13/cobra"
)

// RunsOptions are the flags of profan runs.
type RunsOptions struct {
	IO     *IOStreams
	DB     string
	Format string
	Labels []string
	Limit  int
}

// NewCmdRuns builds profan runs.
func NewCmdRuns(io *IOStreams) *cobra.Command {
	opts := &RunsOptions{IO: io}
	cmd := &cobra.Command{
		Use:     "runs [--db <path>] [--label <key=value>]... [--format {text|json}]",
		Short:   "List the stored runs",
		Example: `  profan runs --db runs.db --label branch=main --format json`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return runsRun(opts) },
	}
	cmd.Flags().StringVar(&opts.DB, "db", "", "run database (default $PROFAN_DB or profan.db)")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json}")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "only runs with this label: key=value (repeatable)")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "only the newest N runs")
	return cmd
}

func runsRun(opts *RunsOptions) error {
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Runs == nil {
		return formatError(opts.Format, report.RunsFormats()...)
	}
	db, labels, err := openLabeled(opts.Labels, opts.DB, opts.IO)
	if err != nil {
		return err
	}
	defer db.Close()
	rs, err := db.Runs(bg, store.RunFilter{Labels: labels, Limit: opts.Limit})
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
			Labels: r.Labels, Created: r.Created, Kernels: r.Kernels}
	}
	return out
}
