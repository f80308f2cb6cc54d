package analysis_test

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host39Read says whether fixtures/host39 (held out: captured at 17:33
// and landed unread) has had its one read. Until it is set, at the
// lead's read with main as it is then, hostCalibration skips host39's
// rows, its frame checks, its cause splits, host39Checks and its section
// of the calibration doc, so that no test runs profan on its traces; its
// timings are loaded (they are the rows' truth, written before the
// read). internal/rules' host39Read is the same switch.
const host39Read = false

// host39Traces are fixtures/host39's four traces, read with host39Read.
var host39Traces = []string{"draw.default", "draw.workers", "nbeats.default", "nbeats.tf32"}

// host39Held says whether a capture or row of hostCalibration is
// host39's and skipped until its read.
func host39Held(name string) bool {
	return !host39Read && (strings.HasPrefix(name, "draw.") || strings.HasPrefix(name, "nbeats."))
}

// host39Checks holds, on fixtures/host39's traces (held out: written
// before profan first read them), what the rows of hostCalibration do
// not. draw: the main-process loader parses ndjson and draws strokes
// with PIL in DoodleSet.__getitem__ (94 to 98 ms of 106 to 110 ms
// profiled steps): data time named by the single-process iterator on
// draw.default, by the multi-process one on draw.workers (its eight
// workers' queue, 0.2 to 0.6 ms a step), never launch-bound; the stop
// check's loss.item() in step waits for the GPU: sync time named by the
// step's frame on both draw traces. The loader holds draw.default's
// step: cuda-graphs never first there; on draw.workers the loader is in
// workers already: data-loader never first there. nbeats has no
// DataLoader and no read in its steps: no data-loader, host-read,
// step-read or cuda-synchronize advice on either nbeats trace. Its eager
// step issues 1386 kernels a step and its host outlasts its FP32
// kernels (27.4 ms a step as traced): TF32, measured 5.6% slower, is
// never first on nbeats.default, and on nbeats.tf32, whose matmuls run
// TF32 already, tf32 is not advised. Adam's reads of its CPU step counts
// wait for no GPU, never named as syncs. No launch-bound time of the
// four traces is named by a Python frame.
//
// The frames carry host39.py's line numbers at e78bb77 (gen/'s; a
// frame carries its function's first line).
func host39Checks(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	// Every trace is the "before" of a row; read here should a row be
	// dropped.
	for _, name := range host39Traces {
		if read[name] == nil {
			gr := fixtureGrouper(t, "host39/"+name+".json.gz")
			read[name], tls[name] = gr.App(), gr.Timeline
		}
	}
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The ndjson parsed and drawn under the single-process
		// iterator; the wait on eight workers' queue.
		{"draw.default", verdict.IdleData, "_SingleProcessDataLoaderIter", ""},
		{"draw.workers", verdict.IdleData, "_MultiProcessingDataLoaderIter", ""},
		// The stop check's loss.item(), in step.
		{"draw.default", verdict.IdleSync, "host39.py(187): step", ""},
		{"draw.workers", verdict.IdleSync, "host39.py(187): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	// The loader's time is never launch-bound.
	for _, name := range []string{"draw.default", "draw.workers"} {
		for _, idle := range tls[name].Idle {
			if idle.Cause != verdict.IdleLaunch {
				continue
			}
			for _, call := range idle.Calls {
				if strings.Contains(call.Name, "DataLoader") || strings.Contains(call.Name, "queues.py") || strings.Contains(idleCallName(call), "__getitem__") {
					t.Errorf("%s: the loader's work named as launch-bound time: %s", name, idleCallName(call))
				}
			}
		}
	}
	for _, name := range host39Traces {
		nbeats := strings.HasPrefix(name, "nbeats.")
		for i, r := range read[name].Recommendations {
			switch {
			case nbeats && (r.Rule == "data-loader" || r.Rule == "host-read" || r.Rule == "step-read" || r.Rule == "cuda-synchronize"):
				t.Errorf("%s: %s advised on a step with no DataLoader and no read: %s", name, r.Rule, r.Message)
			case r.Rule == "data-loader" && i == 0 && name == "draw.workers":
				t.Errorf("%s: data-loader first on a step that loads in eight workers: %s", name, r.Message)
			case r.Rule == "tf32" && i == 0 && name == "nbeats.default":
				t.Errorf("%s: tf32 first where the host outlasts the FP32 kernels (measured 5.6%% slower): %s", name, r.Message)
			case r.Rule == "tf32" && name == "nbeats.tf32":
				t.Errorf("%s: tf32 advised on matmuls that run TF32 already: %s", name, r.Message)
			}
		}
	}
	launchNotPython(t, tls, host39Traces...)
	misses = append(misses, graphsNotFirst(t, read, []missCase{{"draw.default", ""}})...)
	noStepCountReads(t, read, tls, host39Traces...)
	return misses
}

// host39Expected is fixtures/host39's section, written before its read
// and rendered from it on (host39Read).
const host39Expected = `
### fixtures/host39's expected rows, written before the read

` + "`fixtures/host39`" + ` (H200, 2026-12-02 17:33–17:38, one device call) was captured after the fits began and landed at
once, unread; these rows were written from its unprofiled timings before profan read its traces, and committed before
the read, their checks skipped until it (host39Read). Every variant has three processes (each default four: a fourth
timed before the rounds; fixtures/README.md). *First* (measured) is the lever with the largest positive measured gain
of those measured alone from the step; a row of more than one rule carries none. Rows start from the traced variants
(draw.default, draw.workers, nbeats.default, nbeats.tf32). On draw.default the loader in workers is first (the stop
check every 50 steps 15.4%, inside the 26.9% spread); from draw.workers the read removed is the one lever measured
and first; on nbeats.default CUDA graphs are first (12.4%, inside the 18.8% spread; TF32 measured 5.6% slower, inside
it too); from nbeats.tf32 CUDA graphs are the one lever measured and first. Untraced, so in no row: from draw.noread
the loader in workers 87.5% (spread 16.2%), from nbeats.graphs TF32 51.6% (spread 0.2%).

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| draw.default → draw.workers | data-loader (8 workers, pinned, persistent, non_blocking) | yes | 87.7% | 26.9% |
| draw.default → draw.noread | step-read (the stop check every 50 steps on a GPU sum) | | 15.4% | 26.9% |
| draw.default → draw.all | data-loader+step-read | | 89.4% | 26.9% |
| draw.workers → draw.all | step-read | yes | 13.8% | 10.5% |
| nbeats.default → nbeats.tf32 | tf32 (matmul.allow_tf32) | | 5.6% slower | 18.8% |
| nbeats.default → nbeats.graphs | cuda-graphs (the whole step captured, Adam capturable) | yes | 12.4% | 18.8% |
| nbeats.default → nbeats.all | tf32+cuda-graphs | | 57.6% | 18.8% |
| nbeats.tf32 → nbeats.all | cuda-graphs | yes | 59.9% | 10.3% |

Expected besides: draw is bound by its main-process loader: 164 kernels a profiled step, 5.8 ms of kernel time, in
steps of 106 to 110 ms as traced (58.18 ms unprofiled), of which ` + "`enumerate(DataLoader)`" + ` takes 94 to 98 ms: the
ndjson parsed and each doodle drawn with PIL in ` + "`host39.py(133): __getitem__`" + `, data time named by the single-process
iterator, never launch-bound, data-loader's advice naming ` + "`__getitem__`" + `; in eight workers the step falls to 7.13 ms
(87.7%), near its kernels, and the stop check's ` + "`loss.item()`" + ` in ` + "`host39.py(187): step`" + ` (sync time named by
that frame on both draw traces) then costs 13.8% (draw.all 6.15 ms); beside the loader it gains nothing measurable
(15.4%, inside the 26.9% spread). cuda-graphs is never first on draw.default (the loader and the read); data-loader is
never first on draw.workers. nbeats is bound by its host's issue: 1386 kernels a profiled step (30 generic blocks'
linear layers forward and backward, the clipping's and Adam's multi-tensor kernels), 27.4 ms of kernel time in FP32,
11.9 ms with TF32, no read in the steps; the eager step runs 33.53 ms in FP32 and 35.41 ms with TF32 (5.6% slower,
inside the 18.8% spread: the host's issue, about 35 ms a step, outlasts both), the step captured as a CUDA graph
29.38 ms in FP32 (12.4%: the FP32 kernels' own time) and 14.21 ms with TF32 (57.6% from default, 59.9% from tf32). TF32
is never first on nbeats.default and not advised on nbeats.tf32; no data-loader, host-read, step-read or
cuda-synchronize advice on either nbeats trace. Adam's reads of its CPU step counts wait for no GPU and are named as
no sync. torch.compile, fused or foreach-free optimizers, bf16, channels-last, other worker counts and larger batches
were not timed. The four traces' cause splits sum to the wall, and no launch-bound time is named by a Python frame.
`
