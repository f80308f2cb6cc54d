package cli

import (
	"encoding/json"
	"fmt"
	"github.com/profan-dev/profan/internal/safe"
	"text/tabwriter"
	"time"

	"github.com/profan-dev/profan/store"
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

// JSONRunRecord is one run in profan runs --format json.
type JSONRunRecord struct {
	ID      int64             `json:"id"`
	Labels  map[string]string `json:"labels"`
	Source  string            `json:"source"`
	Device  string            `json:"device"`
	Time    string            `json:"time"`
	Tool    string            `json:"tool"`
	Format  string            `json:"format"`
	Kernels int               `json:"kernels"`
	Digest  string            `json:"digest"`
}

func runsRun(opts *RunsOptions) error {
	labels, err := parseLabels(opts.Labels)
	if err != nil {
		return err
	}
	db, err := openDB(dbPath(opts.DB, opts.IO))
	if err != nil {
		return err
	}
	defer db.Close()
	rs, err := db.Runs(bg, store.RunFilter{Labels: labels, Limit: opts.Limit})
	if err != nil {
		return err
	}
	switch opts.Format {
	case "json":
		out := make([]JSONRunRecord, 0, len(rs))
		for _, r := range rs {
			out = append(out, JSONRunRecord{ID: r.ID, Labels: r.Labels, Source: r.Source, Device: r.Device,
				Time: r.Created.UTC().Format(time.RFC3339), Tool: r.Tool, Format: r.Format, Kernels: r.Kernels, Digest: r.Digest})
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "text", "":
		tw := tabwriter.NewWriter(opts.IO.Out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RUN\tTIME\tTOOL\tDEVICE\tKERNELS\tLABELS\tSOURCE")
		for _, r := range rs {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%s\n", r.ID, r.Created.UTC().Format("2006-01-02 15:04:05"), r.Tool, safe.Term(r.Device), r.Kernels, safe.Term(labelString(r.Labels)), safe.Term(r.Source))
		}
		return tw.Flush()
	}
	return formatError(opts.Format, "text", "json")
}
