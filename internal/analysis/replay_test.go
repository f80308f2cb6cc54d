package analysis

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
)

// TestReplayByHand replays the small step of docs/replay.md, whose
// figures the page works out by hand: the host loads a batch for 4 ms,
// launches two kernels of 3 ms (each launch 1 ms of aten op), reads the
// loss with .item() (a sync) and spends 1 ms in Python. No profiler
// scale (1): the page's arithmetic.
func TestReplayByHand(t *testing.T) {
	const ms = 1e-3
	item := ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"
	r := &replay{
		kernels: []replayKernel{
			{start: 5 * ms, issued: 5 * ms, dur: 3 * ms, name: 0, lane: 0},
			{start: 8 * ms, issued: 6 * ms, dur: 3 * ms, name: 0, lane: 0},
		},
		names:  []string{"gemm"},
		snames: []string{"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → train.py(12): __getitem__", "aten::linear", item, "train.py(40): step"},
		spans: []profan.HostSpan{
			{Start: 0, Dur: 4 * ms, State: profan.HostData, Name: 0},
			{Start: 4 * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 1},
			{Start: 5 * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 1},
			{Start: 6 * ms, Dur: 5 * ms, State: profan.HostSync, Name: 2},
			{Start: 11 * ms, Dur: 1 * ms, State: profan.HostPython, Name: 3},
		},
		lo: 0, hi: 12 * ms, steps: 1, bareKeep: 1, framework: true,
		// Both launches inside an optimizer's step, for Collapse.
		ranges: []annRange{{4 * ms, 6.5 * ms, "Optimizer.step#SGD.step"}},
	}
	// One launch's worth: each aten::linear issues one kernel in 1 ms.
	if r.launch, r.launchU = r.launchUnit(), r.launchUnprofiled(); math.Abs(r.launch-1*ms) > 1e-9 {
		t.Errorf("a launch's worth %.3f ms, want 1", r.launch/ms)
	}
	tl := &Timeline{Steps: r}
	halved := func(string) float64 { return 0.5 }
	checkReplays(t, tl, 12, []replayCase{
		{"as captured", Lever{}, 12},
		{"kernels halved: the host floor stays", Lever{Kernel: halved}, 9},
		// A new engine: each op's host grows by a launch's worth before
		// it issues: A at 6 (6–7.5), B at 8 (8–9.5), the sync to 9.5.
		{"kernels halved by an engine a launch costlier an op", Lever{Kernel: halved, Host: func(string) float64 { return 1 }}, 10.5},
		{"the engine under a CUDA graph costs no host", Lever{Kernel: halved, Host: func(string) float64 { return 1 }, Graphs: true}, 7},
		{"DataLoader workers", Lever{Workers: 4}, 8},
		{"the .item() read dropped", Lever{Drop: func(s string) bool { return s == item }}, 11},
		{"workers and the read dropped, together", Lever{Workers: 4, Drop: func(s string) bool { return s == item }}, 7},
		{"CUDA graphs", Lever{Graphs: true}, 10},
		// A fusion that drops half of each kernel's launches: each
		// aten::linear loses half a launch's worth (0.5 ms): A is
		// issued at 4.5 (4.5–7.5), B at 5 (7.5–10.5), the sync to 10.5.
		{"half the launches fused away", Lever{Fewer: func(string) float64 { return 0.5 }}, 11.5},
		{"and their kernels halved", Lever{Fewer: func(string) float64 { return 0.5 }, Kernel: halved}, 8.5},
		// The range 4–6.5 collapsed into one launch: its host is that
		// launch's worth (4–5); each kernel keeps half its time above
		// a 1 ms floor, and the two share one floor: 1.5 ms each, A
		// 5–6.5, B 6.5–8, the sync to 8.
		{"the optimizer's range collapsed into one launch", Lever{Collapse: &Collapse{Range: "Optimizer.step#SGD.step", Launches: 1, Floor: 1 * ms, Bytes: 0.5}}, 9},
		{"a range the trace does not hold", Lever{Collapse: &Collapse{Range: "Optimizer.step#Adam.step", Launches: 1}}, 12},
	})
	// With PyTorch's frames (with_stack): the update (_single_tensor_sgd)
	// runs 4.5–6.5, its lists' grouping 4.5–4.75 inside it; the range's
	// host before it (Optimizer.step's wrapper, _init_group: 4–4.5) and
	// the grouping stay, the rest of the update becomes the launch:
	// 4.75 + 1, A 5.75–7.25, B 7.25–8.75, the sync to 8.75, the Python
	// to 9.75.
	fr := *r
	fr.frames = []annRange{{4 * ms, 6.5 * ms, "torch/optim/sgd.py(105): step"}, {4.5 * ms, 6.5 * ms, "torch/optim/sgd.py(300): _single_tensor_sgd"}, {4.5 * ms, 4.75 * ms, "torch/optim/optimizer.py(547): _group_tensors_by_device_and_dtype"}}
	checkReplays(t, &Timeline{Steps: &fr}, 12, []replayCase{
		{"the update collapsed, the wrapper and the grouping kept", Lever{Collapse: &Collapse{Range: "Optimizer.step#SGD.step", Launches: 1, Floor: 1 * ms, Bytes: 0.5}}, 9.75},
	})
	// The update's host, what the fused step replaces: 4.75–6.5.
	if fregs := (&Timeline{Steps: &fr}).Regions("Optimizer.step#"); len(fregs) != 1 || math.Abs(fregs[0].Update-1.75*ms) > 1e-9 || math.Abs(fregs[0].Host-2.5*ms) > 1e-9 {
		t.Errorf("regions with the frames %+v", fregs)
	}
	regs := tl.Regions("Optimizer.step#")
	if len(regs) != 1 || regs[0].Update != 0 || regs[0].Name != "Optimizer.step#SGD.step" || regs[0].Count != 1 || regs[0].Launches != 2 ||
		regs[0].Kernels["gemm"] != 2 || regs[0].Ops["aten::linear"] != 2 || math.Abs(regs[0].Host-2.5*ms) > 1e-9 || math.Abs(regs[0].Kernel-6*ms) > 1e-9 {
		t.Errorf("regions %+v", regs)
	}
	sites := tl.SyncSites()
	if len(sites) != 1 || sites[0].Method != "item" || sites[0].Frame != "train.py(40): step" || sites[0].Count != 1 {
		t.Errorf("sync sites %+v", sites)
	}
}

