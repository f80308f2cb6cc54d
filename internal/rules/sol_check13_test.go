package rules_test

import (
	"slices"
	"testing"
)

// solClasses13 are the class rules the thirteenth set forbids on kernels
// at their speed of light, on those whose class no rule knows and on
// those whose fix was planned not to help: solClasses12, repeated-passes,
// which it did not list, and the four rules landed while the set waited
// for its read (dependent-loads, fence-per-access, precise-math,
// volatile-reread; added at 21:36 UTC, before the read).
var solClasses13 = append(slices.Clone(solClasses12), "repeated-passes", "dependent-loads", "fence-per-access", "precise-math", "volatile-reread")

// solClasses13But is solClasses13 without the rules named.
func solClasses13But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses13), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck13Read says whether the thirteenth set has had its one read
// (at 21:40 UTC or later, with main as it is then): until then its tests,
// and its entries in TestNoUnmarkedZero, skip, so that no test run reads
// the set before.
const solCheck13Read = true

// solCheck13Pairs are the thirteenth held-out set of the speed-of-light
// classes (sources in fixtures/gen/sol_check13.cu and sol_triton13.py):
// the classes in shapes and contexts none of the earlier sets has (an
// NV12 -> NV21 chroma swap a uchar2 a thread, fp8 e4m3 to half a byte a
// thread, RGBA8 to gray a uchar4 a thread, 4096 products of 64x64
// matrices from shared memory one output at a time, four DFMA chains an
// item on a 2-D grid of (SMs + 1) x 2 blocks held two to an SM by 100 KiB
// each, a volume map in 3-D blocks of 8x2x2 threads, ten decimal digits
// by a digit loop at run-time indices, row maxima by an atomicMax an
// element on 8 words, the bit-reversal permutation of 2^25 floats, im2col
// unravelled by run-time / and %, a red-black relaxation with the black
// half of every warp idle, a bilateral filter whose literal 2.0 makes
// each weight a double division and exp, Hillis-Steele block scans with
// twenty barriers, a three-pass softmax of 1 MiB rows, a Triton fp8 ->
// bf16 dequantisation in 64-element one-warp programs, Triton column sums
// a program a column reading down it); three pairs planned as classes
// whose fix measured about nothing (half weights into 4096 bins by a
// 32-bit atomicCAS loop against atomicAdd(__half *), 0.05: both kernels
// held by the contended bins; sixteen random floats a thread staged at
// s[16t + j], 16-way, against pitch 17, −0.01: DRAM holds it; a Triton
// scale and bias whose row and column come from // and % by a run-time
// row length against a 2-D grid, −0.01: DRAM holds it), each needing no
// finding and allowing the one it was planned for; three kinds profan has
// no rule for (IEEE float division against __fdividef; powf(v, 1.5f)
// against v * sqrtf(v); a 64-step shift-and-mask bit count against
// __popcll), whose broken kernels need no class finding but must state
// their headroom (TestNoUnmarkedZero, once read); and two fixes planned
// not to help (rows of 4000 floats at a misaligned pitch of 4001 against
// 4096, 0.03: neighbouring warps share the fifth sector in L2; 64-thread
// blocks at full occupancy, compute-bound, against 256, −0.01), every
// class rule forbidden. The required and the forbidden findings, and the
// lines the required ones should name (solCheck13Lines), were written
// here from the kernels' source, ptxas's report and the measured
// durations, read as plain CSV, before profan ever read the set.
// Forbidden: uncoalesced-global on kernels whose global accesses use
// every byte of their sectors (the chroma pairs, the volume's 32-byte
// rows, the matrices, im2col's shifted taps, the filter's window, the
// pitch-4001 rows, whose fifth sector is L2's); narrow-access where a
// pipe, an atomic, a barrier, local memory or a layout, not the access
// width, holds the kernel and the fix keeps the width; int-division
// where every divisor is a compile-time constant (the digits' 10);
// thread-divergence where the source has no data-dependent branch or
// only edge threads take one; shared-bank-conflict on conflict-free
// shared accesses (pitch 65 and broadcasts, s[t - off]);
// tile-shared-memory where the kernel stages its tile already;
// tiny-blocks on 64-thread blocks and above, small-grid where grids are
// what the kernel needs; barrier-stalls on kernels with one barrier or a
// few; repeated-passes on one-pass kernels; low-occupancy where the fix
// keeps the occupancy; on the no-rule and planned-not-to-help kernels
// every class rule. Allowed beside the required one: tensor-cores-unused
// on the FP32 matrix products (TF32 would serve), low-occupancy where the
// tail's 100 KiB blocks or the tiny blocks cap it, tile-shared-memory on
// the bit reversal and the column sums (the fix is a tile),
// uncoalesced-global on the red-black cells (stride 2 in both twins),
// narrow-access on the Triton fp8 programs (two bytes a thread; the fix
// widens them too), atomic-serialization and thread-divergence on the CAS
// loop's contended bins (its retries diverge), narrow-access on the
// random floats' 4-byte stores, precise-math on the IEEE division and
// the powf (a rule landed after the set was written, of their class).
var solCheck13Pairs = []solCheckPair{
	{calibPair{"void swapUV<1>(uchar2 *, const uchar2 *, int)", "void swapUV<8>(uchar2 *, const uchar2 *, int)", "NV12 → NV21 chroma swap of 128 Mi U V byte pairs: a uchar2 load and store a pair → a uint4 of eight pairs, __byte_perm"}, "narrow-access", solClasses13But("narrow-access")},
	{calibPair{"void fp8Dequant<1>(__half *, const unsigned char *, __half, int)", "void fp8Dequant<16>(__half *, const unsigned char *, __half, int)", "fp8 e4m3 to half of 128 Mi values times a scale: a 1-byte load and a 2-byte store a value → a uint4 of sixteen in, two uint4 out"}, "narrow-access", solClasses13But("narrow-access")},
	{calibPair{"void grayRGBA<1>(unsigned char *, const uchar4 *, int)", "void grayRGBA<4>(unsigned char *, const uchar4 *, int)", "RGBA8 to 8-bit gray of 64 Mi pixels: a uchar4 load and a 1-byte store a pixel → a uint4 of four pixels in, a uchar4 out"}, "narrow-access", solClasses13But("narrow-access")},
	{calibPair{"void bmm64<1>(float *, const float *, const float *)", "void bmm64<4>(float *, const float *, const float *)", "4096 products of 64x64 matrices from shared memory, a 16x16 block a product: one output at a time (two shared loads an FMA) → a 4x4 tile of outputs a thread"}, "register-tile", solClasses13But("register-tile", "tensor-cores-unused")},
	{calibPair{"void dTail<1>(double *, const float *, int, int, int)", "void dTail<0>(double *, const float *, int, int, int)", "four DFMA chains an item, 512-thread blocks asking 100 KiB each (two per SM): a 2-D grid of (SMs + 1) x 2 blocks → SMs x 2"}, "small-grid", solClasses13But("small-grid", "low-occupancy")},
	{calibPair{"void volMap<8, 2, 2>(float *, const float *, int, int, int)", "void volMap<32, 8, 1>(float *, const float *, int, int, int)", "a pointwise map over a 512x512x256 float volume: 3-D blocks of 8x2x2 threads → 32x8x1"}, "tiny-blocks", solClasses13But("tiny-blocks", "low-occupancy")},
	{calibPair{"void itoa10<0>(uint4 *, const unsigned int *, int)", "void itoa10<1>(uint4 *, const unsigned int *, int)", "ten decimal digits of 16 Mi values into 16-byte records: a digit loop, the digits and the record's words at run-time indices (a 32-byte stack frame) → unrolled, in registers"}, "local-memory", solClasses13But("local-memory")},
	{calibPair{"void rowMaxAtomic<0>(unsigned int *, const unsigned int *, int)", "void rowMaxAtomic<1>(unsigned int *, const unsigned int *, int)", "maxima of 8 rows of 4 Mi levels: an atomicMax an element on its row's word → __reduce_max_sync, one atomicMax a warp"}, "atomic-serialization", solClasses13But("atomic-serialization")},
	{calibPair{"void bitRev<0>(float *, const float *)", "void bitRev<1>(float *, const float *)", "bit-reversal permutation of 2^25 floats, y[i] = x[rev(i)], a gather at computed indices 4 MiB apart in a warp → a 32x32 tile a block through shared memory, both sides coalesced"}, "uncoalesced-global", solClasses13But("uncoalesced-global", "tile-shared-memory")},
	{calibPair{"void im2col<0>(float *, const float *, int, int, int, Div, Div, Div, Div, int)", "void im2col<1>(float *, const float *, int, int, int, Div, Div, Div, Div, int)", "im2col of 128 channels of 128x128 for a 3x3 kernel, a thread an element: the index unravelled by 32-bit / and % by the run-time H·W, W, K·K and K → precomputed magic multipliers"}, "int-division", solClasses13But("int-division")},
	{calibPair{"void rbRelax<0>(float *, const float *, int, int)", "void rbRelax<1>(float *, const float *, int, int)", "red-black relaxation of an 8192x4096 grid, 24 Newton steps a red cell: a thread a cell, the black half of every warp idle → a thread a red cell"}, "thread-divergence", solClasses13But("thread-divergence", "uncoalesced-global")},
	{calibPair{"void bilat1d<double>(float *, const float *, float, int)", "void bilat1d<float>(float *, const float *, float, int)", "radius-8 bilateral filter of 4 Mi floats: exp(-(d·d) / (2.0·σ²)), a double division and a double exp a weight → 2.0f, in float"}, "fp64-on-float", solClasses13But("fp64-on-float")},
	{calibPair{"void scanHS<0>(float *, const float *)", "void scanHS<1>(float *, const float *)", "inclusive scans of 64 Mi floats in 1024-float segments, a block a segment: Hillis-Steele in shared memory, twenty __syncthreads → warp scans by shuffles, two"}, "barrier-stalls", solClasses13But("barrier-stalls")},
	{calibPair{"void softmaxRow<0>(float *, const float *, int)", "void softmaxRow<1>(float *, const float *, int)", "softmax of 256 rows of 256 Ki floats (1 MiB a row, over L2), a 1024-thread block a row: three passes (max, sum, write) → online max and sum in one pass, then the write"}, "repeated-passes", solClasses13But("repeated-passes")},
	{calibPair{"cast8_b64_w1", "cast8_b4096_w8", "Triton fp8 e4m3 → bf16 of 64 Mi values times a scale: BLOCK_SIZE=64, num_warps=1 → 4096, 8"}, "tiny-blocks", solClasses13But("tiny-blocks", "narrow-access", "low-occupancy")},
	{calibPair{"colsum_strided", "colsum_tiled", "Triton column sums of 8192x8192 floats: a program a column, 256 rows a step (a lane a row, 32 KiB apart) → a program 32 columns, 128x32 tiles"}, "uncoalesced-global", solClasses13But("uncoalesced-global", "tile-shared-memory")},
	{calibPair{"void casHalf<0>(__half *, const unsigned int *, int)", "void casHalf<1>(__half *, const unsigned int *, int)", "16 Mi half weights into 4096 bins: an atomicCAS loop on the 32-bit word holding the bin → atomicAdd(__half *) (measured 0.05: the contended bins hold both)"}, "", solClasses13But("cas-loop", "atomic-serialization", "thread-divergence")},
	{calibPair{"void rngTile<16>(float *, unsigned int)", "void rngTile<17>(float *, unsigned int)", "64 Mi counter-based random floats, sixteen a thread staged in shared memory: s[16·t + j] (16-way) → s[17·t + j] (measured −0.01: DRAM-bound)"}, "", solClasses13But("shared-bank-conflict", "narrow-access")},
	{calibPair{"scalebias_rt", "scalebias_2d", "Triton row scale and column bias of 16384x4000 fp16: row and column by // and % by the run-time row length → a 2-D grid, no division (measured −0.01: DRAM-bound)"}, "", solClasses13But("int-division")},
	{calibPair{"void fdivMap<0>(float *, const float *, int)", "void fdivMap<1>(float *, const float *, int)", "64 steps of v = (v² + 0.5) / (v + 1.25) on 8 Mi floats: IEEE division → __fdividef (no rule at the first read)"}, "precise-math", solClasses13But("precise-math")},
	{calibPair{"void pow15<0>(float *, const float *, int)", "void pow15<1>(float *, const float *, int)", "32 steps of a v^1.5 response on 8 Mi floats: powf(v, 1.5f) → v * sqrtf(v) (no rule at the first read)"}, "precise-math", solClasses13But("precise-math")},
	{calibPair{"void hamming<0>(unsigned int *, const unsigned long long *, int)", "void hamming<1>(unsigned int *, const unsigned long long *, int)", "nearest of 8 query signatures to 8 Mi 64-bit signatures: bits counted by a 64-step shift-and-mask loop → __popcll (no rule at the first read)"}, "bit-loop", solClasses13},
	{calibPair{"void pitchRow<4001>(float *, const float *, const float *, int)", "void pitchRow<4096>(float *, const float *, const float *, int)", "per-row affine map of 16384 rows of 4000 floats: rows at a pitch of 4001 (misaligned) → 4096 (measured 0.03: fine as it is)"}, "", solClasses13},
	{calibPair{"void fmaB<64>(float *, const float *, int)", "void fmaB<256>(float *, const float *, int)", "four FMA chains of 256 steps on 4 Mi floats (FP32-bound): 64-thread blocks, every warp slot filled → 256 (measured −0.01: fine as it is)"}, "", solClasses13},
}

