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
const host40Read = false

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
	misses = append(misses, graphsNotFirst(t, read, []missCase{{"eeg.default", ""}, {"qa.default", ""}})...)
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
