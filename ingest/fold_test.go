package ingest

import (
	"bytes"
	"math"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/tile"
)

// TestActivitiesFolded tiles the public matrixMul trace (3 copies per 301
// launches) past the bound of activities kept one by one: the later copies
// fold into one record per kind, memory types and stream, and the counts,
// bytes and time they stand for are those of the copies read.
func TestActivitiesFolded(t *testing.T) {
	defer func(n int) { maxActivities = n }(maxActivities)
	maxActivities = 16
	var b bytes.Buffer
	if _, _, err := tile.Trace(&b, "testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", 301*20, true); err != nil {
		t.Fatal(err)
	}
	whole := b.Bytes()
	maxActivities = 1 << 30
	all, err := Read(bytes.NewReader(whole), "trace.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	maxActivities = 16
	folded, err := Read(bytes.NewReader(whole), "trace.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Activities) != 60 || len(folded.Activities) >= 16+4 {
		t.Fatalf("%d activities one by one, %d folded: want 60 and at most 16 plus one per kind", len(all.Activities), len(folded.Activities))
	}
	sum := func(as []*profan.Activity) (n int, bytes, secs float64) {
		for _, a := range as {
			n += a.Invocations
			bytes += a.Bytes * float64(a.Invocations)
			secs += a.Duration * float64(a.Invocations)
		}
		return
	}
	n1, b1, s1 := sum(all.Activities)
	n2, b2, s2 := sum(folded.Activities)
	if n1 != n2 || math.Abs(b1-b2) > 1e-6*b1 || math.Abs(s1-s2) > 1e-9*s1 {
		t.Errorf("folded copies stand for %d calls, %g B, %g s; read %d, %g B, %g s", n2, b2, s2, n1, b1, s1)
	}
	if len(folded.Kernels) != len(all.Kernels) {
		t.Errorf("%d launches with folding, %d without", len(folded.Kernels), len(all.Kernels))
	}
}
