package store

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// A run stores its workload: the program its export names (not a bare
// process ID) and its kernel names; a verdict made again keeps them.
func TestWorkload(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	recs := testKernels() // process "1234", an ID: no program
	a := ingest(t, db, testInfo("sha256:wa", nil), recs)
	recs = testKernels()
	recs[0].Kernel.Process = "stencil_app"
	recs[2].Kernel.Process = "stencil_app"
	b := ingest(t, db, testInfo("sha256:wb", nil), recs[:1])
	want := []Workload{
		{Program: "", Kernels: []string{"_Z6stencilPfS_i", "reduce"}},
		{Program: "stencil_app", Kernels: []string{"_Z6stencilPfS_i"}},
	}
	for i, id := range []int64{a, b} {
		w, err := db.Workload(ctx, id)
		if err != nil || w.Program != want[i].Program || !slices.Equal(w.Kernels, want[i].Kernels) {
			t.Errorf("run %d: workload %+v, %v; want %+v", id, w, err, want[i])
		}
	}
	wa, _ := db.Workload(ctx, a)
	wb, _ := db.Workload(ctx, b)
	if n, j := wa.Shared(wb); n != 1 || j != 0.5 {
		t.Errorf("shared %d, jaccard %g; want 1, 0.5", n, j)
	}
	if _, err := db.Workload(ctx, b+1); !errors.Is(err, ErrNotFound) {
		t.Errorf("run %d: %v, want ErrNotFound", b+1, err)
	}
}