// TestReplayForward: torch.compile's lever (Forward) takes the Python of
// the model's forward methods off the host, not the loop's. A launch
// (0–1 ms, its kernel 1–4), 10 ms of Python, then .item(): 11 ms, the
// sync's wait replayed as none (the kernel is done). The Python in a
// forward goes: the host reaches the sync at 1 and waits for the kernel,
// to 4 ms; in the loop's step function it stays: 11 ms.
func TestReplayForward(t *testing.T) {
	const ms = 1e-3
	for frame, want := range map[string]float64{"model.py(20): forward": 4, "train.py(40): step": 11} {
		r := &replay{
			kernels: []replayKernel{{start: 1 * ms, issued: 1 * ms, dur: 3 * ms, name: 0}},
			names:   []string{"gemm"},
			snames:  []string{"aten::linear", ".item() → aten::item → cudaStreamSynchronize at train.py(40): step", frame},
			spans: []profan.HostSpan{
				{Start: 0, Dur: 1 * ms, State: profan.HostDispatch, Name: 0},
				{Start: 1 * ms, Dur: 10 * ms, State: profan.HostPython, Name: 2},
				{Start: 11 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 1},
			},
			lo: 0, hi: 12 * ms, steps: 1, bareKeep: 1, framework: true,
		}
		checkReplays(t, &Timeline{Steps: r}, 11, []replayCase{{frame, Lever{Forward: true}, want}})
	}
}

