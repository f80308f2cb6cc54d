package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/profan-dev/profan/internal/safe"
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
	if err := dbExists(path); err != nil {
		return nil, err
	}
	return store.OpenReadOnlyContext(ctx, path)
}

// dbExists refuses a SQLite database path with no file: a command that
// reads a database must not make an empty one of a path mistyped.
func dbExists(path string) error {
	if store.IsPostgres(path) {
		return nil
	}
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return noDBError(path)
	}
	if err != nil {
		return fmt.Errorf("database %s: %w", safe.Term(path), err)
	}
	return nil
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

// noDBError is a SQLite database path with no file; it is an
// fs.ErrNotExist (a gate with --missing-baseline pass goes on without
// one).
type noDBError string

func (e noDBError) Error() string {
	return safe.Term(string(e)) + ": no such database (ingest a run first)"
}

func (e noDBError) Unwrap() error { return fs.ErrNotExist }