// solCheck13Lines are the lines of sol_check13.cu that each required
// finding which locates should name (any of them), written with the
// pairs: the uchar2 load and store, the fp8 load and half store, the
// uchar4 load and byte store, the k loop's FMA of shared loads, the digit
// store, the record's read-modify-write and its store, the atomicMax, the
// bit-reversed load, the eight / and % by run-time sizes, the parity exit
// and the Newton steps, the double weight, the Hillis-Steele barriers, the
// three passes' loads.
var solCheck13Lines = map[string][]int{
	"swapUV<1>":       {77, 78},
	"fp8Dequant<1>":   {97, 98},
	"grayRGBA<1>":     {133, 134},
	"bmm64<1>":        {168},
	"itoa10<0>":       {258, 263, 278},
	"rowMaxAtomic<0>": {293},
	"bitRev<0>":       {340},
	"im2col<0>":       {380, 381, 382, 383, 384, 385, 386, 387},
	"rbRelax<0>":      {446, 455, 456, 457},
	"bilat1d<double>": {477},
	"scanHS<0>":       {498, 499, 501, 504},
	"softmaxRow<0>":   {566, 570, 589},
	"fdivMap<0>":      {607},
	"pow15<0>":        {624},
	"hamming<0>":      {648},
}

// solCheck13Files are the thirteenth held-out set's pages, raw and details
// (the default export) alike, each with the source page.
var solCheck13Files = map[string][]string{
	"raw": {"../../fixtures/sol-check13/sol_check13.raw.csv.gz", "../../fixtures/sol-check13/sol_check13.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check13/sol_triton13.raw.csv.gz", "../../fixtures/sol-check13/sol_triton13.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check13/sol_check13.details.csv.gz", "../../fixtures/sol-check13/sol_check13.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check13/sol_triton13.details.csv.gz", "../../fixtures/sol-check13/sol_triton13.source.cuda-sass.csv.gz"},
}

