package cli

import (
	"fmt"

	"github.com/profan-dev/profan/store"
	"github.com/spf13/cobra"
)

// NewCmdMigrate builds profan migrate: the one command that updates a
// database's schema besides ingest, since read commands never migrate.
func NewCmdMigrate(io *IOStreams) *cobra.Command {
	var dbFlag string
	cmd := &cobra.Command{
		Use:   "migrate [--db <path|url>]",
		Short: "Update a run database to the schema this profan reads",
		Long: `Apply the schema migrations a run database lacks. Read commands (runs, trend,
diff, gate, report) never migrate: on a shared database, older profans on other
runners would then refuse it. Run this once every profan sharing the database
has been upgraded.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path := dbPath(dbFlag, io)
			db, err := store.Open(path)
			if err != nil {
				return err
			}
			defer db.Close()
			v, err := db.SchemaVersion(bg)
			if err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "%s: schema version %d\n", store.Display(path), v)
			return nil
		},
	}
	cmd.Flags().StringVar(&dbFlag, "db", "", "run database: a SQLite file (default $PROFAN_DB or profan.db) or a postgres:// URL")
	return cmd
}