// TestReplayPinnedByHand replays the copy step of docs/replay.md: a
// blocking .to() of 40 MB from pageable memory (the host in the copy call
// 0–4 ms, the copy on the GPU 0.5–4.5 ms, then the stream sync the .to()
// adds, to 4.5 ms), one kernel of 3 ms launched in 1 ms, .item() and 0.5
// ms of Python: 9 ms.
func TestReplayPinnedByHand(t *testing.T) {
	const ms = 1e-3
	cp := ".to() → aten::to → cudaMemcpyAsync at train.py(30): step"
	sync := ".to() → aten::to → cudaStreamSynchronize at train.py(30): step"
	item := ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"
	r := &replay{
		kernels: []replayKernel{
			{start: 0.5 * ms, issued: 0.5 * ms, dur: 4 * ms, name: -1, lane: 0, bytes: 40e6, copy: uint8(copyPageable | copyToDevice)},
			{start: 5.5 * ms, issued: 5.5 * ms, dur: 3 * ms, name: 0, lane: 0},
		},
		names:  []string{"gemm"},
		snames: []string{cp, sync, "aten::linear", item, "train.py(40): step"},
		spans: []profan.HostSpan{
			{Start: 0, Dur: 4 * ms, State: profan.HostCopy, Name: 0},
			{Start: 4 * ms, Dur: 0.5 * ms, State: profan.HostSync, Name: 1},
			{Start: 4.5 * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 2},
			{Start: 5.5 * ms, Dur: 3 * ms, State: profan.HostSync, Name: 3},
			{Start: 8.5 * ms, Dur: 0.5 * ms, State: profan.HostPython, Name: 4},
		},
		lo: 0, hi: 9 * ms, steps: 1, bareKeep: 1,
	}
	tl := &Timeline{Steps: r}
	copies := func(s string) bool { return s == cp || s == sync }
	checkReplays(t, tl, 9, []replayCase{
		{"as captured", Lever{}, 9},
		// 40 MB at 20 GB/s: 2 ms, issued at once; the kernel waits for
		// it (0–2), is issued at 1 and runs 2–5; .item() waits to 5.
		{"pinned, non_blocking", Lever{Pinned: 20e9, Drop: copies}, 5.5},
		// The copy beside the kernel: the kernel runs 1–4.
		{"pinned, on a second stream", Lever{Pinned: 20e9, Drop: copies, Overlap: true}, 4.5},
		// A pageable copy cannot move: the overlap alone changes nothing.
		{"a second stream alone", Lever{Overlap: true}, 9},
	})
}

// TestReplayReadBackByHand: the copy step of docs/replay.md from the GPU:
// 0–1 ms launching kernel A (1–2), 1–4 in a blocking .cpu() of 20 MB to
// pageable memory (the staged copy runs 2–4 after A), 4–5 the host's
// Python storing the result: 5 ms. Pinned, the copy takes 1 ms at 20
// GB/s (2–3) and its call returns at once; the host still reads the 20
// MB back out of the pinned buffer, at 10 GB/s 2 ms: 1 + 2 + 1 = 4 ms,
// not 3.
func TestReplayReadBackByHand(t *testing.T) {
	const ms = 1e-3
	cp := ".cpu() → aten::to → cudaMemcpyAsync at embed.py(50): step"
	r := &replay{
		kernels: []replayKernel{
			{start: 1 * ms, issued: 1 * ms, dur: 1 * ms, name: 0, lane: 0},
			{start: 2 * ms, issued: 1 * ms, dur: 2 * ms, name: -1, lane: 0, bytes: 20e6, copy: uint8(copyPageable)},
		},
		names:  []string{"conv"},
		snames: []string{"aten::conv2d", cp, "embed.py(50): step"},
		spans: []profan.HostSpan{
			{Start: 0, Dur: 1 * ms, State: profan.HostDispatch, Name: 0},
			{Start: 1 * ms, Dur: 3 * ms, State: profan.HostCopy, Name: 1},
			{Start: 4 * ms, Dur: 1 * ms, State: profan.HostPython, Name: 2},
		},
		lo: 0, hi: 5 * ms, steps: 1, bareKeep: 1,
	}
	tl := &Timeline{Steps: r}
	copies := func(s string) bool { return s == cp }
	checkReplays(t, tl, 5, []replayCase{
		{"as captured", Lever{}, 5},
		{"pinned, the read back not charged", Lever{Pinned: 20e9, Drop: copies}, 3},
		{"pinned, the read back at 10 GB/s", Lever{Pinned: 20e9, Drop: copies, ReadBack: 10e9}, 4},
	})
}

// replayCase is a lever and the wall time, ms, its replay must give.
type replayCase struct {
	name string
	l    Lever
	wall float64
}

// checkReplays replays each case on tl, whose step as captured takes
// base ms.
func checkReplays(t *testing.T, tl *Timeline, base float64, cases []replayCase) {
	t.Helper()
	const ms = 1e-3
	for _, c := range cases {
		got, ok := tl.Replay(c.l)
		if !ok || math.Abs(got.Wall-c.wall*ms) > 1e-9 || math.Abs(got.Base-base*ms) > 1e-9 {
			t.Errorf("%s: wall %.3f ms (base %.3f), want %.3f", c.name, got.Wall/ms, got.Base/ms, c.wall)
		}
	}
}

