package cli

import (
	"fmt"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdictdb"
	"github.com/spf13/cobra"
)

// NewCmdMigrate builds profan migrate: the one command that updates a
// database's schema besides ingest, and the one that stores again the
// verdicts an older profan made, since read commands never write.
func NewCmdMigrate(io *IOStreams) *cobra.Command {
	var dbFlag, config string
	var dev deviceOpts
	cmd := &cobra.Command{
		Use:   "migrate [--db <path|url>] [--config <file>] [--device <gpu>]",
		Short: "Update a run database to the schema and verdicts this profan reads",
		Long: `Apply the schema migrations a run database lacks, then make again, from the
stored counters, the verdicts of the runs that an older profan stored (its rules
and thresholds were other), and store them in place: metrics, limiter and
findings of each kernel. Read commands (runs, trend, diff, gate, report) never
migrate: on a shared database, older profans on other runners would then refuse
it, and they re-make an older verdict in memory each time, saying so. Run this
once every profan sharing the database has been upgraded.

--config gives the thresholds and suppressions the verdicts are made with, as
ingest takes them; --device the GPU of exports that do not name it. Run-level
findings (host transfers) stay as stored: the transfers are not stored.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context() // cancelled on Ctrl-C: the run being re-made is rolled back
			st, err := loadSettings("all", nil, config, dev)
			if err != nil {
				return err
			}
			path := dbPath(dbFlag, io)
			db, err := store.OpenContext(ctx, path)
			if err != nil {
				return err
			}
			defer db.Close()
			v, err := db.SchemaVersion(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "%s: schema version %d\n", store.Display(path), v)
			old, err := verdictdb.Older(ctx, db)
			if err != nil {
				return err
			}
			for _, r := range old {
				// A named GPU that the run contradicts stores nothing.
				if _, err := verdictdb.Each(ctx, db, r.ID, st.Opt, func(a *analysis.Kernel) error { return analysis.CheckDevice(st.Opt, a.Run, a.Record) }); err != nil {
					return err
				}
				if err := verdictdb.Remake(ctx, db, r.ID, st.Opt); err != nil {
					return err
				}
				io.keep(fmt.Sprintf("run %d's re-made verdict", r.ID))
				fmt.Fprintf(io.Out, "run %d: verdict made by an older profan (v%d) re-made and stored (v%d)\n", r.ID, r.Verdict, analysis.VerdictVersion)
			}
			fmt.Fprintf(io.Out, "%s: %s re-made with the current rules (verdict version %d)\n", store.Display(path), plural(len(old), "run"), analysis.VerdictVersion)
			return nil
		},
	}
	cmd.Flags().StringVar(&dbFlag, "db", "", "run database: a SQLite file (default $PROFAN_DB or profan.db) or a postgres:// URL")
	cmd.Flags().StringVar(&config, "config", "", "config file (TOML) with the thresholds and suppressions to make the verdicts with")
	dev.addFlags(cmd.Flags())
	return cmd
}
