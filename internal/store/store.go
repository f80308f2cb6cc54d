// Package store is profan's run database. It owns all of profan's SQL: no
// other package imports database/sql or a driver.
//
// A run is one ingested profiler export. It is written through a RunWriter in
// one transaction, so that a run is in the database wholly or not at all,
// whatever happens to the process writing it, and several processes may
// ingest into one database at once. Each kernel record is one row whose raw
// metrics are one compact blob (see blob.go); the canonical metrics that the
// metrics package derives are rows of a narrow indexed table, which trend
// queries read.
//
// SQLite (github.com/mattn/go-sqlite3, cgo) is the embedded backend;
// PostgreSQL (github.com/jackc/pgx/v5 through database/sql) serves a
// database that many machines share. The schema lives in numbered,
// append-only migrations, one set per backend with the same numbers
// (migrations/ for SQLite, migrations_pg/ for PostgreSQL), applied by Open.
// Dialect specifics (DSN, placeholders, locking, error codes) are kept in
// sqlite.go and postgres.go; the queries are shared.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"github.com/profan-dev/profan/internal/store/blob"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrNotFound is returned when a run asked for by ID does not exist.
var ErrNotFound = errors.New("not found")

// ErrNoRuns is wrapped by OpenReadOnly's error on a database that holds no
// schema yet: nothing was ever ingested into it.
var ErrNoRuns = errors.New("no run stored yet")

// DuplicateError is returned by BeginRun when a run with the same digest is
// already stored: re-ingesting an export is a no-op.
type DuplicateError struct {
	ID int64 // the stored run; 0 when it could not be looked up
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("duplicate run: already stored as run %d", e.ID)
}

// EnvDB names the environment variable that gives the database (a file
// path or a postgres:// URL, as Open takes) when a command is given none;
// without it, commands use "profan.db" in the current directory.
const EnvDB = "PROFAN_DB"

// DB is an open run database. It is safe for concurrent use.
type DB struct {
	db    *sql.DB
	d     *dialect
	name  string // the database as messages name it (Display)
	keys  dictCache[blob.Key]
	texts dictCache[string]
	// pending are the migrations OpenDeferred left to the first run
	// written, which applies them in its own transaction; atomic: runs
	// begin and commit on several goroutines.
	pending atomic.Bool

	// Now returns the time recorded as a run's creation time. Tests replace
	// it to make outputs deterministic; it defaults to time.Now.
	Now func() time.Time
}

// Open opens the database dsn and applies the migrations it lacks. Several
// processes may open and migrate one database at once.
//
// A dsn starting with postgres:// or postgresql:// is a PostgreSQL
// connection URL (see isPostgres); the database and a role that may create
// tables in it must exist. Anything else is the path of a SQLite database
// file, created when it does not exist. A SQLite file that holds tables but
// no profan schema is refused before anything is written to it.
func Open(dsn string) (*DB, error) {
	return OpenContext(context.Background(), dsn)
}

// OpenContext is Open whose connection, checks and migrations stop when
// ctx is cancelled (Ctrl-C during a connection to an unreachable server).
func OpenContext(ctx context.Context, dsn string) (*DB, error) {
	db, err := open(ctx, dsn)
	return db, redactError(dsn, err)
}

// OpenDeferred is OpenContext for a command that writes runs (ingest): the
// migrations an existing database lacks are not applied on opening but
// by the first run written (BeginRun), in that run's own transaction, so
// that a run refused, failed or interrupted leaves the schema as it was
// too (an older profan sharing the database can still read it). A
// database with no schema yet is migrated on opening, as by OpenContext.
func OpenDeferred(ctx context.Context, dsn string) (*DB, error) {
	db, err := openDSN(ctx, dsn, nil, true)
	return db, redactError(dsn, err)
}

// dialectOf is the backend dsn names; an error for an in-memory SQLite
// database.
func dialectOf(dsn string) (*dialect, error) {
	if err := refuseMemory(dsn); err != nil {
		return nil, err
	}
	if IsPostgres(dsn) {
		return pgDialect, nil
	}
	if abs, err := filepath.Abs(dsn); err == nil && (strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")) {
		// /dev/stdout is a regular file when the output is redirected to
		// one: the database would be written into the command's output.
		return nil, fmt.Errorf("database %s: a device or a process's file, not a database file: give the path of a database file", dsn)
	}
	if st, err := os.Stat(dsn); err == nil && !st.Mode().IsRegular() {
		// /dev/stdout, a FIFO, a directory: SQLite cannot keep a database
		// there (nor its -wal and -shm beside it), and writing would
		// store nothing.
		return nil, fmt.Errorf("database %s: not a regular file (%s): give the path of a database file", dsn, fileKind(st.Mode()))
	}
	return sqliteDialect, nil
}