// TestSyncSitesInside: a sync between two launches of its step splits it
// (Inside); one after the step's last launch does not, nor any where the
// trace marks no step.
func TestSyncSitesInside(t *testing.T) {
	const ms = 1e-3
	mid := ".item() → aten::item → cudaStreamSynchronize at train.py(20): forward"
	end := ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"
	r := &replay{
		kernels: []replayKernel{
			{start: 1 * ms, issued: 1 * ms, dur: 1 * ms, name: 0},
			{start: 4 * ms, issued: 4 * ms, dur: 1 * ms, name: 0},
			{start: 11 * ms, issued: 11 * ms, dur: 1 * ms, name: 0},
			{start: 14 * ms, issued: 14 * ms, dur: 1 * ms, name: 0},
		},
		names:  []string{"gemm"},
		snames: []string{mid, end},
		spans: []profan.HostSpan{
			{Start: 2 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 0},
			{Start: 6 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 1},
			{Start: 12 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 0},
			{Start: 16 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 1},
		},
		lo: 0, hi: 20 * ms, steps: 2, bounds: []float64{10 * ms, 20 * ms}, bareKeep: 1,
	}
	tl := &Timeline{Steps: r}
	got := map[string]int{}
	for _, s := range tl.SyncSites() {
		got[s.Site] = s.Inside
	}
	if got[mid] != 2 || got[end] != 0 {
		t.Errorf("inside: %v, want %s 2, %s 0", got, mid, end)
	}
	r.bounds = nil
	for _, s := range tl.SyncSites() {
		if s.Inside != 0 {
			t.Errorf("no steps marked: %s inside %d times", s.Site, s.Inside)
		}
	}
}

// TestProfilerKeep: the share of a span the replay keeps unprofiled
// (docs/replay.md, "The profiler's own cost"), by hand, at a launch's
// worth L of 20 µs: a 10 ms span holding 100 aten ops, 1,000 Python
// frames and 10 launches costs 20 µs × (0.05 × 100 + 0.005 × 1000 + 0.2 ×
// 10) = 0.24 ms and keeps 0.55 × (1 − 0.024) of its time; a 50 µs op of
// one launch, 20 µs × 0.25 = 5 µs, keeps 0.55 × 0.9; a 20 µs one with
// six launches would lose more than all of it (25 µs), and keeps 0.55 × 0.2.
func TestProfilerKeep(t *testing.T) {
	const us = 1e-6
	r := &replay{
		spans: []profan.HostSpan{
			{Start: 0, Dur: 10000 * us, State: profan.HostData, Ops: 100, Frames: 1000, Name: -1},
			{Start: 0.011, Dur: 50 * us, State: profan.HostDispatch, Ops: 1, Name: -1},
			{Start: 0.012, Dur: 20 * us, State: profan.HostDispatch, Ops: 1, Name: -1},
		},
		nl:     []uint16{10, 1, 6},
		launch: 20 * us,
	}
	r.profiled()
	r.nl = []uint16{10, 1, 6} // profiled counts the kernels' launches; this replay holds none
	for i, want := range []float64{0.55 * (1 - 0.024), 0.55 * 0.9, 0.55 * 0.2} {
		if got := r.keep(i); math.Abs(got-want) > 1e-6 {
			t.Errorf("span %d keeps %.6f, want %.6f", i, got, want)
		}
	}
}

// TestReplayGraphsKeepResults: under a CUDA graph the Python that issues
// the step's kernels goes, the Python after its last launch (the host
// storing the step's results) stays where the trace marks the step; an
// unmarked trace loses all of it, as before.
func TestReplayGraphsKeepResults(t *testing.T) {
	const ms = 1e-3
	for _, c := range []struct {
		bounds []float64
		want   float64
	}{{[]float64{10 * ms}, 9}, {nil, 3}} {
		r := &replay{
			kernels: []replayKernel{{start: 1 * ms, issued: 1 * ms, dur: 3 * ms, name: 0}},
			names:   []string{"conv"},
			snames:  []string{"aten::conv2d", "train.py(20): features", ".cpu() → aten::to → cudaStreamSynchronize at train.py(40): step", "train.py(40): step"},
			spans: []profan.HostSpan{
				{Start: 0, Dur: 1 * ms, State: profan.HostDispatch, Name: 0},
				{Start: 1 * ms, Dur: 2 * ms, State: profan.HostPython, Name: 1},
				{Start: 3 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 2},
				{Start: 4 * ms, Dur: 6 * ms, State: profan.HostPython, Name: 3},
			},
			lo: 0, hi: 10 * ms, steps: 1, bareKeep: 1, framework: true, bounds: c.bounds,
		}
		checkReplays(t, &Timeline{Steps: r}, 10, []replayCase{{"graphs", Lever{Graphs: true}, c.want}})
	}
}