// TestSolCheck13 holds profan on the thirteenth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check13").
//
// The capture (20:09 UTC by the device's clock, one device call), before
// profan read it: the fixed twins' measured gains, 1 − t_fixed/t_broken
// from the raw page's gpu__time_duration.sum (median of two launches),
// read as plain CSV: swapUV 0.65, fp8Dequant 0.67, grayRGBA 0.55, bmm64
// 0.68, dTail 0.31, volMap 0.82, itoa10 0.79, rowMaxAtomic 0.97 (24580 µs
// against 803), bitRev 0.84, im2col 0.37, rbRelax 0.47, bilat1d 0.63,
// scanHS 0.34, softmaxRow 0.23, cast8_b64_w1 0.92, colsum_strided 0.85;
// planned as classes, measured about nothing: casHalf 0.05 (each
// kernel's first launch about 11x its second), rngTile −0.01,
// scalebias_rt −0.01; with no rule fdivMap 0.50, pow15 0.80, hamming
// 0.94; planned not to help pitchRow 0.03, fmaB −0.01. Every name in the
// table is the capture's. Skipped until its first read (solCheck13Read),
// so that no test run read it before; the bounds were the until
// then.
//
// First read, once, at 21:40 UTC with main at 8a2c7ab (verdict version
// 90, after the fitters' cutoff): raw page mean |error| 0.1302, worst
// 0.9437 (hamming<0>, no rule: "≈97 % of its time is headroom on ALU
// pipe that no rule explains", 0 against 0.94); details page 0.1301 and
// 0.9437. 15 of the 16 required findings on both pages: softmaxRow<0>'s
// repeated-passes is missing (0 against 0.23). Five forbidden findings on
// both pages: volMap<8, 2, 2> narrow-access 0.75, bilat1d<double>
// tile-shared-memory 0.71, scalebias_rt uniform-load 0.08 and
// uncoalesced-global 0.03, pitchRow<4001> uniform-load 0.05.
// colsum_strided's uncoalesced-global (0.86 against 0.85, line 52 of
// sol_triton13.py) is worded for CUDA; bitRev<0>'s (0.91 against 0.84)
// reads the bit-reversed load as strided, not as a gather. Lines: every
// required finding that locates named one written for it, on both pages.
// Gains of the 15 given: swapUV<1> 0.64 against 0.65, fp8Dequant<1> 0.72
// against 0.67, grayRGBA<1> 0.55 against 0.55, bmm64<1> 0.74 against
// 0.68, dTail<1> 0.33 against 0.31, volMap<8, 2, 2> 0.87 against 0.82,
// itoa10<0> 0.76 against 0.79, rowMaxAtomic<0> 0.99 against 0.97,
// bitRev<0> 0.91 against 0.84, im2col<0> 0.43 against 0.37, rbRelax<0>
// 0.48 against 0.47, bilat1d<double> 0.69 against 0.63, scanHS<0> 0.42
// against 0.34, cast8_b64_w1 0.94 against 0.92, colsum_strided 0.86
// against 0.85. The no-rule kernels state their headroom: fdivMap<0>
// "≈53 % ... on XU pipe", pow15<0> "≈60 % ... on FP32 pipe", hamming<0>
// "≈97 % ... on ALU pipe" (details: "on compute pipes"). Nothing was
// fitted on this set; the gaps are logged and the bounds held at the
// first read.
//
// After the fix (version 91, kfix13b): precise-math reads IEEE float
// division by its FCHK (the range check of the correctly rounded
// sequence, on the XU pipe beside its MUFU.RCP), ten instructions a
// division where __fdividef is two, and prices what leaves the issue
// slots and the XU pipe: fdivMap<0> 0 → 0.47 against 0.50 (line 607),
// required since (it was "no rule" at the first read). Raw page mean
// |error| 0.1302 → 0.1106, details 0.1301 → 0.1104, worst 0.9437
// (hamming<0>, still no rule); pow15<0>'s powf (a software log and exp,
// about 75 instructions a call) has no rule yet.
//
// After the fix (version 92, kfix13a): repeated-passes reads a pass
// whose loop branch is the for statement's line, not its load's, and
// prices only the passes that reduce (they fuse into one; a pass that
// writes needs their results and stays): softmaxRow<0> 0.24 against
// 0.23 (0 at the first read); raw page mean |error| 0.1106 → 0.1011,
// details 0.1104 → 0.1010, worst 0.9437 on both.
//
// After the fix (version 93, kfix13b): precise-math also reads precise
// powf (a software log and exp2, about 70 instructions a call) by its
// test of the exponent's product against exp2's bound (FSETP.GT |t|,
// 152): pow15<0> 0 → 0.60 against 0.80 (line 624), required since (no
// rule at the first read); raw page mean |error| 0.1011 → 0.0760,
// details 0.1010 → 0.0758, worst 0.9437 (hamming<0>, still no rule).
//
// After the fix (version 96, kfix14a): the five forbidden findings
// are gone, each by its mechanism, on both pages. narrow-access stays
// silent where the SMs' block starts take half the kernel's time or
// more (volMap<8, 2, 2>: tiny-blocks' 0.87 alone); tile-shared-memory's
// L1 taps stay silent on a kernel its floating-point arithmetic holds
// (bilat1d<double>: compute 82 %, FP64 the busiest pipe, its ideal its
// FLOPs); uniform-load is priced against the kernel's limiting unit and
// says nothing where DRAM sets its speed of light (scalebias_rt,
// pitchRow<4001>); uncoalesced-global reads loads of one line that split
// a thread's contiguous run into n vector accesses at a stride of n
// widths as whole (scalebias_rt's two LDG.E.128 of b[col]). Gains of the
// required findings and both means unchanged (0.0760 raw, 0.0758
// details): forbidden findings were never counted in them.
//
// After the fix (version 98, kfix14a): uncoalesced-global names an
// access whose index a BREV computes as a gather at bit-reversed indices,
// a permutation, and advises the transpose stage its twin is (a 2^k ×
// 2^k tile through shared memory, or shuffles), not sorted indices
// (bitRev<0>, line 340); a Triton kernel's advice is in Triton's terms
// (colsum_strided: a program's block of consecutive columns, a 2-D
// [BLOCK_SIZE_R, BLOCK_SIZE_C] load, tl.sum(axis=0), num_warps, at
// sol_triton13.py:52). Gains unchanged (bitRev<0> 0.91 against 0.84,
// colsum_strided 0.86 against 0.85); no gap left in solCheck13Gaps.
//
// After the fix (version 100, kfix14b): bit-loop reads a loop that tests
// bits one at a time by its single-bit LOP3.LUT masks (fitted on
// fixtures/sol-bits) and prices POPC in its place from the issue slots,
// the ALU pipe and the stream left: hamming<0> 0 → 0.95 against 0.94
// (line 648), required since (no rule at the first read); raw page mean
// |error| 0.0760 → 0.0369, details 0.0758 → 0.0368, worst 0.9437 →
// 0.1993 (pow15<0>).
//
// After the fix (version 105, kfix14b): the FP32 pipe's necessary work
// leaves out a precise powf's polynomials (about 55 FLOPs a call beyond
// the exponent's product), so pow15<0>'s headroom is no longer its
// powf's own FLOPs at peak (0.60) and precise-math's gain is not bounded
// by it: 0.60 → 0.82 against 0.80; raw page mean |error| 0.0369 →
// 0.0291, details 0.0368 → 0.0290, worst 0.1993 → 0.0799.
//
// The bound holds the figures after the fixes (0.030 against the first
// read's 0.131); the first read's figures stay recorded above and in
// docs/calibration.md.
func TestSolCheck13(t *testing.T) {
	skipShort(t)
	if !solCheck13Read {
		t.Skip("sol-check13: read once at 21:40 UTC or later with main as it is then; skipped until that read")
	}
	heldOutGaps(t, solCheck13Files, solCheck13Pairs, "sol-check13", 0.030, 0.08, solCheck13Gaps)
}

