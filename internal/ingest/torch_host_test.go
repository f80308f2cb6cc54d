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

// TestConvBenchmark: aten::_convolution's recorded benchmark argument
// says whether cudnn.benchmark was on: on in every convolution of
// fixtures/host16's embed step (its generator sets it), off in host9's
// copy loop's, and a trace without record_shapes' values counts none.
func TestConvBenchmark(t *testing.T) {
	for _, c := range []struct {
		file    string
		on, off bool
	}{
		{"../../fixtures/host16/embed.default.json.gz", true, false},
		{"../../fixtures/host9/copy.default.json.gz", false, true},
		{"../../fixtures/timeline/decode_sync.json.gz", false, false},
	} {
		run, err := ReadFile(c.file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if h := run.Host; (h.ConvBenchmark > 0) != c.on || (h.ConvHeuristic > 0) != c.off {
			t.Errorf("%s: %d convolutions with benchmark on, %d off; want on %v, off %v", c.file, h.ConvBenchmark, h.ConvHeuristic, c.on, c.off)
		}
	}
}

// TestDistValidation: torch.distributions' argument checks are named as
// the read they are (fixtures/host23's ppo), any other frame is not.
func TestDistValidation(t *testing.T) {
	for _, c := range []struct{ frame, want string }{
		{"torch/distributions/distribution.py(46): __init__", "Distribution.__init__"},
		{"torch/distributions/distribution.py(280): _validate_sample", "Distribution._validate_sample"},
		{"torch/distributions/distribution.py(300): sample", ""},
		{"torch/distributions/categorical.py(56): __init__", ""},
		{"host23.py(216): forward", ""},
	} {
		if got := hostRead(c.frame); got != c.want {
			t.Errorf("hostRead(%q) = %q, want %q", c.frame, got, c.want)
		}
	}
}
