package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// sqliteDriver is go-sqlite3 with temp_store = MEMORY and no automatic
// checkpoint on every connection.
// A multi-row INSERT keeps a statement journal of the pages it touches (to
// undo a failing statement inside its transaction); with the default
// temp_store it goes to a temporary file once past 64 KiB, and storing a
// 100 MB ncu page made 113,000 pwrite calls to it. In memory it is a copy,
// freed at the end of each statement.
const sqliteDriver = "sqlite3+profan"

func init() {
	sql.Register(sqliteDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		_, err := c.Exec("PRAGMA temp_store = MEMORY", nil)
		if err == nil {
			// No checkpoint inside a commit: a run's commit returns at
			// once, and its checkpoint follows, which a signal stops
			// (DB.checkpoint).
			_, err = c.Exec("PRAGMA wal_autocheckpoint = 0", nil)
		}
		return err
	}})
}

// dialect holds what differs between SQL backends. Queries in this package
// are written with ? placeholders and standard SQL (INSERT … RETURNING,
// ON CONFLICT); rebind adapts the placeholders. Schemas differ in types and
// so have a migration set per backend, numbered alike.
type dialect struct {
	name   string // "sqlite", "postgres"
	driver string
	dsn    func(path string) string
	// display returns the DSN as errors may show it (no password).
	display func(dsn string) string
	// rebind rewrites ? placeholders into the backend's form.
	rebind func(query string) string
	// maxParams bounds the placeholders of one statement.
	maxParams int
	// formatError maps backend errors to the package's errors.
	formatError func(error) error
	// noTable reports the backend's answer that a table does not exist:
	// a database that answered and holds no profan schema, not one that
	// could not be reached, opened or logged into.
	noTable func(error) bool
	// migrationDir is the directory of the embedded migrations.
	migrationDir string
	// migrationLock, when not empty, is run first in each migration's
	// transaction to serialize processes migrating at once. SQLite needs
	// none: BEGIN IMMEDIATE takes the write lock.
	migrationLock string
	// dictLock, when not empty, is run in a run's transaction before it
	// adds its first row to a dictionary table (kernel_names,
	// metric_names, raw_metric_keys) and is held to the end of the
	// transaction; see RunWriter.dictID. SQLite needs none: a run's
	// transaction holds the write lock from BEGIN IMMEDIATE on.
	dictLock string
	// valuesByName: kernel_values has a name_id column, the kernels.name_id
	// of its kernel_id, and its key is (metric_id, name_id, kernel_id). A
	// trend then reads one range of the key per kernel name, merged with
	// the kernels of that name in ID order, instead of looking up each
	// kernel's value: on PostgreSQL, whose lookups cost more than SQLite's,
	// that is several times faster.
	valuesByName bool
	// queryInsert: the pipe's INSERTs, which return no rows, run through
	// Query (RunWriter.pipeExec).
	queryInsert bool
	// lastInsertID: a kernels row's ID is the driver's LastInsertId, not
	// RETURNING's.
	lastInsertID bool
}

var sqliteDialect = &dialect{
	name:         "sqlite",
	driver:       sqliteDriver,
	dsn:          sqliteDSN,
	display:      func(path string) string { return path },
	rebind:       func(q string) string { return q },
	maxParams:    32766,
	formatError:  sqliteError,
	noTable:      sqliteNoTable,
	migrationDir: "migrations",
	queryInsert:  true,
	lastInsertID: true,
}

// sqliteDSN returns the DSN for the database file at path. The settings are
// per connection, so they go in the DSN rather than in PRAGMA statements:
//
//   - _busy_timeout=10000: wait up to 10 s for another process's write
//     transaction instead of failing at once with "database is locked";
//   - _journal_mode=WAL: readers do not block the writer and the writer does
//     not block readers; a killed writer leaves its uncommitted frames,
//     which the next opener ignores;
//   - _synchronous=NORMAL: in WAL mode, commits do not wait for fsync; the
//     WAL is synced at checkpoints. A killed process loses nothing it
//     committed and never corrupts the database; a power loss may roll back
//     the last commits, leaving each run wholly present or absent;
//   - _foreign_keys=on: enforce REFERENCES and ON DELETE CASCADE;
//   - _txlock=immediate: every transaction begins with BEGIN IMMEDIATE and
//     takes the write lock at once, so two writers serialize at BEGIN (where
//     the busy timeout applies) instead of deadlocking on a lock upgrade.
//     The package therefore opens transactions for writes only.
//
// The path is given as a file: URI so that it may hold '?' or '#'.
func sqliteDSN(path string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + r.Replace(path) + "?_busy_timeout=10000&_journal_mode=WAL&_synchronous=NORMAL&_foreign_keys=on&_txlock=immediate"
}

// sqliteError maps SQLite errors: a UNIQUE violation on runs.digest becomes
// a *DuplicateError (its ID filled in by the caller), a busy database says
// so plainly. Other errors pass through.
func sqliteError(err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch {
	case se.ExtendedCode == sqlite3.ErrConstraintUnique && strings.Contains(se.Error(), "runs.digest"):
		return &DuplicateError{}
	case se.Code == sqlite3.ErrBusy:
		return fmt.Errorf("database is locked by another process for longer than the busy timeout: %w", err)
	}
	return err
}

// sqliteOpenError says why a SQLite file could not be read: only a file
// SQLite finds no database in is "not a SQLite database"; a read-only or
// unreadable file, a full disk and an I/O error are said as such.
func sqliteOpenError(err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrNotADB:
		return fmt.Errorf("not a SQLite database profan can read (%v)", err)
	case sqlite3.ErrCorrupt:
		return fmt.Errorf("the database is corrupt (%v)", err)
	case sqlite3.ErrFull:
		return fmt.Errorf("the disk is full (%v)", err)
	case sqlite3.ErrReadonly:
		return fmt.Errorf("the database is read-only here (%v): give write access to it and its directory, or use a command that only reads", err)
	case sqlite3.ErrPerm, sqlite3.ErrAuth, sqlite3.ErrCantOpen:
		return fmt.Errorf("cannot open the database (%v): check that it and its directory may be read and written", err)
	case sqlite3.ErrIoErr:
		return fmt.Errorf("I/O error reading the database (%v): a full disk, a removed disk or a network file system?", err)
	}
	return err
}

// sqliteNoTable reports SQLite's "no such table" (SQLITE_ERROR from the
// statement's preparation), which only a database it could read gives.
func sqliteNoTable(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrError && strings.HasPrefix(se.Error(), "no such table")
}

// isBusy reports SQLite's "database is locked" (SQLITE_BUSY, SQLITE_LOCKED).
func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}