// solCheck13Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"), the same on both pages: logged, not
// failed. softmaxRow<0>'s repeated-passes was missing (memory-bound, "≈52
// % of its time is headroom on DRAM that no rule explains"; found since
// the fix above, so no longer listed); volMap<8, 2,
// 2>'s narrow-access (0.75 beside tiny-blocks' 0.87: its twin keeps the
// 4-byte accesses), bilat1d<double>'s tile-shared-memory (0.71 on a
// compute-bound kernel), scalebias_rt's uniform-load (0.08) and
// uncoalesced-global (0.03) and pitchRow<4001>'s uniform-load (0.05) were
// forbidden (gone since version 96, so no longer listed);
// colsum_strided's uncoalesced-global advice was CUDA's, not Triton's,
// and bitRev<0>'s gather was read as strided, not named a gather (both
// since version 98, so no longer listed).
var solCheck13Gaps = []string{}

// solCheck13LineGaps are the required findings whose named line is not
// one of solCheck13Lines at the first read: logged, not failed. None at
// the first read.
var solCheck13LineGaps = []string{}

// TestSolCheck13Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck13Lines(t *testing.T) {
	skipShort(t)
	if !solCheck13Read {
		t.Skip("sol-check13: read once at 21:40 UTC or later with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck13Files, solCheck13Pairs, solCheck13Lines, "sol_check13.cu", solCheck13LineGaps)
}
