package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyFile copies src to dst when src exists.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyWithWAL checks that a database whose newest commits are in
// its write-ahead log (as a killed writer, or a copy taken while a writer
// held it open, leaves it) is read with those commits: never opened
// immutable, which would not see them.
func TestReadOnlyWithWAL(t *testing.T) {
	if onPostgres(t) {
		t.Skip("SQLite only")
	}
	db, path := mustOpen(t)
	ingest(t, db, testInfo("sha256:one", nil), nil)
	ingest(t, db, testInfo("sha256:two", nil), nil)
	// Copy the files while the writer holds the database open: the runs
	// are committed in the log, not yet in the file.
	dir := t.TempDir()
	cp := filepath.Join(dir, "copy.db")
	for _, ext := range []string{"", "-wal", "-shm"} {
		copyFile(t, path+ext, cp+ext)
	}
	if !hasWAL(cp) {
		t.Skip("the log was checkpointed before the copy")
	}
	if immutable(cp) {
		t.Errorf("immutable(%s) with a write-ahead log: the log's commits would be lost", cp)
	}
	ro, err := OpenReadOnly(cp)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rs, err := ro.Runs(context.Background(), RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Errorf("read %d runs of the copy, want 2", len(rs))
	}
}

// TestReadCommandsNeverMigrate checks that an older schema is refused by
// OpenReadOnly with what to run, unchanged, and that Open (profan
// migrate, ingest) updates it.
func TestReadCommandsNeverMigrate(t *testing.T) {
	if onPostgres(t) {
		t.Skip("SQLite only: the PostgreSQL path is the same code")
	}
	path := filepath.Join(t.TempDir(), "old.db")
	sdb, err := sql.Open(sqliteDialect.driver, sqliteDialect.dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	old := &DB{db: sdb, d: sqliteDialect, Now: func() time.Time { return testNow }}
	ms, err := sqliteDialect.migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:len(ms)-1] {
		if err := old.applyMigration(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	sdb.Close()
	before, _ := os.ReadFile(path)
	_, err = OpenReadOnly(path)
	if err == nil || !strings.Contains(err.Error(), "run `profan migrate --db "+path+"`") {
		t.Fatalf("OpenReadOnly of an older schema: %v; want a refusal saying to run profan migrate", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Errorf("OpenReadOnly changed the database")
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := db.SchemaVersion(context.Background()); err != nil || v != ms[len(ms)-1].version {
		t.Errorf("after Open: schema version %d, %v; want %d", v, err, ms[len(ms)-1].version)
	}
	db.Close()
	if db, err := OpenReadOnly(path); err != nil {
		t.Errorf("OpenReadOnly after migrating: %v", err)
	} else {
		db.Close()
	}
}

// TestForeignAndEmptyDatabases checks that another program's SQLite
// database is refused by every open, byte for byte unchanged, and that an
// empty file (a writer killed as it created it) says so when read and is
// made a database by a write.
func TestForeignAndEmptyDatabases(t *testing.T) {
	if onPostgres(t) {
		t.Skip("SQLite only")
	}
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign.db")
	fdb, err := sql.Open("sqlite3", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fdb.Exec(`CREATE TABLE accounts (id int); INSERT INTO accounts VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	fdb.Close()
	before, _ := os.ReadFile(foreign)
	for name, open := range map[string]func(string) (*DB, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		if _, err := open(foreign); err == nil || !strings.Contains(err.Error(), "not a profan run database (it holds the tables accounts") {
			t.Errorf("%s of a foreign database: %v", name, err)
		}
		if after, _ := os.ReadFile(foreign); !bytes.Equal(before, after) {
			t.Errorf("%s changed a foreign database", name)
		}
		if _, err := os.Stat(foreign + "-wal"); err == nil {
			t.Errorf("%s left a write-ahead log beside a foreign database", name)
		}
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	if _, err := OpenReadOnly(empty); err == nil || !strings.Contains(err.Error(), "the database is empty") {
		t.Errorf("OpenReadOnly of an empty file: %v", err)
	}
	db, err := Open(empty)
	if err != nil {
		t.Fatalf("Open of an empty file: %v", err)
	}
	db.Close()
}

func TestRedact(t *testing.T) {
	for _, tt := range []struct{ dsn, secret string }{
		{"postgres://u:s3cret@127.0.0.1:1/db", "s3cret"},
		{"postgres://u@127.0.0.1:1/db?password=hunter2&sslmode=disable", "hunter2"},
		{"postgresql://127.0.0.1:1/db?sslmode=disable&password=p%40ss", "p@ss"},
		{"postgres://u@127.0.0.1:1/db?sslpassword=keypass", "keypass"},
		{"postgres://u:pa ss@127.0.0.1:1/db?password=x y", "pa ss"},
	} {
		t.Run(tt.dsn, func(t *testing.T) {
			if d := Display(tt.dsn); strings.Contains(d, tt.secret) || strings.Contains(d, strings.ReplaceAll(tt.secret, "@", "%40")) {
				t.Errorf("Display(%q) = %q: holds the secret", tt.dsn, d)
			}
			_, err := Open(tt.dsn)
			if err == nil {
				t.Errorf("Open(%q) succeeded", tt.dsn)
				return
			}
			if strings.Contains(err.Error(), tt.secret) {
				t.Errorf("Open(%q): %q holds the secret", tt.dsn, err)
			}
		})
	}
}

// TestInterruptedCreation checks that a database whose creation stopped
// after its first migrations (a killed first ingest), holding no run, is
// said to be empty, not an older profan's schema to migrate.
func TestInterruptedCreation(t *testing.T) {
	if onPostgres(t) {
		t.Skip("SQLite only: the PostgreSQL path is the same code")
	}
	path := filepath.Join(t.TempDir(), "half.db")
	sdb, err := sql.Open(sqliteDialect.driver, sqliteDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	// The first migration, as applyMigration commits it.
	ms, err := sqliteDialect.migrations()
	if err != nil {
		t.Fatal(err)
	}
	half := &DB{db: sdb, d: sqliteDialect, Now: time.Now}
	if err := half.applyMigration(context.Background(), ms[0]); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	_, err = OpenReadOnly(path)
	if err == nil || !strings.Contains(err.Error(), "the database is empty, no run stored yet (schema version 1 of") || !strings.Contains(err.Error(), "its creation stopped") {
		t.Errorf("got %v", err)
	}
	// Ingesting completes it.
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = OpenReadOnly(path); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// TestRedactMasksFieldsOnly: the password field of a connection string is
// masked, and nothing else of the message: masking each occurrence of the
// password's text ("p" in "opening") rewrote it and told the password.
func TestRedactMasksFieldsOnly(t *testing.T) {
	for _, tt := range []struct{ dsn, msg, want string }{
		{"postgres://u:p@127.0.0.1:1/db", "opening postgres://u:xxxxx@127.0.0.1:1/db: failed to connect to `user=u database=db`: dial tcp: connect: connection refused (pp)",
			"opening postgres://u:xxxxx@127.0.0.1:1/db: failed to connect to `user=u database=db`: dial tcp: connect: connection refused (pp)"},
		{"postgres://u:p@h/db", `parse "postgres://u:p@h/db": bad`, `parse "postgres://u:xxxxx@h/db": bad`},
		{"POSTGRES://u:s3cret@h/db", `parse "postgres://u:s3cret@h/db": bad`, `parse "postgres://u:xxxxx@h/db": bad`},
		{"postgres://u@h/db?sslmode=disable&password=e&x=1", `cannot use postgres://u@h/db?sslmode=disable&password=e&x=1 (e)`, `cannot use postgres://u@h/db?password=xxxxx&sslmode=disable&x=1 (e)`},
		{"host=h user=u password=a dbname=d", "cannot parse `host=h user=u password=a dbname=d`: a", "cannot parse `host=h user=u password=xxxxx dbname=d`: a"},
		{"host=h password='a b' dbname=d", "failed: password='a b' dbname=d: a", "failed: password=xxxxx dbname=d: a"},
	} {
		got := redactError(tt.dsn, errors.New(tt.msg)).Error()
		if got != tt.want {
			t.Errorf("%s: %q\ngot  %q\nwant %q", tt.dsn, tt.msg, got, tt.want)
		}
	}
	for _, pw := range []string{"p", "o", "e", "n", "1", "xxxxx", "127"} {
		dsn := "postgres://u:" + pw + "@127.0.0.1:1/db?sslmode=disable&connect_timeout=2"
		_, err := Open(dsn)
		if err == nil {
			t.Fatalf("Open(%q) succeeded", dsn)
		}
		want := strings.ReplaceAll(err.Error(), "xxxxx", "")
		if !strings.Contains(err.Error(), "u:xxxxx@127.0.0.1:1/db") || strings.Contains(want, ":"+pw+"@") {
			t.Errorf("Open(%q): %q", dsn, err)
		}
		if !strings.Contains(err.Error(), "opening postgres://") || !strings.Contains(err.Error(), "connect") {
			t.Errorf("Open(%q): message rewritten: %q", dsn, err)
		}
	}
}

// TestOpenStopsWithItsContext: a server that takes the connection and
// never answers holds an open until its context is cancelled (Ctrl-C),
// not until the connection times out.
func TestOpenStopsWithItsContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer l.Close() // never accepted: the handshake completes, no answer comes
	dsn := "postgres://u@" + l.Addr().String() + "/db?sslmode=disable&connect_timeout=60"
	for name, open := range map[string]func(context.Context, string) (*DB, error){"OpenContext": OpenContext, "OpenReadOnlyContext": OpenReadOnlyContext} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		db, err := open(ctx, dsn)
		cancel()
		if err == nil {
			db.Close()
			t.Fatalf("%s: opened a server that never answers", name)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: returned %v after its context ended: %v", name, took, err)
		}
	}
}
