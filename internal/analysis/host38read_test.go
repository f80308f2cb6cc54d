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
const host38Read = false

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