// fileKind names what a file that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

func open(ctx context.Context, dsn string) (*DB, error) { return openDSN(ctx, dsn, nil, false) }

// openDSN is open with the driver's DSN made by mk (nil: the dialect's);
// deferred leaves the migrations an existing schema lacks to BeginRun.
func openDSN(ctx context.Context, dsn string, mk func(string) string, deferred bool) (*DB, error) {
	d, err := dialectOf(dsn)
	if err != nil {
		return nil, err
	}
	if !IsPostgres(dsn) {
		if err := refuseForeign(dsn); err != nil {
			return nil, err
		}
	}
	if mk == nil {
		mk = d.dsn
	}
	sdb, err := sql.Open(d.driver, mk(dsn))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", d.display(dsn), err)
	}
	db := &DB{db: sdb, d: d, name: d.display(dsn), Now: time.Now}
	if deferred {
		behind, err := db.behind(ctx)
		if err != nil {
			sdb.Close()
			return nil, fmt.Errorf("opening %s: %w", d.display(dsn), err)
		}
		if behind {
			db.pending.Store(true)
			return db, nil
		}
	}
	// Processes creating one SQLite file at once can meet SQLITE_BUSY
	// that the busy timeout does not wait out (switching a new file to
	// WAL, a lock upgrade SQLite refuses at once): such a migration is
	// tried again, each transaction being whole or absent, for as long as
	// the busy timeout.
	start := time.Now()
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		err := db.migrate(ctx)
		if err == nil {
			break
		}
		if !isBusy(err) || time.Since(start) > 10*time.Second || ctx.Err() != nil {
			sdb.Close()
			return nil, fmt.Errorf("opening %s: %w", d.display(dsn), err)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
	}
	return db, nil
}

// refuseForeign reads an existing SQLite file, read-only, and refuses it
// when it holds tables and no schema_migrations: another program's
// database, which migrating (or merely switching it to WAL) would change.
func refuseForeign(path string) error {
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		return nil // created (or filled) by the migrations
	}
	sdb, err := sql.Open(sqliteDialect.driver, sqliteReadOnlyDSN(path, false))
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer sdb.Close()
	return checkProfanSchema(context.Background(), sdb, path)
}

// checkProfanSchema refuses a SQLite database whose tables are another
// program's: it names them. An empty database passes.
func checkProfanSchema(ctx context.Context, sdb *sql.DB, path string) error {
	rows, err := sdb.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, sqliteOpenError(err))
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return fmt.Errorf("opening %s: %w", path, err)
		}
		if n == "schema_migrations" {
			return nil
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	if len(names) == 0 {
		return nil
	}
	if len(names) > 5 {
		names = append(names[:5], "...")
	}
	return fmt.Errorf("opening %s: not a profan run database (it holds the tables %s and no schema_migrations): refusing to read or write it", path, strings.Join(names, ", "))
}

// refuseMemory refuses an in-memory SQLite database: every command is its
// own process, so what it stored would be gone when it exits.
func refuseMemory(dsn string) error {
	if IsPostgres(dsn) {
		return nil
	}
	if dsn == ":memory:" || strings.HasPrefix(dsn, "file::memory:") || strings.Contains(dsn, "mode=memory") {
		return fmt.Errorf("database %q is in memory and would keep nothing after this command: give a file path or a postgres:// URL", dsn)
	}
	return nil
}

// OpenReadOnly opens an existing database for the commands that only read
// (runs, trend, diff, gate, report): no migration is attempted and nothing
// is written, so a database in a read-only directory or file works. A
// schema newer than this profan knows, an older one (which `profan
// migrate` updates), an empty database and a file that is not a profan
// database are refused, each with what to do.
func OpenReadOnly(dsn string) (*DB, error) {
	return OpenReadOnlyContext(context.Background(), dsn)
}

// OpenReadOnlyContext is OpenReadOnly whose connection and checks stop
// when ctx is cancelled.
func OpenReadOnlyContext(ctx context.Context, dsn string) (*DB, error) {
	db, err := openReadOnly(ctx, dsn)
	return db, redactError(dsn, err)
}

