package analysis_test

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestReplayTraced replays every traced step of the fixtures that the
// levers are priced on (fixtures/timeline, check7, host8 to host26e) with
// the profiler's cost kept, every span at its traced time, and holds the
// replayed step within tracedTol of the trace's own (each step complete
// when its host has passed its ProfilerStep#N and its kernels have run,
// the median interval, the first step left out): the dependency graph
// (the host's spans, launch to kernel, stream order, syncs' waits) loses
// no host interval and no wait the trace shows. What the replay then
// takes off for the profiler's cost (profilerKeep and the records'
// costs, docs/replay.md) is what separates its base step from an
// unprofiled one; host21's aug.gpumetric replays to 37.73 ms against
// the trace's 37.68 (its unprofiled base, 20.18 ms, is 0.99 of the
// 20.32 ms its own process timed before tracing; the other two processes
// timed 24.60 and 24.87 ms). A trace with a miss note is reported, not
// held.
func TestReplayTraced(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every traced fixture")
	}
	const tracedTol = 0.05
	miss := map[string]string{
		// A graph's kernels, launched by one cudaGraphLaunch a token,
		// run 0.42 µs apart on the GPU (the median of its queued pairs,
		// gpuGap), where eager kernels queued run 1.0 to 2.0 µs apart on
		// these traces; the replay keeps that gap, the traced step's own
		// (-22% without it), so one graph's kernels replay 5.2% short of
		// the trace (11.54 ms of kernels in a 15.13 ms step).
		"timeline/decode_graphs": "replayed 5.2% short of the trace: the gaps between a graph's kernels vary more than their median",
		// The step records an event after its pinned copy and waits on
		// the previous step's event (a buffer read a step late): the
		// replay's sync waits for every lane to drain, where the event
		// waited only for the work before its record, which the trace
		// reader does not keep (cudaEventRecord); an event sync read as
		// waiting for the kernels the trace shows done by its end moved
		// it only to +5.7% (before the GPU's gap was kept: +6.4%, +8.1%
		// since), so the cause is not known.
		"host16/embed.pinned": "replayed 8% over the trace; an event sync's wait is one suspect, not confirmed",
	}
	var dirs = []string{"timeline", "check7", "host8", "host9", "host10", "host11", "host12", "host15", "host16",
		"host17", "host18", "host19", "host20", "host20c", "host21", "host22d", "host24", "host24c", "host25c", "host26", "host26d", "host26c", "host26e"}
	n := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob("../../fixtures/" + dir + "/*.json.gz")
		for _, f := range files {
			name := dir + "/" + strings.TrimSuffix(filepath.Base(f), ".json.gz")
			tl := fixtureGrouper(t, strings.TrimPrefix(f, "../../fixtures/")).Timeline
			if tl == nil {
				continue
			}
			replayed, traced := analysis.TracedWalls(tl)
			if !(traced > 0) {
				continue // no replay: no host spans (a trace of CUDA graphs alone)
			}
			n++
			off := replayed/traced - 1
			switch {
			case miss[name] != "" && math.Abs(off) <= tracedTol:
				t.Errorf("%s: a known miss (%s) now replays within %.0f%% (%.2f ms against %.2f traced): drop its note", name, miss[name], 100*tracedTol, 1e3*replayed, 1e3*traced)
			case miss[name] != "":
				t.Logf("%s: known miss: %.2f ms replayed against %.2f traced (%+.1f%%): %s", name, 1e3*replayed, 1e3*traced, 100*off, miss[name])
			case math.Abs(off) > tracedTol:
				t.Errorf("%s: the step replayed at its traced costs is %.2f ms, the trace's %.2f ms (%+.1f%%, tolerance %.0f%%)", name, 1e3*replayed, 1e3*traced, 100*off, 100*tracedTol)
			}
		}
	}
	if n < 80 {
		t.Errorf("replayed %d traces, want at least 80", n)
	}
}

// TestReplayWorkersBursts: host28's spk.workers waits on its eight
// workers' queue in one of its four profiled steps (979.12 ms of
// ProfilerStep#5; the three before drain the prefetched batches): the
// wait is kept whole and the step floored at the window's mean, within
// the pace its three processes measured past the prefetch (243.16 to
// 400.41 ms a step), where the median step alone replayed at 101.79 ms.
func TestReplayWorkersBursts(t *testing.T) {
	app := fixtureGrouper(t, "host28/spk.workers.json.gz").App()
	if app.Feed < 0.24316 || app.Feed > 0.40041 || app.PricedStep < app.Feed {
		t.Errorf("spk.workers: fed every %.2f ms, priced on %.2f ms a step; want the workers' pace, 243.16 to 400.41 ms", 1e3*app.Feed, 1e3*app.PricedStep)
	}
}

// TestReplayUnrepeated: on fixtures/host30's crf.workers the CRF's loops
// between the step's reads (_validate's and the decode's) run one
// iteration a token of the batch's longest sentence, so their launches
// repeat in no other step: a graph of the regions between the reads
// holds none of them as they are, they replay eager, and the graph gains
// under 5% (59.8% when they were graphed, padded). On fixtures/host22's
// ddpm.default each sampling step's body between two reads launches the
// same kernels in every step: every region repeats (graphs measured
// 16.9% there, fixtures/host22b).
func TestReplayUnrepeated(t *testing.T) {
	if testing.Short() {
		t.Skip("reads host30's crf.workers")
	}
	graph := analysis.Lever{Graphs: true, Pad: true}
	tl := fixtureGrouper(t, "host30/crf.workers.json.gz").Timeline
	un := tl.Unrepeated(graph)
	if un.Regions == 0 || un.Frame != "host30.py(437): _compute_normalizer" || len(un.Counts) != un.Steps || slices.Min(un.Counts) == slices.Max(un.Counts) {
		t.Errorf("crf.workers: unrepeated %+v; want the CRF's loops at host30.py(437): _compute_normalizer, their launches changing from step to step", un)
	}
	if r, ok := tl.Replay(graph); !ok || r.Gain() > 0.05 {
		t.Errorf("crf.workers: the graph of the regions between the reads gains %.1f%%; want under 5%% (the loops' regions eager)", 100*r.Gain())
	}
	tl = fixtureGrouper(t, "host22/ddpm.default.json.gz").Timeline
	if n, u := analysis.RepeatRegions(tl, analysis.Lever{Graphs: true}); n < 100 || u != 0 {
		t.Errorf("ddpm.default: %d of %d regions between the reads unrepeated; want every sampling step's body repeated", u, n)
	}
}