// TestReplayRunsAhead: a read dropped lets the host run ahead into the
// next step's work, the next step's launch queued while the GPU runs.
// Three marked steps of 10 ms: the host loads a batch (4 ms), launches a
// 5 ms kernel (1 ms) and waits for it in .item() (5 ms). Without the
// read, step 2's loading runs beside step 1's kernel and its kernel
// starts as step 1's ends: a step every 5 ms (the GPU's), not 10. With
// the kernel 2 ms, the host's 5 ms a step bounds it: 5 ms. (Steps are
// the intervals between completions, the first left out.)
func TestReplayRunsAhead(t *testing.T) {
	const ms = 1e-3
	item := ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"
	r := &replay{
		names:  []string{"gemm"},
		snames: []string{"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → train.py(12): __getitem__", "aten::linear", item},
		lo:     0, hi: 30 * ms, steps: 3, bareKeep: 1, framework: true,
		bounds: []float64{10 * ms, 20 * ms, 30 * ms},
	}
	for i := range 3 {
		at := float64(i) * 10 * ms
		r.kernels = append(r.kernels, replayKernel{start: at + 5*ms, issued: at + 5*ms, dur: 5 * ms, name: 0})
		r.spans = append(r.spans,
			profan.HostSpan{Start: at, Dur: 4 * ms, State: profan.HostData, Name: 0},
			profan.HostSpan{Start: at + 4*ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 1},
			profan.HostSpan{Start: at + 5*ms, Dur: 5 * ms, State: profan.HostSync, Name: 2})
	}
	r.ends = true
	dropped := func(s string) bool { return s == item }
	checkReplays(t, &Timeline{Steps: r}, 10, []replayCase{
		{"the read dropped: the GPU's pace", Lever{Drop: dropped}, 5},
		{"the read dropped, the kernel 2 ms: the host's pace", Lever{Drop: dropped, Kernel: func(string) float64 { return 0.4 }}, 5},
		{"the read kept, the kernel 2 ms", Lever{Kernel: func(string) float64 { return 0.4 }}, 7},
	})
}

// TestLooped: a read that recurs inside one call of a forward, after the
// same ops and with others between, is a loop's: the kernels from the
// call's first read on are returned; two calls reading once each, or
// two reads back to back (x[m], then y[m]), are not.
func TestLooped(t *testing.T) {
	const ms = 1e-3
	site := "aten::_unique2 → cudaStreamSynchronize at m.py(10): forward"
	build := func(ops []string, frames []annRange) *replay {
		r := &replay{names: []string{"x", "y"}, snames: []string{site}, lo: 0, hi: float64(len(ops)) * ms, steps: 1, frames: frames}
		idx := map[string]int32{site: 0}
		for i, op := range ops {
			s := profan.HostSpan{Start: float64(i) * ms, Dur: 1 * ms, State: profan.HostDispatch}
			if op == "sync" {
				op, s.State = site, profan.HostSync
			} else {
				name := int32(0)
				if i > 0 {
					name = 1
				}
				r.kernels = append(r.kernels, replayKernel{issued: (float64(i) + 0.5) * ms, dur: 0.1 * ms, name: name})
			}
			if _, ok := idx[op]; !ok {
				idx[op] = int32(len(r.snames))
				r.snames = append(r.snames, op)
			}
			s.Name = idx[op]
			r.spans = append(r.spans, s)
		}
		return r
	}
	loop := []string{"aten::mul", "aten::add", "aten::sub", "aten::_unique2", "sync", "aten::index_add_", "aten::mul", "aten::add", "aten::sub", "aten::_unique2", "sync", "aten::index_add_"}
	one := []annRange{{0, 12 * ms, "m.py(10): forward"}}
	eager, got := build(loop, one).Looped(func(f string) bool { return strings.HasSuffix(f, "): forward") })
	// From the first read (4 ms): the kernels of spans 5 to 11 but the
	// second read, all y.
	if got != site || len(eager) != 1 || eager["y"] != 6 {
		t.Errorf("a read in a loop: %v %q", eager, got)
	}
	two := []annRange{{0, 6 * ms, "m.py(10): forward"}, {6 * ms, 12 * ms, "m.py(10): forward"}}
	if eager, got := build(loop, two).Looped(func(f string) bool { return strings.HasSuffix(f, "): forward") }); eager != nil || got != "" {
		t.Errorf("two calls reading once each: %v %q", eager, got)
	}
	line := []string{"aten::mul", "aten::add", "aten::sub", "aten::_unique2", "sync", "aten::_unique2", "sync", "aten::add"}
	if eager, got := build(line, []annRange{{0, 8 * ms, "m.py(10): forward"}}).Looped(func(f string) bool { return strings.HasSuffix(f, "): forward") }); eager != nil || got != "" {
		t.Errorf("two reads back to back: %v %q", eager, got)
	}
}