func openReadOnly(ctx context.Context, dsn string) (*DB, error) {
	d, err := dialectOf(dsn)
	if err != nil {
		return nil, err
	}
	sdb, err := openSQLReadOnly(d, dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", d.display(dsn), err)
	}
	fail := func(err error) (*DB, error) {
		sdb.Close()
		return nil, err
	}
	if !IsPostgres(dsn) {
		if err := checkProfanSchema(ctx, sdb, dsn); err != nil {
			if !writable(dsn) && hasWAL(dsn) {
				return fail(fmt.Errorf("%w; the database has a write-ahead log (%s-wal) that SQLite cannot read without write access to its directory: give write access, or checkpoint it where it was written", err, dsn))
			}
			return fail(err)
		}
	}
	db := &DB{db: sdb, d: d, name: d.display(dsn), Now: time.Now}
	ms, err := d.migrations()
	if err != nil {
		return fail(err)
	}
	applied, err := db.appliedMigrations(ctx, sdb)
	if err != nil {
		if d.noTable(err) {
			return fail(fmt.Errorf("opening %s: the database is empty, %w (ingest a run first)", d.display(dsn), ErrNoRuns))
		}
		return fail(fmt.Errorf("opening %s: %w", d.display(dsn), d.formatError(err)))
	}
	last := ms[len(ms)-1].version
	have := 0
	for v := range applied {
		have = max(have, v)
		if v > last {
			return fail(fmt.Errorf("opening %s: database has schema version %d, newer than this profan knows (%d)", d.display(dsn), v, last))
		}
	}
	if !applied[last] && db.noRuns(ctx) {
		// A first ingest or migrate killed while it created the
		// database: no older profan made it.
		return fail(fmt.Errorf("opening %s: the database is empty, no run stored yet (schema version %d of %d: its creation stopped, or an older profan made it): ingest a run, or run `profan migrate --db %s`, to complete it", d.display(dsn), have, last, d.display(dsn)))
	}
	if !applied[last] {
		return fail(fmt.Errorf("opening %s: the database has schema version %d, this profan reads version %d: run `profan migrate --db %s` (read commands never migrate: older profans sharing the database would then refuse it)", d.display(dsn), have, last, d.display(dsn)))
	}
	return db, nil
}

// openSQLReadOnly opens the database dsn names without writing to it: a
// PostgreSQL one as it is, a SQLite file read-only (immutable where
// nothing can change it).
func openSQLReadOnly(d *dialect, dsn string) (*sql.DB, error) {
	if IsPostgres(dsn) {
		return sql.Open(d.driver, d.dsn(dsn))
	}
	return sql.Open(d.driver, sqliteReadOnlyDSN(dsn, immutable(dsn)))
}

