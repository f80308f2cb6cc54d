package ingest

import (
	"testing"

	"github.com/profan-dev/profan"
)

// TestReplayJoin reads nvprof's metrics export of matrixMul (a replay of
// the program) with the trace of another run of it: each traced launch
// takes the kernel's counters, the aggregate is not counted as 301 more
// launches, and the metrics run says how it joined.
func TestReplayJoin(t *testing.T) {
	const d = "testdata/nvprof/"
	for _, files := range [][]string{
		{d + "magus-gtx1080ti-matrixMul-metrics.csv", d + "magus-gtx1080ti-matrixMul-trace.csv"},
		{d + "magus-gtx1080ti-matrixMul-trace.csv", d + "magus-gtx1080ti-matrixMul-metrics.csv"},
	} {
		launches, counted := 0, 0
		runs, err := ReadFiles(files, Options{}, func(_ *profan.Run, k *profan.Kernel) error {
			launches += k.Invocations
			if _, ok := k.Metric("gld_transactions_per_request"); ok {
				counted++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if launches != 301 || counted != 301 {
			t.Errorf("%v: %d launches, %d with the replay's counters; want 301 and 301", files, launches, counted)
		}
		var j *profan.ReplayJoin
		for _, r := range runs {
			if r.Replay != nil {
				j = r.Replay
			}
		}
		if j == nil || j.Trace != d+"magus-gtx1080ti-matrixMul-trace.csv" || j.Joined != 1 || j.Invocations != 301 || j.Launches != 301 || len(j.Unequal) != 0 {
			t.Errorf("%v: replay join %+v", files, j)
		}
	}
	// Alone, the metrics export is its own run of aggregates.
	n := 0
	if _, err := ReadFiles([]string{d + "magus-gtx1080ti-matrixMul-metrics.csv"}, Options{}, func(_ *profan.Run, k *profan.Kernel) error {
		n += k.Invocations
		return nil
	}); err != nil || n != 301 {
		t.Errorf("metrics alone: %d launches, %v", n, err)
	}
}
