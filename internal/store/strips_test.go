package store

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// TestSegmentsRoundTrip holds a strip's segments read back as written,
// and a damaged encoding refused, never read as fewer segments.
func TestSegmentsRoundTrip(t *testing.T) {
	segs := []Segment{{0, 1.5e-6, "busy"}, {1.5e-6, 2e-3, "launch"}, {2e-3, 2.25e-3, "busy"}, {2.25e-3, math.Nextafter(3, 4), "python"}}
	b := encodeSegments(segs)
	got, err := decodeSegments(b)
	if err != nil || !reflect.DeepEqual(got, segs) {
		t.Fatalf("got %v, %v, want %v", got, err, segs)
	}
	if got, err := decodeSegments(encodeSegments(nil)); err != nil || len(got) != 0 {
		t.Errorf("no segments: got %v, %v", got, err)
	}
	for name, bad := range map[string][]byte{
		"empty":         nil,
		"version":       append([]byte{9}, b[1:]...),
		"cut":           b[:len(b)-3],
		"trailing byte": append(append([]byte(nil), b...), 0),
		"state out":     append(encodeSegments(nil)[:2], 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
	} {
		if got, err := decodeSegments(bad); err == nil {
			t.Errorf("%s: read as %v", name, got)
		}
	}
}

// TestTimelineStripsRoundTrip holds a timeline's strips, a device's and
// its streams', and its steps' walls and busy shares, read back as
// written, in order, on either backend.
func TestTimelineStripsRoundTrip(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	w, err := db.BeginRun(ctx, testInfo("sha256:strips", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	for _, r := range testKernels() {
		if err := w.AddKernel(r); err != nil {
			t.Fatal(err)
		}
	}
	f := TimelineFigures{Device: "NVIDIA H200 (0)", Span: 2e-3, Busy: 1e-3, BusyShare: 0.5, Idle: map[string]float64{"launch": 1e-3}, Launches: 3,
		Strips: []TimelineStrip{
			{Device: 0, Stream: -1, Name: "NVIDIA H200 (0)", Start: 10, Span: 2e-3, Busy: 1e-3, BusyShare: 0.5, Kernels: 3,
				Segments: []Segment{{10, 10.0005, "busy"}, {10.0005, 10.0015, "launch"}, {10.0015, 10.002, "busy"}}},
			{Device: 0, Stream: 0, Name: "7", Start: 10, Span: 2e-3, Busy: 8e-4, BusyShare: 0.4, Kernels: 2,
				Segments: []Segment{{10, 10.0005, "busy"}, {10.0017, 10.002, "busy"}}},
			{Device: 0, Stream: 1, Name: "13", Start: 10.0002, Span: 1e-4, Busy: 1e-4, BusyShare: 0.05, Copies: 1,
				Segments: []Segment{{10.0002, 10.0003, "busy"}}},
		},
		StepWalls: []float64{1e-3, 9e-4, 1.1e-3}, StepBusy: []float64{0.5, 0.45, 0.55}}
	if err := w.SetTimeline(f); err != nil {
		t.Fatal(err)
	}
	id, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.Timeline(ctx, id)
	if err != nil || !ok {
		t.Fatalf("Timeline(%d): %v, %v", id, ok, err)
	}
	if !reflect.DeepEqual(got.Strips, f.Strips) {
		t.Errorf("strips:\ngot  %+v\nwant %+v", got.Strips, f.Strips)
	}
	if !reflect.DeepEqual(got.StepWalls, f.StepWalls) || !reflect.DeepEqual(got.StepBusy, f.StepBusy) {
		t.Errorf("steps: got %v %v, want %v %v", got.StepWalls, got.StepBusy, f.StepWalls, f.StepBusy)
	}
}
