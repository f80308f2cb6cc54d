package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host34Read says whether fixtures/host34 (held out: captured at 08:17
// and 08:29 and landed unread) has had its one read. Until it is set,
// at the lead's read with main as it is then, hostCalibration skips
// host34's rows, its frame checks, its cause splits, host34Checks and
// its section of the calibration doc, so that no test runs profan on its
// traces; its timings are loaded (they are the rows' truth, written
// before the read). internal/rules' host34Read is the same switch.
const host34Read = true

// host34Traces are fixtures/host34's three traces, read with host34Read.
var host34Traces = []string{"detr.default", "depth.default", "depth.noread"}

// host34Held says whether a capture or row of hostCalibration is
// host34's and skipped until its read.
func host34Held(name string) bool {
	return !host34Read && (strings.HasPrefix(name, "detr.") || strings.HasPrefix(name, "depth."))
}

// host34Checks holds, on fixtures/host34's traces (held out: written
// before profan first read them), what the rows of hostCalibration do
// not. depth: the timeline names its main-process loading
// (DataLoadPreprocess.__getitem__: a JPEG and a 16-bit PNG decoded,
// rotated, cropped and augmented an item, under the DataLoader's
// iterator) as data time on both traces; silog_loss's reads (the
// estimate indexed by the mask depth_gt > 1.0: a data-dependent shape)
// are host-sync time named by their frame; depth.noread has no host
// read left in its step (no sync a step): neither host-read nor
// step-read advised there; BTS pins its batches already
// (pin_memory=True, non_blocking): pinned-memory never advised on
// either depth trace. detr: the HungarianMatcher's .cpu() of its cost
// (six a step, solved by SciPy on the host) is host-sync time named by
// its frame; its loader runs in main.py's two workers (the main process
// waits about 5 ms a step for a batch): data-loader never first. The
// matcher's reads and the mask's indexing keep both steps from capture:
// cuda-graphs never first on either default. AdamW's foreach steps read
// each parameter's step count with .item() from a CPU tensor: no GPU
// sync, never named as one. No launch-bound time of the three traces is
// named by a Python frame. A check with a miss note failed at the first
// read and is reported, not held.
//
// The frames carry host34.py's line numbers at f99263a (gen/'s; a
// decorated function's frame carries its decorator's line, hungarian's
// @torch.no_grad() at 458).
func host34Checks(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	// Every trace is the "before" of a row; read here should a row be
	// dropped.
	for _, name := range host34Traces {
		if read[name] == nil {
			gr := fixtureGrouper(t, "host34/"+name+".json.gz")
			read[name], tls[name] = gr.App(), gr.Timeline
		}
	}
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The Dataset's decode and augmentation, in the main process.
		{"depth.default", verdict.IdleData, "host34.py(616): __getitem__", ""},
		{"depth.noread", verdict.IdleData, "host34.py(616): __getitem__", ""},
		// silog_loss's indexing by the mask.
		{"depth.default", verdict.IdleSync, "host34.py(680): silog_loss", ""},
		// The matcher's .cpu() of its cost, six a step.
		{"detr.default", verdict.IdleSync, "host34.py(458): hungarian", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, host34Traces...)
	misses = append(misses, graphsNotFirst(t, read, []missCase{{"detr.default", ""}, {"depth.default", ""}})...)
	for i, r := range read["detr.default"].Recommendations {
		if r.Rule == "data-loader" && i == 0 {
			t.Errorf("detr.default: data-loader first on a step whose loader runs in two workers: %s", r.Message)
		}
	}
	for _, c := range []struct{ name, miss string }{
		{"depth.default", "the advice is the NaN check's loss.cpu() (host34.py(712): step, one a step, four bytes: 4 copies of 0.0 MB in 0.01 ms a profiled trace), a device-to-host copy into pageable memory, not the loader's batches (pinned, copied non_blocking); priced 27.04 us (<0.1% of the wall, under the 1% floor), its fix a pinned buffer for a scalar that step-read's fix reads every 50 steps"},
		{"depth.noread", ""},
	} {
		for _, r := range read[c.name].Recommendations {
			if r.Rule != "pinned-memory" {
				continue
			}
			if c.miss == "" {
				t.Errorf("%s: pinned-memory advised on a loader that pins already (pin_memory=True): %s", c.name, r.Message)
			} else {
				misses = append(misses, fmt.Sprintf("- %s: pinned-memory advised on a loader that pins already: %s.", c.name, c.miss))
				c.miss = ""
			}
		}
		if c.miss != "" {
			t.Errorf("%s: pinned-memory no longer advised, a known miss: drop its miss note", c.name)
		}
	}
	for _, r := range read["depth.noread"].Recommendations {
		if r.Rule == "host-read" || r.Rule == "step-read" {
			t.Errorf("depth.noread: %s advised on a step with no host read left: %s", r.Rule, r.Message)
		}
	}
	noStepCountReads(t, read, tls, host34Traces...)
	return misses
}

// host34Expected is fixtures/host34's section, written before its read
// and rendered from it on (host34Read).
const host34Expected = `
### fixtures/host34's expected rows, written before the read

` + "`fixtures/host34`" + ` (H200, 2026-12-01 08:17–08:32, two device calls) was captured after the fits began and landed at
once, unread; these rows were written from its unprofiled timings before profan read its traces, and committed before
the read, their checks skipped until it (host34Read). Every variant has three processes (detr.default four); the first
call's budget left seven variants at two processes, and the second completed them with a fourth process of
detr.default (fixtures/README.md). *First* (measured) is the lever with the largest positive measured gain of those
measured alone from the step; a row of more than one rule carries none. On detr.default no lever alone gained, so no
row is first; on depth.default the workers are, and from depth.noread.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| detr.default → detr.noread | step-read (the logged losses and the stop check on the GPU, read every 50 steps) | no | 6.8% slower | 12.3% |
| detr.default → detr.bf16 | bf16-autocast (the model under bfloat16 autocast) | no | 63.3% slower | 12.5% |
| detr.default → detr.all | step-read+bf16-autocast | | 47.0% slower | 13.8% |
| depth.default → depth.noread | host-read+step-read (silog from masked sums, the NaN check every 50 steps) | no | 1.4% slower | 13.7% |
| depth.default → depth.workers | data-loader (four workers of one thread) | yes | 75.1% | 35.2% |
| depth.default → depth.all | data-loader+host-read+step-read | | 78.1% | 13.7% |
| depth.noread → depth.all | data-loader | yes | 78.4% | 13.5% |

Expected besides: detr, sized to be bound by its GPU, is bound by its host: 35 to 59 ms of kernels in a 167 ms
unprofiled step (3897 to 3948 kernels a step: the backbone with frozen batch norm, 12 transformer layers, the six
decoder outputs' matching and losses); its 156 syncs a step (the matcher's six ` + "`.cpu()`" + ` of its cost, num_boxes'
` + "`.item()`" + `, the stop check, metric_logger's 45 reads, the matcher's CPU indices) wait about 1 ms in all: host-sync time
named by ` + "`host34.py(458): hungarian`" + `, the per-step reads in step-read's advice (` + "`host34.py(540): step`" + `). Removing the
logged reads gains nothing measured (6.8% slower, within the spread), bfloat16 autocast makes the step 63.3% slower
and both 47.0% slower: the two rows with bfloat16 hold only if profan prices the slowdown. Its loader runs in two
workers: data-loader is not first. depth is bound by its host: 21.4 ms of kernels in a 139 ms step, the main process
loading the batch (` + "`host34.py(616): __getitem__`" + ` under the DataLoader's iterator, 124 to 137 ms a profiled step):
data time named by its frame on both traces; silog_loss's reads (` + "`host34.py(680): silog_loss`" + `) host-sync time; the
workers, as data-loader's advice writes them (one thread each), gain 75.1%, the reads removed 1.4% slower, all 78.1%,
and the workers from depth.noread 78.4%. On depth.noread no host read is left (no sync a step): neither host-read nor
step-read advised; BTS pins its batches already: pinned-memory not advised on either depth trace. cuda-graphs is
never first on either default. AdamW's reads of its CPU step counts wait for no GPU and are named as no sync.
torch.compile, CUDA graphs, fused optimizers, detr's workers as the advice writes them, cuDNN's benchmark mode, the
matcher on the GPU, another worker count and depth under bf16 were not timed. The three traces' cause splits sum to
the wall, and no launch-bound time is named by a Python frame.
`

// host34FirstRead is fixtures/host34's first read (the lead's, at the
// reader's hand), rendered with host34Read.
const host34FirstRead = `
### fixtures/host34's first read

Read once with main at f4c65e8 (10:25), this test and ` + "`profan analyze`" + ` on each trace, the rows above kept as written (a
miss note added). The replayed unprofiled steps: detr.default 117.284 ms (measured 166.85; profan reads the step as
bound by its two workers, which feed a step every 117.284 ms), depth.default 167.891 ms (139.41), depth.noread
118.267 ms (141.40).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| detr.default → detr.noread | step-read | 7 | 0.0% | 6.8% slower | 12.3% | yes, by the spread |
| detr.default → detr.bf16 | bf16-autocast | 10, slower | 14.8% slower | 63.3% slower | 12.5% | no: 48.5 points under, 36.0 past the tolerance |
| detr.default → detr.all | step-read+bf16-autocast | | 14.4% slower | 47.0% slower | 13.8% | no: 32.6 points under, 18.8 past the tolerance |
| depth.default → depth.noread | host-read+step-read | 3, 6 | 1.7% | 1.4% slower | 13.7% | yes |
| depth.default → depth.workers | data-loader | 1 | 78.0% | 75.1% | 35.2% | yes, and first |
| depth.default → depth.all | data-loader+host-read+step-read | | 79.6% | 78.1% | 13.7% | yes |
| depth.noread → depth.all | data-loader | 1 | 79.0% | 78.4% | 13.5% | yes, and first |

Five of the seven rows hold; the two with bfloat16 miss in value, in the direction measured (profan prices
bf16-autocast a slowdown, "not one to make", 14.8% on detr.default) but a fifth to a third of its size. The first
lever is the one measured first on both steps a lever alone was measured first from: ` + "`data-loader`" + ` on depth.default
and depth.noread (78.0% and 79.0%, measured 75.1% and 78.4%); on detr.default no lever alone gained and profan finds
none that clears the step's noise (together under 1% of the wall), data-loader not advised (its two workers named in
use). Named with their frames, as written, every check holding but one: depth's loader
(` + "`host34.py(616): __getitem__`" + `) as data time and in data-loader's advice on both depth traces; silog_loss's reads
(` + "`host34.py(680): silog_loss`" + `) as host-sync time and in host-read's advice; the matcher's ` + "`.cpu()`" + `
(` + "`host34.py(458): hungarian`" + `) as host-sync time; detr's per-step reads in step-read's advice
(` + "`host34.py(540): step`" + `); neither read lever advised on depth.noread; cuda-graphs not first on either default (not
priced: both steps size tensors from GPU values); AdamW's CPU step-count reads named as no sync; the three cause
splits sum to the wall and no launch-bound time is named by a Python frame. TestNoSourceAdviceOnTraceLibraries passes
on host34's traces. Missed, by mechanism:

- *bfloat16 autocast on a host-bound step, slower than the FP32 trace shows.* detr.default → detr.bf16 priced 17.357
  ms slower on the 117.284 ms replayed step (the FMA and TF32 GEMMs on bf16 tensor cores, the layout conversions at
  half their bytes, against autocast's casts of each op's inputs and weights priced on the host), measured 105.55 ms
  slower (166.85 to 272.40 ms), more than the step's whole kernel time as traced (46.18 ms a profiled step): a host
  cost of the step under autocast (or kernels several times slower), not identified, which no bf16 trace was captured
  to show and a replay of the FP32 trace cannot price. detr.all misses by the same half (14.4% slower against 47.0%).
- *pinned-memory on a scalar read, not the loader.* On depth.default pinned-memory is advised (27.04 µs, under the
  1% floor) for the NaN check's ` + "`loss.cpu()`" + ` (` + "`host34.py(712): step`" + `, one four-byte copy a step into pageable
  memory), not for BTS's batches, which are pinned and copied non_blocking; the check written before the read (never
  advised on either depth trace) fails there, its fix a pinned buffer for a value step-read's fix reads every 50 steps.
`
