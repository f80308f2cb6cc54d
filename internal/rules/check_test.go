package rules_test

import (
	"strings"
	"testing"
)

// checkPairs are the broken and fixed kernels of fixtures/check (sources in
// fixtures/gen/check.cu): written apart from the sweep, other code shapes
// and sizes, and never used to fit a threshold or a gain. Stream
// compaction is left out: the compiler already aggregated its per-thread
// atomics per warp, so its two builds ran alike (404 µs each) and the pair
// measures no fix.
var checkPairs = []calibPair{
	{"byteHistGlobal(float *, const unsigned char *, int)", "byteHistShared(float *, const unsigned char *, int)", "64 float bins, half of the bytes in one → privatised"},
	{"sortLocal(float *, const float *, int)", "sortNetwork(float *, const float *, int)", "insertion sort in local memory → sorting network in registers"},
	{"void switchCase<0>(float *, const float *, int)", "void switchCase<1>(float *, const float *, int)", "8-way switch on the lane → on the warp"},
	{"void aosScaleX<0>(float *, const P4 *, int)", "void soaScaleX<0>(float *, const float *, int)", "64 Ki threads: x of 16-byte structs → x array"},
	{"void aosScaleX<1>(float *, const P4 *, int)", "void soaScaleX<1>(float *, const float *, int)", "8 Mi threads: x of 16-byte structs → x array"},
	{"matvecThreadRow(float *, const float *, const float *, int, int)", "matvecWarpRow(float *, const float *, const float *, int, int)", "matrix-vector: thread per row → warp per row"},
	{"void copyOffset<1>(float *, const float *, int)", "void copyOffset<0>(float *, const float *, int)", "16 Mi floats: 4 B misaligned → aligned"},
	{"void rowSumShared<16>(float *, const float *, int)", "void rowSumShared<17>(float *, const float *, int)", "shared rows of 16 floats (16-way) → padded to 17"},
	{"void bucketIndex<0>(unsigned int *, const unsigned int *, unsigned int, int, int)", "void bucketIndex<1>(unsigned int *, const unsigned int *, unsigned int, int, int)", "/ and % by a run-time 10 → multiply-high"},
}

// TestCheckCalibration holds profan's estimated gains on the independent
// check set (fixtures/check, raw and source pages) against the measured
// ones (docs/calibration.md, block "check"): the held-out error on kernels
// no rule was fitted on. The mean must stay within 0.08 and each pair within
// 0.25 (int-division, 0.22 over on its first independent pair, is the
// known worst: its gain counts the division's whole share of the issue
// slots, though the multiply-high that replaces it costs a few).
func TestCheckCalibration(t *testing.T) {
	skipShort(t)
	ks := calibration(t, "../../fixtures/check/check.raw.csv.gz", "../../fixtures/check/check.source.cuda-sass.csv.gz")
	var doc strings.Builder
	doc.WriteString(pairTableHeader)
	mean, _ := pairRows(t, &doc, ks, checkPairs, "CHECK", func(r calibRow, e float64) {
		if e > 0.25 {
			t.Errorf("%s: estimated %.2f, measured %.2f", r.pair.what, r.estimate, r.measured)
		}
	})
	if mean > 0.08 {
		t.Errorf("check set: mean |estimated − measured| %.3f, over 0.08", mean)
	}
	checkDocBlock(t, "../../docs/calibration.md", "check", doc.String())
}
