package analysis

import (
	"math"
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
		lo: 0, hi: 12 * ms, steps: 1, unprofiled: 1,
	}
	tl := &Timeline{replay: r}
	for _, c := range []struct {
		name string
		l    Lever
		wall float64 // ms
	}{
		{"as captured", Lever{}, 12},
		{"kernels halved: the host floor stays", Lever{Kernel: func(string) float64 { return 0.5 }}, 9},
		{"DataLoader workers", Lever{Workers: 4}, 8},
		{"the .item() read dropped", Lever{Drop: func(s string) bool { return s == item }}, 11},
		{"workers and the read dropped, together", Lever{Workers: 4, Drop: func(s string) bool { return s == item }}, 7},
		{"CUDA graphs", Lever{Graphs: true}, 10},
	} {
		got, ok := tl.Replay(c.l)
		if !ok || math.Abs(got.Wall-c.wall*ms) > 1e-9 || math.Abs(got.Base-12*ms) > 1e-9 {
			t.Errorf("%s: wall %.3f ms (base %.3f), want %.3f", c.name, got.Wall/ms, got.Base/ms, c.wall)
		}
	}
	sites := tl.SyncSites()
	if len(sites) != 1 || sites[0].Method != "item" || sites[0].Frame != "train.py(40): step" || sites[0].Count != 1 {
		t.Errorf("sync sites %+v", sites)
	}
}