// TestCompiled: torch.compile(model) compiles the kernels launched inside
// the model's forward calls and those autograd's backward launches; a
// postprocess after the forward and the optimizer's step stay eager.
func TestCompiled(t *testing.T) {
	const ms = 1e-3
	// 0-2 ms the forward (two mul), 2-3 the postprocess (a mul), 3-4 the
	// backward (a mul), 4-5 the optimizer (a mul and an add).
	ops := []string{"aten::mul", "aten::mul", "aten::mul", "autograd::engine::evaluate_function: MulBackward0", "aten::mul", "aten::add"}
	r := &replay{names: []string{"mul", "add"}, lo: 0, hi: 6 * ms, steps: 1,
		frames: []annRange{{0, 2 * ms, "m.py(10): forward"}, {2 * ms, 3 * ms, "m.py(30): post"}},
		ranges: []annRange{{4 * ms, 6 * ms, "Optimizer.step#SGD.step"}}}
	for i, op := range ops {
		r.snames = append(r.snames, op)
		r.spans = append(r.spans, profan.HostSpan{Start: float64(i) * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: int32(i)})
		name := int32(0)
		if i == 5 {
			name = 1
		}
		r.kernels = append(r.kernels, replayKernel{issued: (float64(i) + 0.5) * ms, dur: 0.1 * ms, name: name})
	}
	got := r.Compiled(profan.ForwardFrame, func(n string) bool { return n == "gemm" })
	if got["mul"] != 0.6 || got["add"] != 0 || len(got) != 2 {
		t.Errorf("compiled shares: %v, want mul 0.6 (the forward's two and the backward's of five), add 0", got)
	}
	// An attention kernel launched by the backward's node: the op is an
	// extern kernel to inductor, and the mul it issues beside it stays
	// eager.
	attn := *r
	attn.names = append(slices.Clone(r.names), "fmha_cutlassB_f32_aligned_64x64_k64_sm80")
	attn.kernels = slices.Insert(slices.Clone(r.kernels), 4, replayKernel{issued: 3.7 * ms, dur: 0.1 * ms, name: 2})
	if got := attn.Compiled(profan.ForwardFrame, func(n string) bool { return n == "gemm" }); got["mul"] != 0.4 {
		t.Errorf("compiled shares beside an attention kernel: %v, want mul 0.4 (the forward's two of five)", got)
	}
	// A matrix product outside the forward: the model is not all in
	// the user's forward calls; nothing is said.
	if got := r.Compiled(profan.ForwardFrame, func(n string) bool { return n == "mul" }); got != nil {
		t.Errorf("a product outside the forward: %v, want nil", got)
	}
	r.frames = r.frames[1:]
	if got := r.Compiled(profan.ForwardFrame, nil); got != nil {
		t.Errorf("no forward call: %v, want nil", got)
	}
}

