package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCommitThenCheckpoint: a run's commit writes no checkpoint (SQLite's
// automatic one is off), tells Committed its ID before it returns, and
// the checkpoint after it stops on its context. An ingest of a 490 MB ncu
// page interrupted as SQLite checkpointed inside the commit ended by the
// grace, saying nothing was stored of a run that was (Main's endStuck
// says what Committed was told).
func TestCommitThenCheckpoint(t *testing.T) {
	if onPostgres(t) {
		t.Skip("SQLite's write-ahead log")
	}
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var auto int
	if err := db.db.QueryRow("PRAGMA wal_autocheckpoint").Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("wal_autocheckpoint %d (%v), want 0: a commit would checkpoint", auto, err)
	}
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	// A signal as the commit ends: the run stays, said, and is not
	// checkpointed.
	ctx, cancel := context.WithCancel(context.Background())
	var told int64
	info := testInfo("sha256:signalled", nil)
	info.Committed = func(id int64) { told = id; cancel() }
	before := size()
	w, err := db.BeginRun(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range testKernels() {
		if err := w.AddKernel(r); err != nil {
			t.Fatal(err)
		}
	}
	id, err := w.Commit()
	if err != nil || id == 0 || told != id {
		t.Fatalf("commit: run %d, %v; Committed told %d", id, err, told)
	}
	if _, err := db.Run(context.Background(), id); err != nil {
		t.Fatalf("the run committed is not read: %v", err)
	}
	if size() != before {
		t.Errorf("the database file changed from %d to %d bytes: checkpointed after the signal", before, size())
	}
	// Unsignalled, the checkpoint follows the commit.
	ingest(t, db, testInfo("sha256:next", nil), testKernels())
	if size() == before {
		t.Errorf("the database file is %d bytes still: no checkpoint after the commit", before)
	}
}

// TestHoldCommitsBounded: a commit that does not end (a PostgreSQL one
// held up by its network) holds a signal's end for the wait given, no
// longer, and says so.
func TestHoldCommitsBounded(t *testing.T) {
	commits.Lock() // a commit under way
	start := time.Now()
	_, ok := HoldCommits(50 * time.Millisecond)
	if took := time.Since(start); ok || took > time.Second {
		t.Errorf("held %v, ok %v: want about 50ms, not ok", took, ok)
	}
	commits.Unlock()
	release, ok := HoldCommits(time.Second)
	if !ok {
		t.Fatal("no commit under way, and not held")
	}
	release()
}
