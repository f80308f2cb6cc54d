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
const host39Read = true

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
	// Missed at the read, reported and not held: tf32 listed on
	// nbeats.tf32 for cuBLASLt's split-K reduction.
	const tf32Miss = "tf32 listed fourth of five, priced 3.4% slower (1.470 ms of a 42.998 ms replayed step) and marked not one to make, for one \"FP32 GEMM/convolution kernel on the FMA pipe\" (600 launches, 3.7% of the kernel time): cublasLt::splitKreduce_kernel, the split-K reduction cuBLASLt runs after its TF32 GEMMs, read as a GEMM of its own; the four GEMMs run TF32 tensor-core kernels (52.0% of the time)"
	tf32Missed := false
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
				misses = append(misses, "- nbeats.tf32: tf32 advised on matmuls that run TF32 already: "+tf32Miss+".")
				tf32Missed = true
			}
		}
	}
	if !tf32Missed {
		t.Errorf("nbeats.tf32: tf32 no longer advised, a known miss: drop its miss note")
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

// host39FirstRead is fixtures/host39's first read (readhost's, at the
// lead's hand), rendered with host39Read.
const host39FirstRead = `
### fixtures/host39's first read

Read once with main at e849d67 (18:03, VerdictVersion 229), this test and ` + "`profan analyze`" + ` on each trace, the rows
above kept as written (a miss note added); rerun on 5ed893e (VerdictVersion 230: a received transfer's native calls
kept whole in the replay) before landing, where one figure moved: draw.workers replays at 7.016 ms (7.012 at the
read) and step-read there at 13.8%, third (13.7%, fourth, at the read, cuda-graphs' 13.8% then above it). The
replayed unprofiled steps: draw.default 62.083 ms (measured 58.18), draw.workers 7.016 ms (7.13), nbeats.default
44.868 ms (33.53), nbeats.tf32 42.998 ms (35.41).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| draw.default → draw.workers | data-loader | 1 | 78.3% | 87.7% | 26.9% | yes |
| draw.default → draw.noread | step-read | | 3.7% | 15.4% | 26.9% | yes |
| draw.default → draw.all | data-loader+step-read | | 78.3% | 89.4% | 26.9% | yes |
| draw.workers → draw.all | step-read | 3 | 13.8% | 13.8% | 10.5% | no: within its tolerance, not first (torch-compile first, 25.2%) |
| nbeats.default → nbeats.tf32 | tf32 | | 5.4% slower | 5.6% slower | 18.8% | yes |
| nbeats.default → nbeats.graphs | cuda-graphs | 1 | 38.7% | 12.4% | 18.8% | no: 7.6 points past its tolerance |
| nbeats.default → nbeats.all | tf32+cuda-graphs | | 77.4% | 57.6% | 18.8% | no: 1.0 points past its tolerance |
| nbeats.tf32 → nbeats.all | cuda-graphs | 1 | 72.0% | 59.9% | 10.3% | no: 1.8 points past its tolerance |

Four of the eight rows hold, draw.default's three and nbeats' TF32; the first lever is the one measured first on three
of the four steps: data-loader on draw.default (78.3%, measured 87.7%), cuda-graphs on nbeats.default (38.7%, measured
12.4%) and on nbeats.tf32 (72.0%, measured 59.9%); on draw.workers step-read is third (13.8%, measured 13.8%) behind
torch-compile (25.2%) and channels-last (19.7%), neither measured (at the read fourth, cuda-graphs above it too). data-loader prices draw.default's
loading (53.89 ms of the 62.08 ms replayed step, in ` + "`host39.py(133): __getitem__`" + ` under the single-process
iterator) over the four workers it advises: a 13.47 ms step, where eight workers measured 7.13;
the combination with the stop check replays at that floor too (78.3%, measured 89.4%). The kernel-side lever is priced
with its host floor: tf32 on nbeats.default, its FP32 GEMMs on the FMA pipe (2396 launches, 80.0% of the kernel time)
shrunk and the TF32 engines' host added, 2.419 ms slower of the 44.868 ms replayed step (5.4% slower, fourth, "not one
to make"), measured 5.6% slower. Named with their frames, every check holds but one: draw's loading as data time
named by the single-process iterator on draw.default (384.32 ms of the 432.60 ms traced, ` + "`__getitem__`" + ` 371.26 ms)
and by the multi-process one on draw.workers (1.19 ms), never launch-bound; data-loader's advice naming
` + "`host39.py(133): __getitem__`" + `; the stop check's ` + "`.item()`" + ` at ` + "`host39.py(187): step`" + ` as host-sync time on both draw
traces (0.07 and 0.04 ms; on draw.default the pageable batch's ` + "`.to()`" + ` syncs there too, 2.44 ms) and step-read's
advice naming it on both; cuda-graphs not first on draw.default (fifth, 2.3%); data-loader not first on draw.workers
(not advised; its workers' queue, 0.30 ms a step, named as a lever in use); no data-loader, host-read, step-read or
cuda-synchronize advice on either nbeats trace; tf32 not first on nbeats.default; Adam's CPU step-count reads named
as no sync; the four cause splits sum to the wall (draw.default 432.60 ms: 88.8% data loading, 5.5% busy, 3.2%
launch-bound, 1.5% other Python, 0.6% host sync, 0.2% copy calls, 0.1% queued; draw.workers 51.07 ms: 45.8% busy,
31.7% launch-bound, 18.4% other Python, 2.3% data loading, 0.8% queued, 0.4% copy calls, 0.4% before the first GPU
work, 0.1% host sync; nbeats.default 365.01 ms: 40.9% launch-bound, 30.1% busy, 27.9% other Python, 0.8% queued, 0.1%
copy calls, host sync 0.03 ms; nbeats.tf32 407.92 ms: 56.2% launch-bound, 30.9% other Python, 11.8% busy, 0.8% copy
calls, 0.2% queued, host sync 0.03 ms) and no launch-bound time is named by a Python frame (draw's by
` + "`aten::batch_norm`" + ` and ` + "`aten::conv2d`" + `, nbeats' by AddmmBackward0, 32.62 and 66.10 ms, and ` + "`aten::linear`" + `).
Missed, by mechanism:

- *The eager host replayed long (nbeats).* The eager step replays at 44.868 ms where it measured 33.53 (34% over;
  1386 launches a step, 7.56 µs of host a launch call as traced) and on nbeats.tf32 at 42.998 ms against 35.41 (21%
  over), while the graphed steps land near their measures (27.491 ms priced against 29.38; 12.057 against 14.21):
  cuda-graphs' price is the replayed eager host's excess over the measured step, 38.7% against 12.4% (7.6 points past
  the 18.8-point tolerance), 77.4% against 57.6% with TF32 (1.0 point past), 72.0% against 59.9% from nbeats.tf32
  (1.8 points past), first each time as measured. By these figures; where the replay's host time goes over was not
  traced further.
- *An unmeasured lever ranked first (draw.workers).* step-read prices the stop check's ` + "`loss.item()`" + ` at 0.966 ms of
  the 7.016 ms replayed step, 13.8% against 13.8% measured, third behind torch-compile (25.2%) and channels-last
  (19.7%), levers not timed on draw (at the read 0.962 ms of 7.012, fourth, cuda-graphs' 0.966 ms above it): the
  order is not measured either way.
- *cuBLASLt's split-K reduction read as an FP32 GEMM (nbeats.tf32).* With TF32 on, tf32 is still listed, fourth of
  five, priced 3.4% slower and marked not one to make, for one "FP32 GEMM/convolution kernel on the FMA pipe":
  ` + "`cublasLt::splitKreduce_kernel`" + ` (600 launches, 3.7% of the kernel time), the reduction cuBLASLt runs after its split-K
  TF32 GEMMs, its kind GEMM; the four GEMMs run TF32 tensor-core kernels (52.0%). The check (tf32 not advised on
  nbeats.tf32) fails.

Seen besides, no row or check of its own: fused-optimizer is second on both nbeats traces (14.1%, 13.0%; Adam's 7
foreach kernels, 136 launches), bf16-autocast priced slower on both (32.5%, 39.6%: autocast's casts on a host-bound
step), pinned-memory sixth on draw.default (0.4%, the pageable batch's ` + "`.to()`" + `, 8.4 MB at 13.2 GB/s), cuda-graphs fourth
on draw.workers (13.8%, 0.965 ms); none timed. TestNoSourceAdviceOnTraceLibraries passes on host39's traces.
`