// noRuns reports a database whose runs table is missing or empty.
func (db *DB) noRuns(ctx context.Context) bool {
	var n int
	err := db.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM runs LIMIT 1) AS x`).Scan(&n)
	if err != nil {
		return db.d.noTable(err)
	}
	return n == 0
}

// immutable reports whether a read-only open of path may be immutable:
// when neither the file nor its directory can be written (SQLite then
// needs no lock or shared-memory file beside it) and no write-ahead log
// holds commits the file lacks, which an immutable open would not see.
func immutable(path string) bool {
	return !writable(path) && !hasWAL(path)
}

// hasWAL reports a non-empty write-ahead log beside the database file.
func hasWAL(path string) bool {
	st, err := os.Stat(path + "-wal")
	return err == nil && st.Size() > 0
}

// sqliteReadOnlyDSN opens path read-only; immutable when neither the file
// nor its directory can be written (SQLite then needs no lock or WAL index
// file beside it).
func sqliteReadOnlyDSN(path string, immutable bool) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	dsn := "file:" + r.Replace(path) + "?mode=ro&_busy_timeout=10000&_foreign_keys=on"
	if immutable {
		dsn += "&immutable=1"
	}
	return dsn
}

// writable reports whether the database file and its directory can be
// written by this process (the WAL journal lives beside the file).
func writable(path string) bool {
	if syscall.Access(path, 2) != nil {
		return false
	}
	return syscall.Access(filepath.Dir(path), 2) == nil
}

// Display returns dsn as messages show it: a PostgreSQL URL without its
// secrets, a path as it is.
func Display(dsn string) string {
	if IsPostgres(dsn) {
		return redactURL(dsn)
	}
	return dsn
}

// NotCreated reports whether dsn names a SQLite file that does not exist yet,
// which Open would create: a caller with input still to check checks it
// first, so that input it refuses leaves no empty database behind.
func NotCreated(dsn string) bool {
	if IsPostgres(dsn) {
		return false
	}
	_, err := os.Stat(dsn)
	return errors.Is(err, fs.ErrNotExist)
}

// Behind reports whether the database at dsn exists and lacks a migration
// this profan applies when it opens a database to write: an ingest then
// reads its input whole before it opens the database, so that an input
// refused (a bad row at its end) leaves the database as it was, not
// migrated (which older profans sharing it would then refuse). False for
// a database not created yet, a current one, or one that cannot be read
// (opening it says why). A file with no schema yet (zero bytes) is
// behind: its first open writes the schema.
func Behind(ctx context.Context, dsn string) bool {
	if NotCreated(dsn) {
		return false
	}
	d, err := dialectOf(dsn)
	if err != nil {
		return false
	}
	sdb, err := openSQLReadOnly(d, dsn)
	if err != nil {
		return false
	}
	defer sdb.Close()
	ms, err := d.migrations()
	if err != nil {
		return false
	}
	applied, err := querySet[int](ctx, sdb, `SELECT version FROM schema_migrations`)
	if err != nil {
		return d.noTable(err)
	}
	return !applied[ms[len(ms)-1].version]
}

// SchemaVersion returns the newest migration applied to the database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	applied, err := db.appliedMigrations(ctx, db.db)
	if err != nil {
		return 0, err
	}
	v := 0
	for x := range applied {
		v = max(v, x)
	}
	return v, nil
}

// Close closes the database.
func (db *DB) Close() error { return db.db.Close() }

//go:embed migrations/*.sql migrations_pg/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the dialect's embedded migrations in version order.
// Files are named NNNN_what.sql; versions must be unique.
func (d *dialect) migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, d.migrationDir+"/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_'", base)
		}
		b, err := migrationFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, strings.TrimSuffix(base, ".sql"), string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share a version", ms[i-1].name, ms[i].name)
		}
	}
	return ms, nil
}

// migrate applies the migrations not yet recorded in schema_migrations,
// each in its own write transaction. The write lock serializes processes
// opening the database at once: each re-reads the applied versions inside
// its transaction, so a migration runs exactly once. (PostgreSQL has no
// such lock: the dialect's migrationLock serves instead.)
// behind reports whether the database has a schema (schema_migrations)
// that lacks a migration of this profan's; an error for one newer than
// this profan knows.
func (db *DB) behind(ctx context.Context) (bool, error) {
	ms, err := db.d.migrations()
	if err != nil {
		return false, fmt.Errorf("migrate: %w", err)
	}
	applied, err := db.appliedMigrations(ctx, db.db)
	if err != nil || len(applied) == 0 {
		return false, nil // no schema yet (or unreadable): migrated on opening, which says why
	}
	last := ms[len(ms)-1].version
	for v := range applied {
		if v > last {
			return false, fmt.Errorf("migrate: database has schema version %d, newer than this profan knows (%d)", v, last)
		}
	}
	return !applied[last], nil
}

// MigratePending applies now the migrations OpenDeferred left to the
// first run, for a command that reads the database with this profan's
// schema without writing a run (an export stored already, whose run is
// read and labelled).
func (db *DB) MigratePending(ctx context.Context) error {
	if !db.pending.Load() {
		return nil
	}
	if err := db.migrate(ctx); err != nil {
		return fmt.Errorf("database %s: %w", db.name, err)
	}
	db.pending.Store(false)
	return nil
}

// migrateIn applies, in tx (a run's), the migrations OpenDeferred left
// pending: committed with the run, or rolled back with it.
func (db *DB) migrateIn(ctx context.Context, tx *sql.Tx) error {
	ms, err := db.d.migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if db.d.migrationLock != "" {
		if _, err := tx.ExecContext(ctx, db.d.migrationLock); err != nil {
			return err
		}
	}
	applied, err := db.appliedMigrations(ctx, tx)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migrate %s: %w", m.name, db.d.formatError(err))
		}
		if _, err := tx.ExecContext(ctx, db.d.rebind(`INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`),
			m.version, m.name, formatTime(db.Now())); err != nil {
			return fmt.Errorf("migrate %s: %w", m.name, db.d.formatError(err))
		}
	}
	return nil
}

func (db *DB) migrate(ctx context.Context) error {
	ms, err := db.d.migrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// Skip the write lock entirely when the schema is current: the common
	// case for every command but the first.
	if applied, err := db.appliedMigrations(ctx, db.db); err == nil && len(applied) > 0 {
		last := ms[len(ms)-1].version
		for v := range applied {
			if v > last {
				return fmt.Errorf("migrate: database has schema version %d, newer than this profan knows (%d)", v, last)
			}
		}
		if applied[last] {
			return nil
		}
	}
	for _, m := range ms {
		if err := db.applyMigration(ctx, m); err != nil {
			return fmt.Errorf("migrate %s: %w", m.name, db.d.formatError(err))
		}
	}
	return nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// appliedMigrations returns the versions recorded in schema_migrations; an
// error when the table does not exist yet.
func (db *DB) appliedMigrations(ctx context.Context, q querier) (map[int]bool, error) {
	return querySet[int](ctx, q, `SELECT version FROM schema_migrations`)
}

// querySet returns the values of the one column query selects, as a set.
func querySet[T comparable](ctx context.Context, q querier, query string, args ...any) (map[T]bool, error) {
	return collect(ctx, q, query, args, func(rows *sql.Rows, set map[T]bool) error {
		var v T
		err := rows.Scan(&v)
		set[v] = true
		return err
	})
}

// queryMap returns the two columns query selects as a map from the first
// to the second.
func queryMap[K comparable, V any](ctx context.Context, q querier, query string, args ...any) (map[K]V, error) {
	return collect(ctx, q, query, args, func(rows *sql.Rows, m map[K]V) error {
		var k K
		var v V
		err := rows.Scan(&k, &v)
		m[k] = v
		return err
	})
}

// collect returns the map add fills from each row query selects (nil on
// an error).
func collect[K comparable, V any](ctx context.Context, q querier, query string, args []any, add func(*sql.Rows, map[K]V) error) (map[K]V, error) {
	m := map[K]V{}
	if err := eachRow(ctx, q, query, args, func(rows *sql.Rows) error { return add(rows, m) }); err != nil {
		return nil, err
	}
	return m, nil
}

// eachRow calls row with each row query selects.
func eachRow(ctx context.Context, q querier, query string, args []any, row func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (db *DB) applyMigration(ctx context.Context, m migration) error {
	tx, err := db.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if db.d.migrationLock != "" {
		if _, err := tx.ExecContext(ctx, db.d.migrationLock); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	applied TEXT NOT NULL
)`); err != nil {
		return err
	}
	applied, err := db.appliedMigrations(ctx, tx)
	if err != nil {
		return err
	}
	if applied[m.version] {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, db.d.rebind(`INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`),
		m.version, m.name, formatTime(db.Now())); err != nil {
		return err
	}
	return tx.Commit()
}

