package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/profan-dev/profan/internal/store"
)

// dbPath returns the database named by --db, $PROFAN_DB, or the default
// "profan.db" in the current directory.
func dbPath(flag string, io *IOStreams) string {
	if flag != "" {
		return flag
	}
	if v := io.Getenv(store.EnvDB); v != "" {
		return v
	}
	return "profan.db"
}

// openDB opens an existing database for reading: a missing SQLite file is
// a usage error rather than a new empty database.
func openDB(ctx context.Context, path string) (*store.DB, error) {
	if !store.IsPostgres(path) {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("database %s: %w (ingest a run first)", path, err)
		}
	}
	return store.OpenReadOnlyContext(ctx, path)
}

// parseLabels parses key=value flags.
func parseLabels(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, FlagErrorf("--label %q: want key=value", f)
		}
		k = strings.TrimSpace(k)
		if _, dup := out[k]; dup {
			return nil, FlagErrorf("--label %q: key %q given twice", f, k)
		}
		if strings.TrimSpace(v) == "" {
			// commit=$(git rev-parse ...) outside a repository: a run
			// labelled with nothing could never be found by its label.
			return nil, FlagErrorf("--label %q: the value is empty", f)
		}
		out[k] = v
	}
	return out, nil
}
