package analysis_test

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host38Read says whether fixtures/host38 (held out: captured at 14:37
// and landed unread) has had its one read. Until it is set, at the
// lead's read with main as it is then, hostCalibration skips host38's
// rows, its frame checks, its cause splits, host38Checks and its section
// of the calibration doc, so that no test runs profan on its traces; its
// timings are loaded (they are the rows' truth, written before the
// read). internal/rules' host38Read is the same switch.
const host38Read = true

// host38Traces are fixtures/host38's four traces, read with host38Read.
var host38Traces = []string{"retr.default", "retr.nocache", "sat.default", "sat.bf16"}

// host38Held says whether a capture or row of hostCalibration is
// host38's and skipped until its read.
func host38Held(name string) bool {
	return !host38Read && (strings.HasPrefix(name, "retr.") || strings.HasPrefix(name, "sat."))
}

// host38Checks holds, on fixtures/host38's traces (held out: written
// before profan first read them), what the rows of hostCalibration do
// not. retr: torch.cuda.empty_cache() after every step gives the cached
// blocks back (9 cudaFree a profiled step, 1.2 ms) and the next step
// allocates them again (9 cudaMalloc, 1.8 ms): allocator time named by
// the step's frame, and on retr.nocache, which makes neither call, no
// allocator-churn advice; torch.nonzero of the hard negatives in
// TwoTower.forward and loss.item() in step wait for the GPU: sync time
// named by those frames on both retr traces. The nonzero's shape keeps
// both retr traces from capture: cuda-graphs never first on either.
// Adam's 36 reads a step of its CPU step counts wait for no GPU, never
// named as syncs. Neither family has a DataLoader: data-loader is never
// advised. sat's batch is copied from pinned memory (only its 4 MB mask
// goes to pageable memory, 0.23 ms a step): pinned-memory never first on
// either sat trace. No launch-bound time of the four traces is named by
// a Python frame.
//
// Added at the read, as host37Checks names each read: sat's mask read
// back with .cpu() in step, named as host sync by its frame on both
// sat traces. A check with a miss note failed at the read and is
// reported, not held.
//
// The frames carry host38.py's line numbers at 6008d20 (gen/'s; a
// frame carries its function's first line).
func host38Checks(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	// Every trace is the "before" of a row; read here should a row be
	// dropped.
	for _, name := range host38Traces {
		if read[name] == nil {
			gr := fixtureGrouper(t, "host38/"+name+".json.gz")
			read[name], tls[name] = gr.App(), gr.Timeline
		}
	}
	for _, c := range []struct{ trace, cause, names, miss string }{
		// empty_cache's cudaFree calls, in step.
		{"retr.default", verdict.IdleAlloc, "host38.py(168): step", ""},
		// The hard negatives' nonzero in forward, loss.item() in step.
		{"retr.default", verdict.IdleSync, "host38.py(121): forward", ""},
		{"retr.default", verdict.IdleSync, "host38.py(168): step", ""},
		{"retr.nocache", verdict.IdleSync, "host38.py(121): forward", ""},
		{"retr.nocache", verdict.IdleSync, "host38.py(168): step", ""},
		// Added at the read: sat's .cpu() of the mask in step.
		{"sat.default", verdict.IdleSync, "host38.py(293): step", ""},
		{"sat.bf16", verdict.IdleSync, "host38.py(293): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	for _, name := range host38Traces {
		for i, r := range read[name].Recommendations {
			switch {
			case r.Rule == "data-loader":
				t.Errorf("%s: data-loader advised on a step with no DataLoader: %s", name, r.Message)
			case r.Rule == "allocator-churn" && name == "retr.nocache":
				t.Errorf("%s: allocator-churn advised on a step that neither frees nor allocates: %s", name, r.Message)
			case r.Rule == "pinned-memory" && i == 0 && strings.HasPrefix(name, "sat."):
				t.Errorf("%s: pinned-memory first on a batch copied from pinned memory: %s", name, r.Message)
			}
		}
	}
	launchNotPython(t, tls, host38Traces...)
	misses = append(misses, graphsNotFirst(t, read, []missCase{{"retr.default", ""}, {"retr.nocache", ""}})...)
	noStepCountReads(t, read, tls, "retr.default", "retr.nocache")
	return misses
}

// host38Expected is fixtures/host38's section, written before its read
// and rendered from it on (host38Read).
const host38Expected = `
### fixtures/host38's expected rows, written before the read

` + "`fixtures/host38`" + ` (H200, 2026-12-02 14:37–14:41, one device call) was captured after the fits began and landed at
once, unread; these rows were written from its unprofiled timings before profan read its traces, and committed before
the read, their checks skipped until it (host38Read). Every variant has three processes (each default four: a fourth
timed before the rounds; fixtures/README.md). *First* (measured) is the lever with the largest positive measured gain
of those measured alone from the step; a row of more than one rule carries none. Rows start from the traced variants
(retr.default, retr.nocache, sat.default, sat.bf16). On retr.default the allocator's cache kept is first (the reads
removed measured 8.3% slower, inside the 20.2% spread); from retr.nocache only the reads removed were measured (9.0%,
a combination row: none is first); on sat.default the side-stream copy is first, above bf16; from sat.bf16 the
side-stream copy is the one lever measured and first. Untraced, so in no row: from retr.noread the cache kept 36.9%
(spread 9.9%), from sat.overlap bf16 17.4% (spread 8.3%).

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| retr.default → retr.nocache | allocator-churn (no torch.cuda.empty_cache() in the loop) | yes | 24.9% | 20.2% |
| retr.default → retr.noread | host-read+step-read (the hard negatives as a mask, the loss read every 100 steps) | | 8.3% slower | 20.2% |
| retr.default → retr.all | allocator-churn+host-read+step-read | | 31.7% | 20.2% |
| retr.nocache → retr.all | host-read+step-read | | 9.0% | 4.6% |
| sat.default → sat.overlap | copy-overlap (the next batch copied on a side stream) | yes | 34.5% | 7.6% |
| sat.default → sat.bf16 | bf16-autocast | | 13.0% | 2.1% |
| sat.default → sat.all | copy-overlap+bf16-autocast | | 45.9% | 8.3% |
| sat.bf16 → sat.all | copy-overlap | yes | 37.8% | 8.3% |

Expected besides: retr's kernels take 7.9 ms a profiled step (354 kernels: the two towers, the 4096 × 8192 logits,
the embedding tables' dense gradients, Adam's foreach step over 193M parameters; retr.all runs 9.07 ms): in its
default ` + "`torch.cuda.empty_cache()`" + ` after every step gives the cached blocks back (9 ` + "`cudaFree`" + ` a profiled
step, 1.2 ms, each synchronising the device) and the step allocates them again (9 ` + "`cudaMalloc`" + `, 1.8 ms):
allocator time named by ` + "`host38.py(168): step`" + `, allocator-churn's advice naming ` + "`torch.cuda.empty_cache()`" + ` there;
without it the step gains 24.9%. The hard negatives' ` + "`torch.nonzero`" + ` in ` + "`host38.py(121): forward`" + ` and
` + "`loss.item()`" + ` in ` + "`host38.py(168): step`" + ` wait for the GPU (two syncs a step, 2.0 to 2.4 ms as traced): sync time
named by those frames on both retr traces; their removal (the mask's softplus over all 4096 × 4096 sampled pairs in
their place) gains 9.0% once the cache is kept and nothing measurable beside ` + "`empty_cache`" + `'s own syncs (8.3% slower,
inside the 20.2% spread). cuda-graphs is never first on either retr trace (the nonzero's shape); Adam's 36 reads a
step of its CPU step counts wait for no GPU and are named as no sync; no DataLoader, so no data-loader advice; no
allocator-churn on retr.nocache (no cudaMalloc or cudaFree in its steps). sat's step is its copy and its kernels in
series: the 218 MB batch's host-to-device copy from pinned memory (3.94 ms a step, 55 GB/s) on the default stream
ahead of 5.08 ms of kernels (119 a step), the 4 MB mask read back with ` + "`.cpu()`" + ` (0.23 ms) in
` + "`host38.py(293): step`" + `; the copy on a side stream gains 34.5%, bf16 13.0% (3.70 ms of kernels), both 45.9%, leaving
a step (5.58 ms) near the copy's time; from bf16 the side-stream copy gains 37.8%. The batch is pinned already:
pinned-memory is never first on either sat trace. CUDA graphs, torch.compile, fused optimizers, pinned buffers for
sat's mask, channels-last, larger batches and retr's sparse embedding gradients were not timed. The four traces'
cause splits sum to the wall, and no launch-bound time is named by a Python frame.
`

// host38FirstRead is fixtures/host38's first read (readhost's, at the
// lead's hand), rendered with host38Read.
const host38FirstRead = `
### fixtures/host38's first read

Read once with main at 0bc6263 (15:00, VerdictVersion 216), this test and ` + "`profan analyze`" + ` on each trace, the rows
above kept as written (a miss note added). The replayed unprofiled steps: retr.default 13.363 ms (measured 13.27),
retr.nocache 10.131 ms (9.96), sat.default 10.070 ms (10.32), sat.bf16 8.862 ms (8.97).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| retr.default → retr.nocache | allocator-churn | 2 | 18.2% | 24.9% | 20.2% | no: within its tolerance, not first (fused-optimizer first, 19.7%) |
| retr.default → retr.noread | host-read+step-read | | 2.6% | 8.3% slower | 20.2% | yes |
| retr.default → retr.all | allocator-churn+host-read+step-read | | 35.9% | 31.7% | 20.2% | yes |
| retr.nocache → retr.all | host-read+step-read | | 16.1% | 9.0% | 4.6% | yes |
| sat.default → sat.overlap | copy-overlap | 6 | 2.2% | 34.5% | 7.6% | no: 22.3 points past its tolerance, sixth |
| sat.default → sat.bf16 | bf16-autocast | | none | 13.0% | 2.1% | no: 3.0 points past its tolerance |
| sat.default → sat.all | copy-overlap+bf16-autocast | | 9.5% (bf16-autocast: none) | 45.9% | 8.3% | no: 26.5 points past its tolerance |
| sat.bf16 → sat.all | copy-overlap | 5 | 3.6% | 37.8% | 8.3% | no: 24.3 points past its tolerance, fifth |

Three of the eight rows hold, all three retr's combinations of the reads; the first lever is the one measured first on
none of the three steps a lever alone was measured first from: on retr.default allocator-churn is second (18.2%,
measured 24.9%) behind fused-optimizer (19.7%, not measured), on sat.default copy-overlap sixth (2.2%, measured 34.5%;
channels-last first at 13.0%, torch-compile 10.0%, pinned-memory 7.3%, bf16-weights 6.7%, cuda-graphs 3.1%, none
measured), on sat.bf16 fifth (3.6%, measured 37.8%; torch-compile first at 11.3%). Where the measured gaps exceed the
spread the order holds in sign only: on retr the cache kept (24.9%) above the reads removed (8.3% slower), priced 18.2%
above 2.6%; on sat the side-stream copy (34.5%) above bf16 autocast (13.0%), priced 2.2% above none. Named with their
frames, every check holds: retr's allocator time at ` + "`host38.py(168): step`" + ` (10.52 ms, 12.6% of the traced wall:
` + "`torch.cuda.empty_cache()`" + `'s ` + "`cudaFree`" + ` 4.91 ms, the ` + "`cudaMalloc`" + ` calls that fill the cache again under
EmbeddingBackward0 2.10 ms, ` + "`aten::matmul`" + ` at ` + "`host38.py(121): forward`" + ` 1.31 ms) and allocator-churn's advice naming
` + "`torch.cuda.empty_cache()`" + ` there; its reads as host-sync time on both retr traces, ` + "`loss.item()`" + ` at
` + "`host38.py(168): step`" + ` (1.18 ms; 0.99 ms on retr.nocache) and the hard negatives' ` + "`.nonzero()`" + `
(` + "`aten::nonzero_numpy`" + `) at ` + "`host38.py(121): forward`" + ` (0.15 ms; 0.17 ms), host-read's advice naming the
` + "`.nonzero()`" + ` at its frame and step-read's the ` + "`.item()`" + ` at its; no allocator-churn on retr.nocache; cuda-graphs
not first on either retr trace (sixth, not priced: the ` + "`.nonzero()`" + `'s shapes keep the step from capture, named);
Adam's CPU step-count reads named as no sync; no data-loader advice on any of the four traces; pinned-memory third on
both sat traces (7.3%, 8.2%: the mask's pageable ` + "`.cpu()`" + `, 16.8 MB in the four steps), never first; sat's
` + "`.cpu()`" + ` as host-sync time at ` + "`host38.py(293): step`" + ` on both sat traces (0.03 and 0.05 ms; added at the read); the
four cause splits sum to the wall (retr.default 83.46 ms: 38.4% busy, 36.0% launch-bound, 12.6% allocator, 9.4% other
Python, 1.6% host sync, 1.0% copy calls, 0.9% queued; retr.nocache 66.10 ms: 48.3% busy, 35.6% launch-bound, 11.7%
other Python, 1.8% host sync, 1.6% queued, 1.1% copy calls; sat.default 43.53 ms: 85.2% busy, 10.7% other Python,
1.8% queued, 1.3% copy calls, 0.9% launch-bound, 0.1% host sync; sat.bf16 38.33 ms: 83.1% busy, 11.3% other Python,
2.6% queued, 1.7% copy calls, 1.0% launch-bound, 0.3% host sync) and no launch-bound time is named by a Python frame
(retr's by autograd's embedding and linear backward, EmbeddingBackward0 10.75 ms and AddmmBackward0 3.30 ms; sat's by
` + "`aten::to`" + `, 0.33 ms). Missed, by mechanism:

- *The copy moved beside the kernels held at the traced GPU union (sat).* The 218 MB batch copy from pinned memory
  (3.94 ms a step, 55 GB/s) runs on the default stream ahead of 5.08 ms of kernels; copy-overlap moves the
  host-to-device copies to a side lane in the replay, but no step replays shorter than its GPU work's traced union,
  scaled by its replayed length over its traced one (busyTraced, the floor added in 9fa7574 for cuDNN's side streams
  on host33's w2v), and that union holds the copy and the kernels in series (9.27 ms a step of 10.070 replayed on
  sat.default), the side-lane copy counted in the replayed length: the lever gains what the host left beside it,
  0.22 ms a step beyond pinned-memory's (its lever carries pinned-memory's for the mask's pageable ` + "`.cpu()`" + `, its
  price the difference), where the prefetch measured 3.57 ms (10.32 → 6.75 ms); on sat.bf16 0.31 ms against 3.39
  (8.97 → 5.58). By the code and these figures; no replay without the floor was run.
- *Autocast on an inference step (sat).* bf16-autocast requires a training step (a backward or an optimizer) and sat's
  loop runs under ` + "`no_grad`" + `: not advised, priced none against 13.0% (3.0 points past the 10-point tolerance); for
  inference profan advises bf16-weights (6.7%, fourth), a change not timed. The combination with the side-stream copy
  replays copy-overlap's lever alone: 9.5% against 45.9%.
- *An unmeasured lever ranked first (retr).* allocator-churn prices the step without ` + "`empty_cache()`" + `'s 9
  ` + "`cudaFree`" + ` a step (1.23 ms as traced, each synchronising the device) and the 9 ` + "`cudaMalloc`" + ` that refill the
  cache (1.79 ms): 2.434 ms of the 13.363 ms replayed step, 18.2% against 24.9% (3.31 ms), inside the 20.2% spread;
  fused-optimizer prices Adam's foreach update over the 193M parameters (280 launches in the four steps, 48.3% of the
  kernel time) at 2.633 ms a step, 19.7%, first, a lever not timed on retr: the order is not measured either way.

Seen besides, no row or check of its own: fused-optimizer is first on retr.nocache too (26.1%), step-read third there
(9.4%, against 1.5% on retr.default), host-read fourth (5.1%; on retr.default 1.0%, marked not worth making for
itself); the reads removed are priced 16.1% from retr.nocache against 9.0% measured (within the 10-point tolerance).
retr's launch-bound time, 36.0% of the traced wall (30.02 ms: EmbeddingBackward0 10.75 ms in 719 gaps,
AddmmBackward0 3.30 ms), is not diagnosed further. TestNoSourceAdviceOnTraceLibraries passes on host38's traces.
`
