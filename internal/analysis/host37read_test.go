package analysis_test

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host37Read says whether fixtures/host37 (held out: captured at 11:50
// and landed unread) has had its one read. Until it is set, at the
// lead's read with main as it is then, hostCalibration skips host37's
// rows, its frame checks, its cause splits, host37Checks and its section
// of the calibration doc, so that no test runs profan on its traces; its
// timings are loaded (they are the rows' truth, written before the
// read). internal/rules' host37Read is the same switch.
const host37Read = true

// host37Traces are fixtures/host37's three traces, read with host37Read.
var host37Traces = []string{"kd.default", "sent.default", "sent.workers"}

// host37Held says whether a capture or row of hostCalibration is
// host37's and skipped until its read.
func host37Held(name string) bool {
	return !host37Read && (strings.HasPrefix(name, "kd.") || strings.HasPrefix(name, "sent."))
}

// host37Checks holds, on fixtures/host37's traces (held out: written
// before profan first read them), what the rows of hostCalibration do
// not. kd: the step's thread copies each 77 MB batch to the GPU from
// pageable memory (a cudaMemcpyAsync under aten::copy_, 12 to 16 ms a
// profiled step) in step: copy time named by the step's frame, never
// launch-bound; loss.item() into the meter and the batch timer's
// torch.cuda.synchronize() wait for the GPU in step: sync time named by
// the step's frame. sent: the main-process loader tokenizes every review
// in ReviewSet.__getitem__ (about 25 ms a profiled step): data time
// named by the single-process iterator, never launch-bound. The reads
// (kd's loss and synchronize, sent's lengths, loss and accuracy) keep
// both defaults from capture: cuda-graphs never first on either default.
// Adam's step-count reads (sent) wait for no GPU, never named as syncs.
// No launch-bound time of the three traces is named by a Python frame.
// Added at the read, as host36Checks has them: each loader named (kd's
// and sent.workers' by the multi-process iterator) and sent's reads
// named as host sync by their frames, on both of its traces. A check
// with a miss note failed at the read and is reported, not held.
//
// The frames carry host37.py's line numbers at c3503b5 (gen/'s; a
// frame carries its function's first line).
func host37Checks(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	// Every trace is the "before" of a row; read here should a row be
	// dropped.
	for _, name := range host37Traces {
		if read[name] == nil {
			gr := fixtureGrouper(t, "host37/"+name+".json.gz")
			read[name], tls[name] = gr.App(), gr.Timeline
		}
	}
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The pageable batch copy, in step.
		{"kd.default", verdict.IdleCopy, "host37.py(219): step", ""},
		// loss.item() and torch.cuda.synchronize(), in step.
		{"kd.default", verdict.IdleSync, "host37.py(219): step", ""},
		// The tokenizing Dataset under the single-process iterator.
		{"sent.default", verdict.IdleData, "_SingleProcessDataLoaderIter", ""},
		// Added at the read, as host36Checks names each loader and
		// read: kd's wait on its twelve workers' queue and sent's on
		// its four; sent's reads, the lengths' .to('cpu') in forward
		// and loss.item() and acc.item() in step, with the loader in
		// the main process and in workers.
		{"kd.default", verdict.IdleData, "_MultiProcessingDataLoaderIter", ""},
		{"sent.workers", verdict.IdleData, "_MultiProcessingDataLoaderIter", ""},
		{"sent.default", verdict.IdleSync, "host37.py(339): forward", ""},
		{"sent.default", verdict.IdleSync, "host37.py(376): step", ""},
		{"sent.workers", verdict.IdleSync, "host37.py(339): forward", ""},
		{"sent.workers", verdict.IdleSync, "host37.py(376): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	// The loader's and the copy's time is never launch-bound (the
	// workers' queue, queues.py, added at the read).
	for _, name := range host37Traces {
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
	launchNotPython(t, tls, host37Traces...)
	misses = append(misses, graphsNotFirst(t, read, []missCase{{"kd.default", ""}, {"sent.default", ""}})...)
	noStepCountReads(t, read, tls, host37Traces...)
	return misses
}

// host37Expected is fixtures/host37's section, written before its read
// and rendered from it on (host37Read).
const host37Expected = `
### fixtures/host37's expected rows, written before the read

` + "`fixtures/host37`" + ` (H200, 2026-12-02 11:50–11:57, one device call) was captured after the fits began and landed at
once, unread; these rows were written from its unprofiled timings before profan read its traces, and committed before
the read, their checks skipped until it (host37Read). Every variant has three processes (each default four: a fourth
timed before the rounds; fixtures/README.md). *First* (measured) is the lever with the largest positive measured gain
of those measured alone from the step; a row of more than one rule carries none. Rows start from the traced variants
(kd.default, sent.default, sent.workers). On kd.default the pinned transfer is first; on sent.default the loader in
workers is; from sent.workers only the reads removed were measured, 3.9% slower (inside the 24.6% spread): no lever
is first there. Untraced, so in no row: from kd.pinned the syncs removed 18.8% (spread 9.3%), from kd.nosync the
pinned transfer 33.1% (spread 6.6%), from sent.noread the loader in workers 25.6% (spread 21.1%).

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| kd.default → kd.pinned | pinned-memory (pin_memory=True, non_blocking) | yes | 31.3% | 9.3% |
| kd.default → kd.nosync | cuda-synchronize+step-read (no synchronize in the timer, the loss kept on the GPU) | | 16.7% | 6.6% |
| kd.default → kd.all | pinned-memory+cuda-synchronize+step-read | | 44.2% | 5.9% |
| sent.default → sent.workers | data-loader (four workers, pinned, non_blocking) | yes | 29.0% | 24.6% |
| sent.default → sent.noread | host-read+step-read (the lengths kept on the host, the loss and accuracy read every 100 steps) | | 0.8% | 18.1% |
| sent.default → sent.all | data-loader+host-read+step-read | | 26.2% | 21.1% |
| sent.workers → sent.all | host-read+step-read | | 3.9% slower | 24.6% |

Expected besides: kd is bound mostly by its GPU once its waits go (33.8 ms of kernels a step, 643 kernels: the
ResNet-34 teacher's forward, the ResNet-18 student's forward and backward, SGD's foreach step; kd.all runs 36.27 ms):
in its default the step's thread copies the 77 MB batch from pageable memory (12 to 16 ms a profiled step) and waits
on ` + "`loss.item()`" + ` and the timer's ` + "`torch.cuda.synchronize()`" + ` every step: copy time and sync time named by
` + "`host37.py(219): step`" + `, never launch-bound; pinned and non_blocking it gains 31.3%, the syncs removed 16.7%, both
44.2%. sent is bound by its host: 21.6 ms of kernels (about 4,400 a step: cuDNN's packed LSTM launches its time
steps one by one, with 600 to 800 copies a step) in a 64 ms step; the main-process loader tokenizes each review in
` + "`host37.py(313): __getitem__`" + ` (about 25 ms a profiled step): data time named by the single-process iterator, never
launch-bound; in four workers the step falls to 45.77 ms (29.0%) and stays above twice its kernels' time, by the
launches; the reads (the lengths' ` + "`.to('cpu')`" + ` in ` + "`host37.py(339): forward`" + `, ` + "`loss.item()`" + ` and ` + "`acc.item()`" + ` in
` + "`host37.py(376): step`" + `) find the GPU done and gain nothing measurable (0.8%, inside the 18.1% spread). cuda-graphs
is never first on either default. Adam's reads of its CPU step counts wait for no GPU and are named as no sync.
torch.compile, CUDA graphs, fused optimizers, bf16, channels-last, other worker counts and kd's teacher logits
precomputed were not timed. The three traces' cause splits sum to the wall, and no launch-bound time is named by a
Python frame.
`

// host37FirstRead is fixtures/host37's first read (readhost's, at the
// lead's hand), rendered with host37Read.
const host37FirstRead = `
### fixtures/host37's first read

Read once with main at 7c245f4 (12:35, VerdictVersion 208), this test and ` + "`profan analyze`" + ` on each trace, the rows
above kept as written (a miss note added). The replayed unprofiled steps: kd.default 59.583 ms (measured 65.04),
sent.default 45.846 ms (64.45), sent.workers 37.012 ms (45.77).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| kd.default → kd.pinned | pinned-memory | 1 | 20.7% | 31.3% | 9.3% | no: 0.5 points past its tolerance, first as measured |
| kd.default → kd.nosync | cuda-synchronize+step-read | | 18.9% | 16.7% | 6.6% | yes |
| kd.default → kd.all | pinned-memory+cuda-synchronize+step-read | | 39.3% | 44.2% | 5.9% | yes |
| sent.default → sent.workers | data-loader | 2 | 15.2% | 29.0% | 24.6% | no: within its tolerance, not first (larger-batch first, 50.0%) |
| sent.default → sent.noread | host-read+step-read | | 0.0% (host-read: none) | 0.8% | 18.1% | yes |
| sent.default → sent.all | data-loader+host-read+step-read | | 15.2% (host-read: none) | 26.2% | 21.1% | yes |
| sent.workers → sent.all | host-read+step-read | | 0.0% (host-read: none) | 3.9% slower | 24.6% | yes |

Five of the seven rows hold; kd.pinned misses in value by half a point, first as measured, and sent.workers in its
first only. The first lever is the one measured first on one of the two steps a lever alone was measured first from:
` + "`pinned-memory`" + ` on kd.default (20.7%, measured 31.3%; cuda-graphs second at 18.1%, channels-last 17.9%,
cuda-synchronize 17.3%); on sent.default data-loader is second (15.2%, measured 29.0%) behind larger-batch (50.0%, not
measured). Where the measured gaps exceed the spread the order holds: on kd the pinned transfer (31.3%) above the
syncs removed (16.7%), priced 20.7% above 18.9%; on sent the workers (29.0%) above the reads removed (0.8%), priced
15.2% above none. Named with their frames, every check holding but the two host-read frames: kd's pageable batch copy
as copy time (1.41 ms; its ` + "`.to()`" + ` 1.24 ms) and its reads as host-sync time (the copy's sync 1.36 ms,
` + "`loss.item()`" + ` 0.40 ms, ` + "`torch.cuda.synchronize()`" + ` 0.09 ms) at ` + "`host37.py(219): step`" + `, its wait on the twelve
workers' queue as data time named by the multi-process iterator (9.47 ms, 3.2% of the traced wall), none of it
launch-bound; sent's tokenizing Dataset as data time named by the single-process iterator (101.67 ms, 23.3%:
` + "`host37.py(313): __getitem__`" + ` 92.16 ms, ` + "`host37.py(320): collate`" + ` 7.56 ms), never launch-bound, and on sent.workers
the queue (0.77 ms) by the multi-process iterator; sent's reads as host-sync time on both traces, the lengths'
` + "`.to('cpu')`" + ` at ` + "`host37.py(339): forward`" + ` (0.02 ms) and the step's at ` + "`host37.py(376): step`" + ` (the pageable batch copies'
syncs 2.09 ms and ` + "`.item()`" + ` 0.10 ms on sent.default); the reads in step-read's advice (kd's at
` + "`host37.py(219): step`" + `, sent's at ` + "`host37.py(376): step`" + ` on both traces), kd's copy in pinned-memory's and its
synchronize in cuda-synchronize's, sent's ` + "`__getitem__`" + ` in data-loader's; cuda-graphs not first on kd.default (second,
18.1%) nor on sent.default (fourth, 1.3%); Adam's CPU step-count reads named as no sync; the three cause splits sum
to the wall (kd.default 291.48 ms: 65.6% busy, 22.7% other Python, 6.2% launch-bound, 3.2% data loading, 1.1% queued,
0.6% host sync, 0.5% copy calls; sent.default 435.55 ms: 42.7% launch-bound, 23.3% data loading, 19.6% busy, 6.6% copy
calls, 3.9% other Python, 3.3% queued, 0.5% host sync; sent.workers 306.64 ms: 54.7% launch-bound, 27.9% busy, 8.8%
copy calls, 4.6% other Python, 3.7% queued, 0.3% data loading, 0.04% host sync) and no launch-bound time is named by a
Python frame (kd's by cuDNN's convolutions and batch norms, ` + "`aten::conv2d`" + ` 2.90 ms and ` + "`aten::batch_norm`" + ` 2.34 ms;
sent's by the packed LSTM, CudnnRnnBackward0 89.72 ms and ` + "`aten::lstm`" + ` 51.46 ms). Missed, by mechanism:

- *The previous batch freed on the step's thread (kd).* pinned-memory prices the two pageable copies a step (308.3 MB
  in 55.67 ms as traced, 5.5 GB/s) at the pinned rate: 12.36 ms of the 59.58 ms replayed step, 20.7% against 31.3%
  (20.35 ms). The step's thread also spends 10.0 to 15.5 ms a profiled step, the GPU idle, in the harness's loop over
  the DataLoader (` + "`host8.py(221): forever`" + `, 55.86 ms of other Python, 22.7% of the traced wall) after the iterator's
  ` + "`__next__`" + ` has returned and before the yield, with no call recorded under it: where the loop rebinds its batch and
  the previous one, 77 MB the workers passed in shared memory (` + "`rebuild_storage_fd`" + `), is freed on the step's thread.
  Under ` + "`pin_memory=True`" + ` the pin-memory thread receives and frees the shared storages and the step's thread gets
  pinned tensors: a gain the lever's price does not hold (by the trace's timing; kd.pinned was not traced).
- *A per-sample lever ranked among wall gains, and the loader's profiler cost overcharged (sent).* larger-batch prices
  twice the batch per sample with the step's span held, 1 − max(span, 2 × busy)/(2 × span): 50.0% wherever the GPU is
  busy under half the span (19.6% here), first; the span it holds includes the main-process loader's tokenizing (23.3%
  of the traced wall), which twice the batch doubles. data-loader, second, scales the loader's 23.97 to 27.81 ms a
  profiled step (14,574 to 15,003 Python calls a step, 13,320 of them the vocabulary's ` + "`dict.get`" + ` a token, 718
  ops) to 6.93 ms unprofiled (loaderKeep: five of the trace's short-call records a Python call, ten an op), where the
  loader in workers measured 18.68 ms a step (64.45 → 45.77 ms): 15.2% against 29.0%, inside the 24.6% spread. The
  step replays at 45.846 ms against 64.45 measured; sent.workers, with no loader on its thread, at 37.012 against
  45.77.
- *A tensor read that sizes the packed sequence, read as a pageable copy (sent).* No host-read advice on either sent
  trace: the lengths' ` + "`.to('cpu')`" + ` in forward (` + "`aten::to`" + `, a device-to-host copy into pageable memory and its
  ` + "`cudaStreamSynchronize`" + `) is counted among pinned-memory's 16 pageable copies and named as the wait that keeps a graph
  from the step (cuda-graphs) and breaks a compiled one (torch-compile); host-read takes a read as sizing the work
  after it only as a scalar read (sizingRead: ` + "`aten::item`" + `, ` + "`_local_scalar_dense`" + `), so a tensor read whose values
  size ` + "`pack_padded_sequence`" + `'s batch sizes and the LSTM's launches is none, and argReads takes an op reading its own
  GPU argument, where the step's own code reads the lengths for the op. The rows hold in value: the read finds the GPU
  done (0.8% measured, inside the 18.1% spread).

Seen besides, no row or check of its own: the replay is under the measured step on both sent traces, by 8.76 ms a step
on sent.workers, whose thread loads nothing: the host of cuDNN's packed LSTM (launch-bound 54.7% of the traced wall,
17,678 launches in the four steps, the memsets and copies inside CudnnRnnBackward0 among them), not diagnosed;
bf16-autocast is priced 103.1% slower on sent.default (the casts' host on a step its host bounds) and not advised;
cuda-graphs' fix on sent.default sends the reader to pinned-memory for the syncs to remove.
TestNoSourceAdviceOnTraceLibraries passes on host37's traces.
`