// TestPinFeed: a multi-process DataLoader's pin-memory thread takes each
// batch from the workers; its time a batch (its waits for a worker's
// answer whole, the rest at the profiler's keep, the wait for a batch to
// arrive left out) bounds the step.
func TestPinFeed(t *testing.T) {
	const ms = 1e-3
	pin := "torch/utils/data/_utils/pin_memory.py(26): do_one_step"
	ev := []*profan.HostEvent{
		{Kind: profan.HostAnnotation, Name: "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", Start: 0, Duration: 0.1 * ms, Thread: "1"},
		{Kind: profan.HostAnnotation, Name: "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", Start: 10 * ms, Duration: 0.1 * ms, Thread: "1"},
		// 8 ms: 1 waiting for the batch, 4 for a worker's answers, 3 else.
		{Kind: profan.HostFrame, Name: pin, Start: 1 * ms, Duration: 8 * ms, Thread: "2"},
		{Kind: profan.HostFrame, Name: "multiprocessing/connection.py(253): poll", Start: 1 * ms, Duration: 1 * ms, Thread: "2"},
		{Kind: profan.HostFrame, Name: "<built-in function read>", Start: 3 * ms, Duration: 4 * ms, Thread: "2"},
		// 2 ms, no wait.
		{Kind: profan.HostFrame, Name: pin, Start: 10 * ms, Duration: 2 * ms, Thread: "2"},
		// A read on another thread, not the pin thread's.
		{Kind: profan.HostFrame, Name: "<built-in function read>", Start: 10 * ms, Duration: 2 * ms, Thread: "1"},
	}
	r := &replay{lo: 0, hi: 20 * ms, steps: 2, profiler: true}
	run := &profan.Run{Host: &profan.Host{Events: ev}}
	// Batches: 4 + 0.55 × 3 = 5.65 and 0.55 × 2 = 1.1 ms: the median,
	// 3.375 ms, a batch a step.
	if got := r.pinFeed(run); math.Abs(got-3.375*ms) > 1e-9 {
		t.Errorf("pin feed %.4f ms, want 3.375", got/ms)
	}
	run.Host.Events = ev[2:]
	if got := r.pinFeed(run); got != 0 {
		t.Errorf("no multi-process iterator: %.4f ms, want 0", got/ms)
	}
}

// TestWaitsOnWorkers: a step whose thread is blocked on the workers in
// every step is floored at its replayed step; a get that returns at once
// (under 1% of a step), a put, or one step without a wait is not. Where
// the trace keeps the iterator's blocked waits (stalls, ms a step), only
// they count: a 2 ms get that polls 0.05 ms is the batch's transfer.
func TestWaitsOnWorkers(t *testing.T) {
	const ms = 1e-3
	it := "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
	for _, c := range []struct {
		frame  string
		wait   float64 // each step's, ms
		steps  int     // steps that wait, of two
		stalls float64 // each step's blocked wait kept, ms; 0 for none kept
		want   bool
	}{
		{"queue.py(154): get", 2, 2, 0, true},
		{"multiprocessing/connection.py(1136): wait", 2, 2, 0, true},
		{"queue.py(154): get", 0.05, 2, 0, false},
		{"multiprocessing/queues.py(86): put", 2, 2, 0, false},
		{"queue.py(154): get", 2, 1, 0, false},
		{"multiprocessing/queues.py(98): get", 2, 2, 0.05, false},
		{"multiprocessing/queues.py(98): get", 2, 2, 1.5, true},
	} {
		r := &replay{lo: 0, hi: 20 * ms, steps: 2, bounds: []float64{10 * ms, 20 * ms}, snames: []string{it + " → " + c.frame}}
		for i := 0; i < c.steps; i++ {
			at := float64(10*i) * ms
			r.spans = append(r.spans, profan.HostSpan{Start: at, Dur: float32(c.wait * ms), State: profan.HostData, Name: 0})
			if c.stalls > 0 {
				r.stalls = append(r.stalls, annRange{lo: at + 0.01*ms, hi: at + (0.01+c.stalls)*ms})
			}
		}
		if got := r.waitsOnWorkers(); got != c.want {
			t.Errorf("%s, %.2f ms (%.2f blocked) in %d steps of 2: %v, want %v", c.frame, c.wait, c.stalls, c.steps, got, c.want)
		}
	}
	if workersWait("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → queue.py(154): get") {
		t.Error("a single-process iterator's get: a wait on workers")
	}
}

