package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/profan-dev/profan/store"
)

const fx = "../../fixtures/ncu/"

func countRuns(t *testing.T, path string) int {
	t.Helper()
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Runs(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(rs)
}

// TestStoredFirstThenNew ingests an export stored already followed by a
// new one. The first export's digest is computed beside its read, so it is
// found stored either before its run is begun or after: either way it is
// skipped, its transaction gives the write lock back, and the next export
// is stored (it once waited out the busy timeout on the abandoned run).
func TestStoredFirstThenNew(t *testing.T) {
	stored := "../../fixtures/pytorch/train.full.details.csv.gz"
	ctx := context.Background()
	for _, delay := range []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond, time.Second} {
		t.Run(delay.String(), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "runs.db")
			if _, err := Ingest(ctx, db, []string{stored}, Options{}); err != nil {
				t.Fatal(err)
			}
			var errOut strings.Builder
			if _, err := Ingest(ctx, db, []string{stored, fx + "saxpy.details.csv"}, Options{ErrOut: &errOut, digestDelay: delay}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(errOut.String(), "already stored as run 1") {
				t.Errorf("got %q, want the first export skipped as run 1", errOut.String())
			}
			if n := countRuns(t, db); n != 2 {
				t.Errorf("%d runs, want 2", n)
			}
		})
	}
}
