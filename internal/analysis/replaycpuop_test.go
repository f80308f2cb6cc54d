package analysis

import (
	"math"
	"testing"

	"github.com/profan-dev/profan"
)

// TestReplayOnGPU replays by hand a step whose forward samples on a CPU
// tensor (fixtures/host36's sgns, small): 1 ms of Python, 10 ms of
// aten::multinomial launching nothing, aten::linear (1 ms, its kernel of
// 2 ms issued half way), then .item(). Profiled (keep 0.55 a span, the
// op's own work 1, no record costs). As captured: 0.55 + 10, the kernel
// at 10.825 to 12.825, the sync to 12.825. The draw on the GPU
// (OnGPU): a launch's worth (0.55) for the op, its kernel at the median
// kernel (2 ms) 1.1 to 3.1, the linear's queued after it 3.1 to 5.1, the
// sync to 5.1. Under a graph the draw stays (cpuWork): 10, the kernel
// 10 to 12, the sync to 12.
func TestReplayOnGPU(t *testing.T) {
	const ms = 1e-3
	item := ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"
	r := &replay{
		kernels: []replayKernel{{start: 11.5 * ms, issued: 11.5 * ms, dur: 2 * ms, name: 0, lane: 0}},
		names:   []string{"gemm"},
		snames:  []string{"train.py(20): forward", "aten::multinomial", "aten::linear", item},
		spans: []profan.HostSpan{
			{Start: 0, Dur: 1 * ms, State: profan.HostPython, Name: 0},
			{Start: 1 * ms, Dur: 10 * ms, State: profan.HostDispatch, Name: 1},
			{Start: 11 * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 2},
			{Start: 12 * ms, Dur: 2 * ms, State: profan.HostSync, Name: 3},
		},
		nl: []uint16{0, 0, 1, 0},
		lo: 0, hi: 14 * ms, steps: 1, bareKeep: 1, framework: true, profiler: true,
	}
	r.launch, r.launchU, r.kmed = r.launchUnit(), r.launchUnprofiled(), r.medianKernel()
	if math.Abs(r.launchU-0.55*ms) > 1e-9 || math.Abs(r.kmed-2*ms) > 1e-9 {
		t.Fatalf("a launch's worth %.3f ms unprofiled, the median kernel %.3f ms; want 0.55 and 2", r.launchU/ms, r.kmed/ms)
	}
	tl := &Timeline{Steps: r}
	draw := func(op string) bool { return op == "aten::multinomial" }
	checkReplays(t, tl, 12.825, []replayCase{
		{"as captured", Lever{}, 12.825},
		{"the draw on the GPU", Lever{OnGPU: draw}, 5.1},
		{"another op on the GPU: nothing moves", Lever{OnGPU: func(op string) bool { return op == "aten::sort" }}, 12.825},
		{"CUDA graphs keep the draw's CPU compute", Lever{Graphs: true}, 12},
	})
	ops := CPUOps(tl)
	if len(ops) != 1 || ops[0].Name != "aten::multinomial" || ops[0].Frame != "train.py(20): forward" || ops[0].Calls != 1 || !ops[0].Moves || math.Abs(ops[0].Time-10*ms) > 1e-9 {
		t.Errorf("CPU ops %+v", ops)
	}
	// A copy's CPU time is a transfer's, not a tensor op's: named, never
	// moved.
	cp := *r
	cp.snames = []string{"train.py(20): forward", "aten::copy_", "aten::linear", item}
	if ops := CPUOps(&Timeline{Steps: &cp}); len(ops) != 1 || ops[0].Moves {
		t.Errorf("a CPU copy: %+v", ops)
	}
	// One long call among short ones at its line is the thread
	// descheduled: named, never moved.
	st := *r
	st.spans = append([]profan.HostSpan{
		{Start: -4 * ms, Dur: 0.1 * ms, State: profan.HostPython, Name: 0},
		{Start: -3.9 * ms, Dur: 0.1 * ms, State: profan.HostDispatch, Name: 1},
		{Start: -2 * ms, Dur: 0.1 * ms, State: profan.HostPython, Name: 0},
		{Start: -1.9 * ms, Dur: 0.1 * ms, State: profan.HostDispatch, Name: 1},
	}, r.spans...)
	st.nl = append([]uint16{0, 0, 0, 0}, r.nl...)
	st.lo = -4 * ms
	if ops := CPUOps(&Timeline{Steps: &st}); len(ops) != 1 || ops[0].Moves {
		t.Errorf("one long call of three: %+v", ops)
	}
}
