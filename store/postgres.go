package store

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
)

// isPostgres reports whether dsn names a PostgreSQL database: a URL
// postgres://[user[:password]@][host][:port]/dbname[?param=value&…] (or
// postgresql://), as libpq and pgx take it. A Unix socket directory goes in
// the host parameter (postgres://profan@/profan?host=/run/postgresql);
// other parameters (sslmode, search_path, application_name, …) are passed
// on as pgx documents.
func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// pgDialect is PostgreSQL through pgx's database/sql driver. Writers run
// concurrently (READ COMMITTED); what SQLite's single write lock gives for
// free is kept as follows:
//
//   - migrations: each migration's transaction first takes a transaction-
//     scoped advisory lock (pgMigrationLock), so processes opening a new
//     database at once apply each migration exactly once;
//   - duplicate runs: runs.digest is UNIQUE; of two transactions inserting
//     one digest the second waits for the first and, once it commits, fails
//     with unique_violation, which pgError maps to *DuplicateError;
//   - dictionary rows (kernel_names, metric_names, raw_metric_keys): a run
//     adds them in its own transaction, after taking a second advisory lock
//     (pgDictLock) that it holds to its end. Rows that only lock holders
//     insert cannot make two writers wait for each other (no deadlock), a
//     rolled-back run leaves none, and their IDs are committed in order,
//     which the key cache relies on. Runs that add no new names, the common
//     case, never take the lock and run side by side;
//   - trends: kernel_values holds each value's kernel name ID too
//     (valuesByName), so that a trend reads ranges of an index, not one
//     index entry per kernel.
var pgDialect = &dialect{
	name:          "postgres",
	driver:        "pgx",
	dsn:           func(dsn string) string { return dsn },
	display:       redactURL,
	rebind:        pgRebind,
	maxParams:     65535,
	formatError:   pgError,
	migrationDir:  "migrations_pg",
	migrationLock: `SELECT pg_advisory_xact_lock(` + strconv.FormatInt(pgMigrationLock, 10) + `)`,
	dictLock:      `SELECT pg_advisory_xact_lock(` + strconv.FormatInt(pgDictLock, 10) + `)`,
	valuesByName:  true,
}

// Advisory lock keys: "profan" in ASCII, then the lock's number. They are
// database-wide, whatever the schema.
const (
	pgMigrationLock = 0x70726f66616e_01
	pgDictLock      = 0x70726f66616e_02
)

// pgRebind rewrites ? placeholders as $1, $2, …, leaving quoted strings,
// quoted identifiers and comments alone.
func pgRebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		case c == '\'' || c == '"':
			end := strings.IndexByte(q[i+1:], c)
			if end < 0 { // unterminated: leave the rest alone
				b.WriteString(q[i:])
				return b.String()
			}
			end += i + 1
			b.WriteString(q[i : end+1])
			i = end
			continue
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// redactURL returns a PostgreSQL URL without its password, for messages.
func redactURL(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the PostgreSQL database (unparsable URL)"
	}
	return u.Redacted()
}

// pgError maps PostgreSQL errors as sqliteError maps SQLite's: a
// unique_violation of runs.digest becomes a *DuplicateError (its ID filled
// in by the caller); text PostgreSQL cannot store says which rule it broke.
// Other errors pass through.
func pgError(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Code == "23505" && pe.ConstraintName == "runs_digest_key": // unique_violation
		return &DuplicateError{}
	case pe.Code == "22021": // character_not_in_repertoire: invalid UTF-8 or NUL
		return fmt.Errorf("PostgreSQL stores only valid UTF-8 text without NUL bytes: %w", err)
	case pe.Code == "54000": // program_limit_exceeded: an index row too large
		return fmt.Errorf("value too long for PostgreSQL's index: %w", err)
	}
	return err
}
