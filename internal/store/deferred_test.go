package store

import (
	"context"
	"database/sql"
	"testing"

	"github.com/profan-dev/profan/internal/store/storetest"
)

// TestDeferredMigrations: a database of an older schema (the previous
// release's) opened to write runs keeps its schema until a run is
// committed, which applies the migrations in its own transaction: a run
// rolled back (an export refused, a signal) leaves the schema as it was,
// where it was once migrated on opening, before the export was read.
func TestDeferredMigrations(t *testing.T) {
	ctx := context.Background()
	path := storetest.Load(t, "../cli/testdata/prev-release.sql")
	version := func() int {
		t.Helper()
		db, err := OpenReadOnlyContext(ctx, path)
		if err == nil {
			db.Close()
			return -1 // current
		}
		raw, err := openRaw(path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		v, err := raw.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := version()
	if before < 0 {
		t.Fatal("the previous release's database is current: the test checks nothing")
	}
	db, err := OpenDeferred(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := db.BeginRun(ctx, testInfo("sha256:refused", nil))
	if err != nil {
		t.Fatal(err)
	}
	w.Rollback()
	db.Close()
	if v := version(); v != before {
		t.Fatalf("a run rolled back left schema version %d, want %d", v, before)
	}
	db, err = OpenDeferred(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ingest(t, db, testInfo("sha256:stored", nil), nil)
	db.Close()
	if v := version(); v != -1 {
		t.Fatalf("a run committed left schema version %d, want the current one", v)
	}
}

// openRaw opens path without migrating or checking it.
func openRaw(path string) (*DB, error) {
	sdb, err := sql.Open(sqliteDialect.driver, sqliteReadOnlyDSN(path, false))
	if err != nil {
		return nil, err
	}
	return &DB{db: sdb, d: sqliteDialect, name: path}, nil
}
