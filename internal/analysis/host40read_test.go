package analysis_test

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host40Read says whether fixtures/host40 (held out: captured at 18:31
// and landed unread) has had its one read. Until it is set, at the
// lead's read with main as it is then, hostCalibration skips host40's
// rows, its frame checks, its cause splits, host40Checks and its section
// of the calibration doc, so that no test runs profan on its traces; its
// timings are loaded (they are the rows' truth, written before the
// read). internal/rules' host40Read is the same switch.
const host40Read = true

// host40Traces are fixtures/host40's four traces, read with host40Read.
var host40Traces = []string{"eeg.default", "eeg.pinned", "qa.default", "qa.bf16"}

// host40Held says whether a capture or row of hostCalibration is
// host40's and skipped until its read.
func host40Held(name string) bool {
	return !host40Read && (strings.HasPrefix(name, "eeg.") || strings.HasPrefix(name, "qa."))
}

// host40Checks holds, on fixtures/host40's traces (held out: written
// before profan first read them), what the rows of hostCalibration do
// not. eeg: each step cuts 128 windows from a NumPy recording on the
// host in cut (host40.py(106)) while the GPU, synchronized at the end of
// the step before, waits: Python time named by cut on both eeg traces.
// eeg has no .item() or .cpu() read in its steps (its waits are
// torch.cuda.synchronize() and the pageable copy): no step-read or
// host-read advice on either eeg trace; on eeg.pinned the copies are
// pinned already: pinned-memory not advised there. qa has no
// torch.cuda.synchronize() and no DataLoader: no cuda-synchronize or
// data-loader advice on either qa trace; on qa.bf16 the encoder runs
// under autocast already: bf16-autocast not advised there. A CUDA graph
// removes neither eeg's NumPy cut and synchronize nor qa's tokenizing
// and reads: cuda-graphs never first on eeg.default or qa.default.
// AdamW's reads of its CPU step counts wait for no GPU, never named as
// syncs. No launch-bound time of the four traces is named by a Python
// frame.
//
// The frames carry host40.py's line numbers at 881e37e (gen/'s; a
// frame carries its function's first line).
func host40Checks(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	// Every trace is the "before" of a row; read here should a row be
	// dropped.
	for _, name := range host40Traces {
		if read[name] == nil {
			gr := fixtureGrouper(t, "host40/"+name+".json.gz")
			read[name], tls[name] = gr.App(), gr.Timeline
		}
	}
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The windows cut with NumPy while the GPU waits.
		{"eeg.default", verdict.IdlePython, "host40.py(106): cut", ""},
		{"eeg.pinned", verdict.IdlePython, "host40.py(106): cut", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	for _, name := range host40Traces {
		eeg := strings.HasPrefix(name, "eeg.")
		for _, r := range read[name].Recommendations {
			switch {
			case eeg && (r.Rule == "step-read" || r.Rule == "host-read"):
				t.Errorf("%s: %s advised on a step with no read: %s", name, r.Rule, r.Message)
			case !eeg && (r.Rule == "cuda-synchronize" || r.Rule == "data-loader"):
				t.Errorf("%s: %s advised on a step with no torch.cuda.synchronize() and no DataLoader: %s", name, r.Rule, r.Message)
			case r.Rule == "pinned-memory" && name == "eeg.pinned":
				t.Errorf("%s: pinned-memory advised on copies that are pinned already: %s", name, r.Message)
			case r.Rule == "bf16-autocast" && name == "qa.bf16":
				t.Errorf("%s: bf16-autocast advised on an encoder under autocast already: %s", name, r.Message)
			}
		}
	}
	launchNotPython(t, tls, host40Traces...)
	// Missed at the read, reported and not held: cuda-graphs first on
	// eeg.default.
	const graphsMiss = "first at 39.6% (15.572 ms of a 39.346 ms replayed step; measured 46.78), priced as the step with the host's aten ops and Python around its launches gone and its syncs kept, where the step's host time is NumPy's cut at host40.py(106): cut (104.46 ms of the 224.79 ms traced) and the synchronize after it, which a graph of the step does not remove; not timed on eeg, where the two levers measured (the synchronize removed 25.6%, pinned copies 25.4%) rank third (16.4%) and second (22.8%)"
	misses = append(misses, graphsNotFirst(t, read, []missCase{{"eeg.default", graphsMiss}, {"qa.default", ""}})...)
	noStepCountReads(t, read, tls, host40Traces...)
	return misses
}

// host40Expected is fixtures/host40's section, written before its read
// and rendered from it on (host40Read).
const host40Expected = `
### fixtures/host40's expected rows, written before the read

` + "`fixtures/host40`" + ` (H200, 2026-12-02 18:31–18:36, one device call) was captured after the fits began and landed at
once, unread; these rows were written from its unprofiled timings before profan read its traces, and committed before
the read, their checks skipped until it (host40Read). Every variant has three processes (each default four: a fourth
timed before the rounds; fixtures/README.md). *First* (measured) is the lever with the largest positive measured gain
of those measured alone from the step; a row of more than one rule carries none. Rows start from the traced variants
(eeg.default, eeg.pinned, qa.default, qa.bf16). On eeg.default the synchronize removed is first (25.6%; pinned copies
25.4%, a tie inside the 12.9% spread); from eeg.pinned the synchronize removed is the one lever measured and first; on
qa.default bf16 autocast is first (38.7%; the spans scored on the GPU 30.2%, both over the 9.4% spread); from qa.bf16
the spans on the GPU are the one lever measured and first. Untraced, so in no row: from eeg.nosync pinned copies 22.0%
(spread 20.2%), from qa.gpupost bf16 30.8% (spread 53.2%).

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| eeg.default → eeg.nosync | cuda-synchronize (the per-step synchronize and timer removed) | yes | 25.6% | 12.9% |
| eeg.default → eeg.pinned | pinned-memory (two pinned buffers, non_blocking copies on a side stream) | | 25.4% | 12.9% |
| eeg.default → eeg.all | cuda-synchronize+pinned-memory | | 42.0% | 20.2% |
| eeg.pinned → eeg.all | cuda-synchronize | yes | 22.3% | 20.2% |
| qa.default → qa.gpupost | step-read (the batch's spans scored on the GPU, one read) | | 30.2% | 9.4% |
| qa.default → qa.bf16 | bf16-autocast | yes | 38.7% | 9.4% |
| qa.default → qa.all | step-read+bf16-autocast | | 51.7% | 53.2% |
| qa.bf16 → qa.all | step-read | yes | 21.2% | 53.2% |

Expected besides: eeg is bound by its host: 314 kernels a profiled step, 14.0 ms of kernel time, 9.5 ms of pageable
copy of its 67 MB batch, in steps of 56 ms as traced (46.78 ms unprofiled); the GPU waits while ` + "`host40.py(106): cut`" + `
cuts the next windows with NumPy (Python time named by cut on both eeg traces), since ` + "`torch.cuda.synchronize()`" + ` in
` + "`host40.py(173): step`" + ` (` + "`host40.py(193): step`" + ` pinned) ends every step and the pageable copy waits as well;
cuda-synchronize's advice names that frame on both eeg traces. Removing the synchronize (25.6%) lets the next cut
overlap the GPU's step; pinned copies (25.4%) cut the copy to 1.2 ms a step; both 42.0%, and from pinned the
synchronize removed 22.3%. No step-read or host-read advice on either eeg trace (no read in the steps); pinned-memory
not advised on eeg.pinned; cuda-graphs never first on eeg.default. qa is bound by its FP32 encoder and its host: 133
kernels a profiled step, 17.8 ms of kernel time (2.5 ms under bf16), some 7300 WordPiece calls tokenizing 32
requests, then 64 ` + "`.cpu()`" + ` reads of the start and end logits in ` + "`host40.py(384): step`" + ` and NumPy's scoring a
step (step-read's advice names that frame on both qa traces): bf16 autocast 38.7%, the spans scored on the GPU with
one read 30.2%, both 51.7% (qa.all's three processes 13.97 to 24.45 ms), from bf16 the spans on the GPU 21.2%. No
cuda-synchronize or data-loader advice on either qa trace; bf16-autocast not advised on qa.bf16; cuda-graphs never
first on qa.default. AdamW's reads of its CPU step counts wait for no GPU and are named as no sync. torch.compile,
TF32, DataLoader workers for eeg's cut, a fast tokenizer, CUDA graphs and larger batches were not timed. The four
traces' cause splits sum to the wall, and no launch-bound time is named by a Python frame.
`

// host40FirstRead is fixtures/host40's first read (readhost2's, at the
// lead's hand), rendered with host40Read.
const host40FirstRead = `
### fixtures/host40's first read

Read once with main at bf09b1e2 (18:58, VerdictVersion 231), this test and ` + "`profan analyze`" + ` on each trace, the rows
above kept as written (miss notes added); rerun on 5d32c767 (VerdictVersion 232: cas-loop's guarded CAS minimum) and on
22dae90c (VerdictVersion 233: a whole run's read of its results kept under every lever) before landing, where no
figure moved. The replayed unprofiled steps: eeg.default 39.346 ms (measured 46.78),
eeg.pinned 27.170 ms (34.91), qa.default 44.968 ms (40.79), qa.bf16 25.912 ms (24.99).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| eeg.default → eeg.nosync | cuda-synchronize | 3 | 16.4% | 25.6% | 12.9% | no: within its tolerance, not first (cuda-graphs first, 39.6%) |
| eeg.default → eeg.pinned | pinned-memory | 2 | 22.8% | 25.4% | 12.9% | yes |
| eeg.default → eeg.all | cuda-synchronize+pinned-memory | | 40.7% | 42.0% | 20.2% | yes |
| eeg.pinned → eeg.all | cuda-synchronize | 6 | 0.4% | 22.3% | 20.2% | no: 1.7 points past its tolerance |
| qa.default → qa.gpupost | step-read | 1 | 56.8% | 30.2% | 9.4% | no: 16.5 points past its tolerance |
| qa.default → qa.bf16 | bf16-autocast | 6 | 16.2% | 38.7% | 9.4% | no: 12.5 points past its tolerance |
| qa.default → qa.all | step-read+bf16-autocast | | 59.4% | 51.7% | 53.2% | yes |
| qa.bf16 → qa.all | step-read | 2 | 32.2% | 21.2% | 53.2% | no: within its tolerance, not first (cuda-graphs first, 57.9%) |

Three of the eight rows hold, eeg.default's pinned copies and its combination and qa.default's combination; the first
lever is the one measured first on none of the four steps. On eeg.default the two levers measured tie (the synchronize
removed 25.6%, pinned copies 25.4%, inside the 12.9% spread), so either first would be fair; profan ranks
pinned-memory second (22.8%) and cuda-synchronize third (16.4%, within its tolerance), behind cuda-graphs (39.6%, not
timed). From eeg.pinned cuda-synchronize is priced 0.4%, sixth, where it measured 22.3% and first; cuda-graphs is first
there (43.8%, not timed). On qa.default step-read is first (56.8%, measured 30.2%) and bf16-autocast sixth (16.2%,
measured 38.7% and first); from qa.bf16 step-read is second (32.2%, measured 21.2% and first, within its tolerance),
behind cuda-graphs (57.9%, not timed). The kernel-side lever is priced with its host floor: bf16-autocast on qa.default,
its FP32 GEMMs on the FMA pipe (100 launches, 86.6% of the kernel time) and FP32 attention (24 launches, 8.0%) moved to
bf16 and autocast's casts priced on the host, 7.285 ms of the 44.968 ms replayed step, where tf32 and bf16-weights
(the same GEMMs without the casts) reach the floor at 8.119 ms each; measured 15.80 ms (38.7%). Named with their
frames, every check holds but one: Python time named by ` + "`host40.py(106): cut`" + ` on both eeg traces (104.46 ms of
eeg.default's 224.79 ms traced, 84.47 ms of eeg.pinned's 175.58); cuda-synchronize's advice naming
` + "`host40.py(173): step`" + ` on eeg.default and ` + "`host40.py(193): step`" + ` on eeg.pinned; step-read's naming the ` + "`.cpu()`" + ` at
` + "`host40.py(384): step`" + ` on both qa traces; no step-read or host-read advice on either eeg trace; pinned-memory not
advised on eeg.pinned; no cuda-synchronize or data-loader advice on either qa
trace; bf16-autocast not advised on qa.bf16 (named as in use); cuda-graphs not first on qa.default (second, 39.9%);
AdamW's CPU step-count reads named as no sync; the four cause splits sum to the wall (eeg.default 224.79 ms: 48.8%
other Python, 41.9% busy, 6.9% launch-bound, 1.4% host sync, 0.6% queued, 0.5% copy calls; eeg.pinned 175.58 ms:
54.4% other Python, 34.8% busy, 9.8% launch-bound, 0.8% queued, 0.2% host sync, 0.1% copy calls; qa.default 288.09
ms: 66.0% other Python, 24.8% busy, 7.1% launch-bound, 1.3% copy calls, 0.7% host sync, 0.1% queued; qa.bf16 211.45
ms: 80.9% other Python, 11.5% launch-bound, 5.0% busy, 1.6% copy calls, 0.9% host sync, 0.1% queued) and no
launch-bound time is named by a Python frame (eeg's by ` + "`aten::conv1d`" + ` and ` + "`aten::batch_norm`" + `, qa's by ` + "`aten::to`" + `,
15.69 and 12.93 ms, ` + "`aten::select`" + ` and ` + "`aten::linear`" + `). Missed: cuda-graphs first on eeg.default (39.6%). Missed,
by mechanism:

- *The synchronize's wait not in the pinned replay (eeg.pinned).* eeg.pinned replays at 27.170 ms where it measured
  34.91, about where the synchronize removed measured (eeg.all, 27.14): cuda-synchronize finds 0.112 ms left to take
  (0.4%, against 22.3%, 1.7 points past the 20.2-point tolerance). eeg.default replays short too (39.346 ms against
  46.78), cuda-synchronize there 16.4% against 25.6% (within its tolerance; not first). By these figures; where the
  replay loses the synchronize's wait was not traced further.
- *The qa host replayed long (qa.default).* The FP32 step replays at 44.968 ms where it measured 40.79 (10% over)
  while the bf16 step lands near (25.912 against 24.99): step-read prices the 64 reads' loop at 25.520 ms (56.8%,
  first) where the spans on the GPU measured 12.33 ms saved (30.2%; 16.5 points past), and the kernel levers meet
  the replayed host's floor (tf32 and bf16-weights 8.119 ms, bf16-autocast 7.285 ms with its casts) where bf16
  measured 15.80 ms saved (38.7%; 12.5 points past). By these figures; not traced further.
- *Unmeasured levers ranked first.* cuda-graphs is first on eeg.default (a check missed), eeg.pinned (43.8%) and
  qa.bf16 (57.9%, the loop's body between its reads as graphs); none timed, so the order against the levers measured
  is not measured there, and on eeg a graph does not remove the NumPy cut the step's host spends most of its time in.

Seen besides, no row or check of its own: item-loop third on both qa traces (23.6%, 29.4%) for a loop at
` + "`numpy/_core/multiarray.py(406): where`" + ` (62 items a step: aten::to, aten::detach,
aten::resolve_conj, aten::resolve_neg, aten::select), its fix worded for an augmentation loop (random parameters, crops and flips); channels-last
fourth on eeg.default (7.9%) and second on eeg.pinned (10.5%); torch-compile fifth and third on eeg (4.9%, 6.4%);
tf32 and bf16-weights 18.1% each on qa.default; none timed. TestNoSourceAdviceOnTraceLibraries passes on host40's
traces.
`