// dictCache holds the rows of a dictionary table (raw_metric_keys,
// text_templates) read so far. The rows never change once committed, and a
// blob is committed with the rows it refers to, so a cache refreshed on a
// miss is always right.
type dictCache[V any] struct {
	mu   sync.Mutex
	byID map[uint64]V
	max  uint64
}

// get returns row id, reading the rows after the last one read on a miss:
// query selects id and the row's columns WHERE id > ?, scan reads them.
func (c *dictCache[V]) get(ctx context.Context, db *DB, id uint64, query string, scan func(*sql.Rows) (uint64, V, error)) (V, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.byID[id]; ok || id <= c.max {
		return v, ok, nil
	}
	var zero V
	rows, err := db.db.QueryContext(ctx, db.d.rebind(query), c.max)
	if err != nil {
		return zero, false, err
	}
	defer rows.Close()
	if c.byID == nil {
		c.byID = map[uint64]V{}
	}
	for rows.Next() {
		i, v, err := scan(rows)
		if err != nil {
			return zero, false, err
		}
		c.byID[i] = v
		c.max = max(c.max, i)
	}
	if err := rows.Err(); err != nil {
		return zero, false, err
	}
	v, ok := c.byID[id]
	return v, ok, nil
}

// metricKey returns the raw_metric_keys row id.
func (db *DB) metricKey(ctx context.Context, id uint64) (blob.Key, bool, error) {
	return db.keys.get(ctx, db, id, `SELECT id, name, section, unit, raw_unit FROM raw_metric_keys WHERE id > ?`,
		func(rows *sql.Rows) (uint64, blob.Key, error) {
			var i uint64
			var k blob.Key
			err := rows.Scan(&i, &k.Name, &k.Section, &k.Unit, &k.RawUnit)
			term(&k.Name, &k.Section, &k.Unit, &k.RawUnit)
			return i, k, err
		})
}

// textTemplate returns the text_templates row id.
func (db *DB) textTemplate(ctx context.Context, id uint64) (string, bool, error) {
	return db.texts.get(ctx, db, id, `SELECT id, text FROM text_templates WHERE id > ?`,
		func(rows *sql.Rows) (uint64, string, error) {
			var i uint64
			var t string
			err := rows.Scan(&i, &t)
			return i, t, err
		})
}

// timeLayout is fixed-width so that stored times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad stored time %q: %w", s, err)
	}
	return t, nil
}
