package store

import (
	"context"
	"fmt"
	"testing"

	importer "github.com/profan-dev/profan/internal/ingest"
)

// TestRealFindingsRoundTrip stores the 126 launches of a real --set full
// capture, with their 1,343 rule rows, and reads back every rule row as
// ncu wrote it.
func TestRealFindingsRoundTrip(t *testing.T) {
	run, err := importer.ReadFile("../../fixtures/calib/calib.details.csv.gz", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db, _ := mustOpen(t)
	var recs []KernelRecord
	for _, k := range run.Kernels {
		recs = append(recs, KernelRecord{Kernel: k})
	}
	id := ingest(t, db, testInfo("sha256:calib", nil), recs)
	db.texts = dictCache[string]{} // read the templates from the database
	got, err := db.Kernels(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(run.Kernels) {
		t.Fatalf("%d kernels read back, want %d", len(got), len(run.Kernels))
	}
	var n int
	for i, k := range run.Kernels {
		if a, b := fmt.Sprintf("%#v", got[i].Kernel.Findings), fmt.Sprintf("%#v", k.Findings); a != b {
			t.Fatalf("launch %d (%s) findings:\ngot  %.300s\nwant %.300s", i, k.Name, a, b)
		}
		n += len(k.Findings)
	}
	if n != 1343 {
		t.Errorf("%d rule rows, want 1343", n)
	}
}
