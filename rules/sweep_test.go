package rules_test

import (
	"math"
	"testing"
)

// sweepPair is one broken kernel and its fix in fixtures/sweep (sources in
// fixtures/gen/sweep.cu), with the set it belongs to: the split into FIT
// and HELD-OUT was fixed in sweep.cu before the capture.
type sweepPair struct {
	calibPair
	heldOut bool
}

func sw(broken, fixed, what string, heldOut bool) sweepPair {
	return sweepPair{calibPair{broken, fixed, what}, heldOut}
}

const (
	agU   = "void atomicGlobal<unsigned int, %s, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)"
	asU   = "void atomicShared<unsigned int, %s>(T1 *, const unsigned int *, unsigned int, int)"
	fit   = false
	holdO = true
)

var sweepPairs = []sweepPair{
	sw("void atomicGlobal<unsigned int, 1, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 1>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 1 address → privatised", fit),
	sw("void atomicGlobal<unsigned int, 8, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 8>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 8 addresses → privatised", fit),
	sw("void atomicGlobal<unsigned int, 256, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 256>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 256 addresses → privatised", fit),
	sw("void atomicGlobal<unsigned int, 1, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "atomicPerBlock(unsigned int *, const unsigned int *, unsigned int, int)", "int atomics on 1 address → one per block", fit),
	sw("atomicPerWarp(unsigned int *, const unsigned int *, unsigned int, int)", "atomicPerBlock(unsigned int *, const unsigned int *, unsigned int, int)", "one atomic per warp → per block", fit),
	sw("void atomicGlobal<unsigned int, 2, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 2>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 2 addresses → privatised", holdO),
	sw("void atomicGlobal<unsigned int, 32, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 32>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 32 addresses → privatised", holdO),
	sw("void atomicGlobal<unsigned int, 4096, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 4096>(T1 *, const unsigned int *, unsigned int, int)", "int atomics on 4096 addresses → privatised", holdO),
	sw("void atomicGlobal<float, 1, 0>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<float, 1>(T1 *, const unsigned int *, unsigned int, int)", "float atomics on 1 address → privatised", holdO),
	sw("void atomicGlobal<unsigned int, 1, 1>(T1 *, T1 *, const unsigned int *, unsigned int, int)", "void atomicShared<unsigned int, 1>(T1 *, const unsigned int *, unsigned int, int)", "int atomics, value used, 1 address → privatised", holdO),
	sw("histogramSkewed(unsigned int *, const unsigned int *, int)", "histogramSkewedPrivate(unsigned int *, const unsigned int *, int)", "skewed 256-bin histogram → privatised", holdO),

	sw("void localArray<8>(unsigned int *, const unsigned int *, int)", "void registerArray<8>(unsigned int *, const unsigned int *, int)", "h[8] indexed by data → registers", fit),
	sw("void localArray<32>(unsigned int *, const unsigned int *, int)", "void registerArray<32>(unsigned int *, const unsigned int *, int)", "h[32] indexed by data → registers", fit),
	sw("void localArray<4>(unsigned int *, const unsigned int *, int)", "void registerArray<4>(unsigned int *, const unsigned int *, int)", "h[4] indexed by data → registers", holdO),
	sw("void localArray<16>(unsigned int *, const unsigned int *, int)", "void registerArray<16>(unsigned int *, const unsigned int *, int)", "h[16] indexed by data → registers", holdO),
	sw("void spillAcc<8>(float *, const float *, int)", "void spillAcc<1>(float *, const float *, int)", "spills at 32 registers → none", fit),
	sw("void spillAcc<6>(float *, const float *, int)", "void spillAcc<1>(float *, const float *, int)", "spills at 40 registers → none", holdO),

	sw("void divergeWays<2, 0>(float *, const float *, int)", "void divergeWays<2, 1>(float *, const float *, int)", "2-way divergence → by warp", fit),
	sw("void divergeWays<32, 0>(float *, const float *, int)", "void divergeWays<32, 1>(float *, const float *, int)", "32-way divergence → by warp", fit),
	sw("void divergeWays<4, 0>(float *, const float *, int)", "void divergeWays<4, 1>(float *, const float *, int)", "4-way divergence → by warp", holdO),
	sw("void divergeData<0>(float *, const float *, const unsigned int *, int)", "void divergeData<1>(float *, const float *, const unsigned int *, int)", "branch on random bits → sorted", holdO),
	sw("reduceModulo(float *, const float *)", "reduceStridedIndex(float *, const float *)", "t % (2k) → strided index", fit),
	sw("reduceStridedIndex(float *, const float *)", "reduceSequential(float *, const float *)", "strided index → sequential", holdO),
	sw("reduceModulo(float *, const float *)", "reduceSequential(float *, const float *)", "t % (2k) → sequential", holdO),
	sw("void intDivMod<0, 64>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "void intDivMod<1, 64>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "/ and % by a power of two → shift, mask", fit),
	sw("void intDivMod<0, 16>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "void intDivMod<1, 16>(unsigned int *, const unsigned int *, unsigned int, unsigned int)", "/ and % (fewer) → shift, mask", holdO),

	sw("void strideCopySmall<2>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 8 B → 4 B", fit),
	sw("void strideCopySmall<8>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 32 B → 4 B", fit),
	sw("void strideCopySmall<4>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 16 B → 4 B", holdO),
	sw("void strideCopySmall<32>(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: stride 128 B → 4 B", holdO),
	sw("void strideCopyLarge<4>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 16 B → 4 B", fit),
	sw("void strideCopyLarge<32>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 128 B → 4 B", fit),
	sw("void strideCopyLarge<2>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 8 B → 4 B", holdO),
	sw("void strideCopyLarge<8>(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: stride 32 B → 4 B", holdO),
	sw("offsetCopySmall(float *, const float *)", "void strideCopySmall<1>(float *, const float *)", "64 Ki threads: 4 B misaligned", fit),
	sw("offsetCopyLarge(float *, const float *)", "void strideCopyLarge<1>(float *, const float *)", "16 Mi threads: 4 B misaligned", holdO),
	sw("matmulNaive(float *, const float *, const float *, int)", "matmulTiled(float *, const float *, const float *, int)", "n = 1024: naive → 16×16 tiles", holdO),
	sw("void tailWave<1>(float *, const float *, int, int)", "void tailWave<0>(float *, const float *, int, int)", "1⅛ waves → 1", fit),
	sw("void tailWave<2>(float *, const float *, int, int)", "void tailWave<0>(float *, const float *, int, int)", "1½ waves → 1", holdO),
	sw("transposeNaive(float *, const float *)", "transposeTiled(float *, const float *)", "4096²: naive → tiled", holdO),
	sw("transposeTiled(float *, const float *)", "transposePadded(float *, const float *)", "4096²: tile[32][32] → [32][33]", holdO),
}

// TestSweepCalibration holds profan's estimated gains on the class sweep
// (fixtures/sweep) against the measured ones, separately for the pairs the
// rules were fitted on and the held-out ones.
func TestSweepCalibration(t *testing.T) {
	ks := calibration(t, "../fixtures/sweep/sweep.raw.csv.gz", "../fixtures/sweep/sweep.source.cuda-sass.csv.gz")
	for _, set := range []bool{fit, holdO} {
		sum, worst, n := 0.0, 0.0, 0
		for _, p := range sweepPairs {
			if p.heldOut != set {
				continue
			}
			b, f := ks[p.broken], ks[p.fixed]
			if b == nil || f == nil {
				t.Fatalf("pair %s → %s missing", p.broken, p.fixed)
			}
			measured := 1 - median(f.dur)/median(b.dur)
			est := median(b.gains)
			e := math.Abs(est - measured)
			sum += e
			worst = math.Max(worst, e)
			n++
			t.Logf("%-5v %-45.45s %9.2f %9.2f measured %5.2f estimated %5.2f |err| %.2f %v", set, p.what, median(b.dur)*1e6, median(f.dur)*1e6, measured, est, e, b.rules)
		}
		t.Logf("held-out=%v: %d pairs, mean |error| %.3f, worst %.3f", set, n, sum/float64(n), worst)
	}
}
