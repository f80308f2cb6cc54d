package ingest

import (
	"testing"
)

// TestSpanRecords: the host spans count the profiler's records that begin
// inside them (HostSpan.Ops, Frames), on the launching threads: no more
// than the trace holds, and nearly all of them on a single-threaded
// step (fixtures/host9's copy loop: 645 aten ops and 1,435 Python frames,
// all on the main thread but the few before its first span).
func TestSpanRecords(t *testing.T) {
	run, err := ReadFile("../../fixtures/host9/copy.default.json.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := run.Host
	ops, frames := 0, 0
	for _, s := range h.Spans {
		ops += int(s.Ops)
		frames += int(s.Frames)
	}
	if ops > h.Ops || frames > h.Frames || float64(ops) < 0.95*float64(h.Ops) || float64(frames) < 0.9*float64(h.Frames) {
		t.Errorf("spans count %d ops and %d frames; the trace holds %d and %d", ops, frames, h.Ops, h.Frames)
	}
}
