package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoveUnpublished: a fresh database neither published nor discarded
// when the process must exit (a command stuck after a signal) leaves no
// temporary file and no database at its path; one published stays.
func TestRemoveUnpublished(t *testing.T) {
	dir := t.TempDir()
	kept, err := OpenFresh(filepath.Join(dir, "kept.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := kept.Publish(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFresh(filepath.Join(dir, "new.db")); err != nil {
		t.Fatal(err)
	}
	RemoveUnpublished()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].Name() != "kept.db" {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("left %v, want only kept.db", names)
	}
}

// TestFreshPublished: a fresh database, written with its journal in
// memory, is a write-ahead log database once published, as any other,
// holds what was committed and not what was rolled back, and opens.
func TestFreshPublished(t *testing.T) {
	ctx := context.Background()
	if d := freshDSN("x"); !strings.Contains(d, "_journal_mode=MEMORY") || !strings.Contains(d, "_synchronous=OFF") {
		t.Errorf("fresh DSN %s: want its journal in memory and no fsync (sqliteDSN changed?)", d)
	}
	path := filepath.Join(t.TempDir(), "runs.db")
	f, err := OpenFresh(path)
	if err != nil {
		t.Fatal(err)
	}
	ingest(t, f.DB, testInfo("sha256:aa", nil), testKernels())
	w, err := f.DB.BeginRun(ctx, testInfo("sha256:bb", nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range testKernels() {
		if err := w.AddKernel(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Rollback()
	if err := f.Publish(); err != nil {
		t.Fatal(err)
	}
	db, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q, %v; want wal", mode, err)
	}
	rs, err := db.Runs(ctx, RunFilter{})
	if err != nil || len(rs) != 1 || rs[0].Digest != "sha256:aa" {
		t.Errorf("runs %+v, %v; want the committed one only", rs, err)
	}
}