// TestReplayFewerWholeOp: a launch fused away takes its op's whole host
// time off the step, not a launch's worth: a batch norm of 4 ms (one
// launch) beside adds of 1 ms (a launch's worth), its kernel fused into
// the next add's.
func TestReplayFewerWholeOp(t *testing.T) {
	const ms = 1e-3
	r := &replay{
		names:  []string{"add", "bn"},
		snames: []string{"aten::add", "aten::batch_norm"},
		lo:     0, hi: 10 * ms, steps: 1, bareKeep: 1, framework: true,
	}
	// add 0-1, add 1-2, add 2-3, add 3-4, add 4-5, batch_norm 5-9, add 9-10.
	at := 0.0
	for _, op := range []int32{0, 0, 0, 0, 0, 1, 0} {
		d := 1.0
		if op == 1 {
			d = 4
		}
		r.spans = append(r.spans, profan.HostSpan{Start: at * ms, Dur: float32(d * ms), State: profan.HostDispatch, Name: op})
		r.kernels = append(r.kernels, replayKernel{start: (at + d) * ms, issued: (at + d) * ms, dur: 0.01 * ms, name: op})
		at += d
	}
	r.launch = r.launchUnit()
	if math.Abs(r.launch-1*ms) > 1e-9 {
		t.Fatalf("a launch's worth %.3f ms, want 1", r.launch/ms)
	}
	// The batch norm's launch fused away: its 4 ms go; the step ends with
	// the last add at 6 ms, its kernel at 6.01.
	checkReplays(t, &Timeline{Steps: r}, 10.01, []replayCase{
		{"the batch norm fused away", Lever{Fewer: func(n string) float64 {
			if n == "bn" {
				return 1
			}
			return 0
		}}, 6.01},
	})
}

// TestReplayModelGraphs: a graph of the model alone (Lever.Model) takes
// the host of its forward calls and its backward, not the rest. The
// step: a launch (0–1 ms, its kernel 0.5 ms) and the forward's Python
// (1–3) inside the model's forward call (0–3), the loss's Python (3–4),
// the backward's op (4–5, a kernel), GradScaler's found_inf read (5–6),
// the optimizer's op (6–7, a kernel), Python (7–8). As captured the
// read waits for nothing past its own 5.5: 7.5 ms. The model graphed:
// 0–3 and 4–5 take no host, the loss's Python 0–1, the read to 1.5, the
// optimizer's op and the Python to 3.5. The whole step graphed: 1.5,
// the last kernel's end.
func TestReplayModelGraphs(t *testing.T) {
	const ms = 1e-3
	read := ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"
	r := &replay{
		kernels: []replayKernel{
			{start: 1 * ms, issued: 1 * ms, dur: 0.5 * ms, name: 0},
			{start: 5 * ms, issued: 5 * ms, dur: 0.5 * ms, name: 0},
			{start: 7 * ms, issued: 7 * ms, dur: 0.5 * ms, name: 0},
		},
		names:  []string{"gemm"},
		snames: []string{"aten::linear", "model.py(20): forward", "train.py(40): step", "autograd::engine::evaluate_function: AddmmBackward0", read, "aten::add_"},
		spans: []profan.HostSpan{
			{Start: 0, Dur: 1 * ms, State: profan.HostDispatch, Name: 0},
			{Start: 1 * ms, Dur: 2 * ms, State: profan.HostPython, Name: 1},
			{Start: 3 * ms, Dur: 1 * ms, State: profan.HostPython, Name: 2},
			{Start: 4 * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 3},
			{Start: 5 * ms, Dur: 1 * ms, State: profan.HostSync, Name: 4},
			{Start: 6 * ms, Dur: 1 * ms, State: profan.HostDispatch, Name: 5},
			{Start: 7 * ms, Dur: 1 * ms, State: profan.HostPython, Name: 2},
		},
		frames: []annRange{{0, 3 * ms, "model.py(20): forward"}, {5 * ms, 6 * ms, "torch/amp/grad_scaler.py(363): _maybe_opt_step"}},
		lo:     0, hi: 8 * ms, steps: 1, bareKeep: 1, framework: true,
	}
	checkReplays(t, &Timeline{Steps: r}, 7.5, []replayCase{
		{"as captured", Lever{}, 7.5},
		{"the model graphed", Lever{Graphs: true, Model: true}, 3.5},
		{"the whole step graphed", Lever{Graphs: true}, 1.5},
	})
	if sites := r.SyncSites(); len(sites) != 1 || !sites[0].Scaler {
		t.Errorf("GradScaler's read not told: %+v", sites)
	}
}
