package rules_test

import (
	"slices"
	"testing"
)

// solClasses25 are the class rules the twenty-fifth set forbids on
// kernels at their speed of light, on those whose class no rule knows and
// on those whose fix did not help: solClasses24 (no class rule landed
// between the twenty-fourth set's capture, 05:40 UTC, and this set's,
// 08:24; bit-loop's shifted-copy folds, 06:31, are bit-loop's).
var solClasses25 = slices.Clone(solClasses24)

// solClasses25But is solClasses25 without the rules named.
func solClasses25But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses25), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck25Read says whether the twenty-fifth set has had its one read
// (at ~09:30 UTC on 2026-12-01 or later, with main as it is then): until
// then its tests, its entries in TestNoUnmarkedZero and internal/cli's
// TestHeadroomNeverUnmarked, and its pages in the tests that read every
// fixture (heldOutUnread), skip, so that no test run reads the set
// before.
const solCheck25Read = true

// solCheck25Pairs are the twenty-fifth held-out set of the
// speed-of-light classes (sources in fixtures/gen/sol_check25.cu and
// sol_triton25.py): the classes in shapes and mechanisms none of the
// earlier sets has (two int16 PCM streams mixed, two 2-byte loads and a
// 2-byte store a thread; a Chebyshev distance matrix one distance a
// thread from shared tiles; channel means a block a channel on 48
// blocks; quaternion rotations of 3-vector planes in 32-thread blocks; a
// Kalman covariance predict whose dimension is a run-time argument, P and
// F·P in local memory; 8-candidate ballots by a global atomicAdd each;
// byte-wide counters bumped by an atomicCAS loop on their word; a
// hidden-major activation indexed batch-major, lanes a row apart; RAID-0
// offsets by 64-bit / and %; four materials shaded in random order,
// every warp running all four loops; running sums of 32-float rows
// staged [256][32], a thread a row on one bank; a log-normal density
// ported with double log, exp and division; damped modes by expf and
// sinf; Bernstein binomials built in every thread with a division a
// term; a row centred by three passes; equaliser gains through a const
// volatile pointer; Gray code decoded bit by bit; class tables in
// __constant__ indexed by the class; a __threadfence after every field
// of a record; in Triton a persistent leaky ReLU on 40 programs and a
// gather whose index is itself gathered); three pairs planned as
// classes whose fix measured little or nothing (a GEMV's rows reduced by
// a shared tree with a barrier a level against a warp a row, 0.10: both
// read A near DRAM speed; 64x64 fp16 products on FFMA against WMMA,
// −0.07: the WMMA twin is slower; a DRAM-bound lerp a float a thread
// against a float4, planned not to help and measured 0.22), none needing
// a finding and each allowing the one it was planned for or measured
// (barrier-stalls, tensor-cores-unused, narrow-access); three kinds
// profan has no rule for (an LCG advanced 1000 steps one at a time
// against a jump-ahead by squaring, 0.90; a polynomial with every power
// built from scratch against Horner, 0.81; day counts to civil dates by
// a year-by-year walk against the closed form, 0.91), whose broken
// kernels need no class finding and, each having run 30 % faster or
// more fixed, must state their headroom (TestNoUnmarkedZero, once read);
// and a fix planned not to help, which did not (Triton hard-swish on 8
// warps against 4, DRAM-bound, 0.015). The required and the forbidden
// findings, and the lines the required ones should name
// (solCheck25Lines), were written here from the kernels' source, ptxas's
// report and the measured durations, read as plain CSV, before profan
// ever read the set. Allowed beside the required finding: low-occupancy
// on the 48-block channel means, the 32-thread blocks and the 40-program
// Triton loop; atomic-serialization and uncoalesced-global on the byte
// counters' CAS loop (its words loaded at random); precise-math on the
// log-normal density's double log and exp; local-memory on the damped
// modes' sinf (ptxas: a 32-byte stack frame, the slow-path reduction);
// uniform-load, warp-redundant-work and precise-math on the Bernstein
// binomials (every lane the same coefficients, an IEEE division a term);
// uniform-load on the equaliser's gains (every lane the same 8 words);
// uncoalesced-global and narrow-access on the fenced records' 4-byte
// field stores 16 bytes apart; uncoalesced-global on the gathered
// gather. Every other class rule is forbidden on every broken kernel,
// and every class rule on the no-rule kernels and the fix that did not
// help.
var solCheck25Pairs = []solCheckPair{
	{calibPair{"void pcmMix<1>(short *, const short *, const short *, int, int, int)", "void pcmMix<8>(short *, const short *, const short *, int, int, int)", "two int16 PCM streams of 128 Mi samples mixed with Q15 gains and saturated: two 2-byte loads and a 2-byte store a thread → a uint4 of eight samples of each in, a uint4 out"}, "narrow-access", solClasses25But("narrow-access")},
	{calibPair{"void chebMat<1>(float *, const float *, const float *, int)", "void chebMat<4>(float *, const float *, const float *, int)", "the Chebyshev (L∞) distance matrix of 4096 x 4096 points in 64 dimensions from shared tiles of 16 x 16R: one distance a thread (two shared loads for a subtract and a max) → a 4x4 block a thread"}, "register-tile", solClasses25But("register-tile")},
	{calibPair{"void chanMean<1>(float *, const float *, int)", "void chanMean<32>(float *, const float *, int)", "the means of 48 channels of 2 Mi floats: a 512-thread block a channel (48 blocks on 132 SMs) → 32 blocks a channel, the parts added atomically"}, "small-grid", solClasses25But("small-grid", "low-occupancy")},
	{calibPair{"void vec3Rot<32>(float *, float *, float *, const float *, const float *, const float *, float4, int)", "void vec3Rot<256>(float *, float *, float *, const float *, const float *, const float *, float4, int)", "32 Mi 3-vectors in three planes rotated by a unit quaternion, a vector a thread: 32-thread blocks → 256-thread blocks"}, "tiny-blocks", solClasses25But("tiny-blocks", "low-occupancy")},
	{calibPair{"void kfPredict<0>(float *, const float *, float, int, int)", "void kfPredict<6>(float *, const float *, float, int, int)", "a Kalman covariance predict F·P·Fᵀ + qI of 2 Mi 6x6 filters: the dimension a run-time argument, P and F·P indexed in loops of unknown trip count (ptxas: a 288-byte stack frame) → the dimension a template argument, unrolled into registers"}, "local-memory", solClasses25But("local-memory")},
	{calibPair{"void voteTally<0>(unsigned int *, const unsigned int *, int)", "void voteTally<1>(unsigned int *, const unsigned int *, int)", "32 Mi ballots for 8 candidates: a global atomicAdd a ballot on one of 8 words → 8 counters in shared memory a block, 8 global atomicAdds a block"}, "atomic-serialization", solClasses25But("atomic-serialization")},
	{calibPair{"void byteCount<0>(unsigned int *, const unsigned int *, int)", "void byteCount<1>(unsigned int *, const unsigned int *, int)", "16 Mi items counted in 1 Mi byte-wide counters, four to a word: an atomicCAS loop on the word → atomicAdd of the byte's one on the word (no counter reaches 256)"}, "cas-loop", solClasses25But("cas-loop", "atomic-serialization", "uncoalesced-global")},
	{calibPair{"void hbScale<0>(float *, const float *, const float *, const float *)", "void hbScale<1>(float *, const float *, const float *, const float *)", "y = max(x·g[h] + c[h], 0) over a hidden-major 4096 x 8192 activation: the thread index split batch-major (lanes a row of 8192 floats apart) → split hidden-major"}, "uncoalesced-global", solClasses25But("uncoalesced-global")},
	{calibPair{"void raidMap<0>(uint2 *, const unsigned long long *, unsigned long long, unsigned long long, unsigned int, int)", "void raidMap<1>(uint2 *, const unsigned long long *, unsigned long long, unsigned long long, unsigned int, int)", "32 Mi 44-bit offsets to a disk and an offset on it in a 12-disk RAID-0 of 64 KiB stripes: 64-bit / and % by the run-time stripe and disk count → the stripe as a shift and a mask, one 32-bit division by the disk count"}, "int-division", solClasses25But("int-division")},
	{calibPair{"void shadeMat<0>(float *, const float *, const unsigned char *, int)", "void shadeMat<1>(float *, const float *, const unsigned char *, int)", "32 Mi pixels shaded by one of four materials, each a different 20-step loop: the materials at random (every warp runs all four) → the same kernel on pixels sorted by material upstream"}, "thread-divergence", solClasses25But("thread-divergence")},
	{calibPair{"void rowCum32<0>(float *, const float *)", "void rowCum32<1>(float *, const float *)", "running sums along 2 Mi rows of 32 floats staged 256 rows a block in shared memory, a thread a row: the tile [256][32] (every lane on one bank) → [256][33]"}, "shared-bank-conflict", solClasses25But("shared-bank-conflict")},
	{calibPair{"void lognPdf<0>(float *, const float *, float, float, int)", "void lognPdf<1>(float *, const float *, float, float, int)", "the log-normal density of 32 Mi floats ported from CPU code: log and exp of a double, double literals and a double division → logf, expf and float literals"}, "fp64-on-float", solClasses25But("fp64-on-float", "precise-math")},
	{calibPair{"void dampModes<0>(float *, const float *, float, int)", "void dampModes<1>(float *, const float *, float, int)", "a sum of six damped modes at 32 Mi times: expf and sinf a mode → __expf and __sinf"}, "precise-math", solClasses25But("precise-math", "local-memory")},
	{calibPair{"void bernCurve<0>(float *, const float *, int, int)", "void bernCurve<1>(float *, const float *, int, int)", "a degree-24 Bernstein curve at 16 Mi parameters: the binomial coefficients built in every thread by a product with a division a term → the control values times their binomials computed once on the host, in __constant__"}, "invariant-work", solClasses25But("invariant-work", "uniform-load", "warp-redundant-work", "precise-math")},
	{calibPair{"void rowCenter<0>(float *, const float *, int)", "void rowCenter<1>(float *, const float *, int)", "256 rows of 256 Ki floats centred and scaled by their largest deviation, a 1024-thread block a row: a mean pass, a deviation pass and a write pass → the sum, the max and the min in one pass, then the write pass (measured 0.23)"}, "repeated-passes", solClasses25But("repeated-passes")},
	{calibPair{"void eqBands<0>(float *, const float *, const float *, int)", "void eqBands<1>(float *, const float *, const float *, int)", "an 8-band equaliser over 8 Mi samples: the band gains read through a const volatile pointer (8 strong loads of the same 8 words a sample) → a const __restrict__ pointer, __ldg"}, "volatile-reread", solClasses25But("volatile-reread", "uniform-load")},
	{calibPair{"void treeGemv<0>(float *, const float *, const float *, int)", "void treeGemv<1>(float *, const float *, const float *, int)", "y = A·x for A 8192 x 2048, 8 rows a 256-thread block: each row reduced by a shared tree with a __syncthreads a level → a warp a row, shuffles (planned as barrier stalls; measured 0.10: both read A near DRAM speed)"}, "", solClasses25But("barrier-stalls")},
	{calibPair{"void gray2bin<0>(uint4 *, const uint4 *, int)", "void gray2bin<1>(uint4 *, const uint4 *, int)", "64 Mi Gray-coded words to binary, a uint4 a thread: bit by bit from the top, 31 shift-xor-mask steps a word → a prefix xor in five shift-xors"}, "bit-loop", solClasses25But("bit-loop")},
	{calibPair{"void clsBias<0>(float *, const float *, const int *, const float *, const float *, int)", "void clsBias<1>(float *, const float *, const int *, const float *, const float *, int)", "y = x·scale[c] + shift[c] over 32 Mi values of 1024 classes at random: the tables in __constant__ indexed by the class (up to 32 addresses a warp) → the same tables from global memory by __ldg"}, "constant-serialization", solClasses25But("constant-serialization")},
	{calibPair{"void recPublish<0>(float4 *, unsigned int *, const float *, int)", "void recPublish<1>(float4 *, unsigned int *, const float *, int)", "8 Mi records of four floats published with a flag: a __threadfence after each field's store → the record as one float4, one fence, then the flag"}, "fence-per-access", solClasses25But("fence-per-access", "uncoalesced-global", "narrow-access")},
	{calibPair{"void bmm64h<0>(__half *, const __half *, const __half *)", "void bmm64h<1>(__half *, const __half *, const __half *)", "8192 products of 64x64 fp16 matrices, a block a product: converted to float in shared memory, a 4x4 block a thread of FFMA → WMMA fp16 16x16x16, float accumulators (planned as tensor cores; measured −0.07: the WMMA twin is slower)"}, "", solClasses25But("tensor-cores-unused")},
	{calibPair{"gstride_p40", "gstride_full", "Triton leaky ReLU over 64 Mi fp32 in a persistent grid-stride loop: 40 programs of 4 warps (written for a 40-SM GPU) → 8 programs an SM, the same body"}, "small-grid", solClasses25But("small-grid", "low-occupancy")},
	{calibPair{"gather2_chain", "gather2_flat", "Triton y = v[idx[perm[i]]] over 16 Mi outputs (perm random, then idx at random, then v at random in 64 MiB) → y = v[idx2[i]], idx2 = idx[perm] composed beforehand"}, "dependent-loads", solClasses25But("dependent-loads", "uncoalesced-global")},
	{calibPair{"void lcgAhead<0>(unsigned int *, const unsigned int *, unsigned int, unsigned int, unsigned int, int)", "void lcgAhead<1>(unsigned int *, const unsigned int *, unsigned int, unsigned int, unsigned int, int)", "8 Mi 32-bit LCG states advanced 1000 steps: one step at a time → the map's 1000th power by squaring, 10 steps (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses25But("serial-loop")},
	{calibPair{"void powSumPoly<0>(float *, const float *, int, int)", "void powSumPoly<1>(float *, const float *, int, int)", "a degree-24 polynomial at 16 Mi points: each power x^k built from scratch by k multiplies → Horner (no rule)"}, "", solClasses25},
	{calibPair{"void civilDate<0>(int *, const int *, int)", "void civilDate<1>(int *, const int *, int)", "8 Mi sorted day counts since 1970 to civil dates: a year-by-year walk subtracting 365 or 366, then a month-by-month walk → the closed form of the proleptic Gregorian calendar (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses25But("serial-loop")},
	{calibPair{"void mixLerp<1>(float *, const float *, const float *, float, int)", "void mixLerp<4>(float *, const float *, const float *, float, int)", "y = a + t·(b − a) over 128 Mi floats, DRAM-bound: a float a thread → a float4 a thread (planned not to help; measured 0.22)"}, "", solClasses25But("narrow-access")},
	{calibPair{"hswish_w4", "hswish_w8", "Triton hard-swish on 64 Mi fp32, DRAM-bound: BLOCK=2048 on 4 warps → on 8 warps (measured 0.015: fine as it is)"}, "", solClasses25},
}

// solCheck25Lines are the lines of sol_check25.cu that each required
// finding which locates should name (any of them), written with the
// pairs: the sample's loads and store, the tiles' shared loads and the
// subtract-max, P's loads, F·P and its store, the product with Fᵀ, the
// atomicAdd, the CAS loop's load, atomicCAS and retry, the activation's
// access, the 64-bit divisions, the material switch and its four loops,
// the row's shared loads and stores, the double log and exp, the expf
// and sinf, the binomials' product and division, the passes' loads, the
// volatile loads, the bit steps, the __constant__ tables' reads, the
// fences.
var solCheck25Lines = map[string][]int{
	"civilDate<0>":  {794, 795, 796, 797},
	"lcgAhead<0>":   {738},
	"pcmMix<1>":     {111},
	"chebMat<1>":    {156, 157, 162},
	"kfPredict<0>":  {235, 239, 240, 245},
	"voteTally<0>":  {259},
	"byteCount<0>":  {283, 286, 287},
	"hbScale<0>":    {312},
	"raidMap<0>":    {328, 329, 330},
	"shadeMat<0>":   {349, 351, 354, 357, 360},
	"rowCum32<0>":   {380, 381},
	"lognPdf<0>":    {398, 399},
	"dampModes<0>":  {420},
	"bernCurve<0>":  {447, 448},
	"rowCenter<0>":  {495, 507, 508, 517},
	"eqBands<0>":    {536},
	"gray2bin<0>":   {594},
	"clsBias<0>":    {623},
	"recPublish<0>": {641, 643, 645, 647},
}

// solCheck25Files are the twenty-fifth held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck25Files = map[string][]string{
	"raw": {"../../fixtures/sol-check25/sol_check25.raw.csv.gz", "../../fixtures/sol-check25/sol_check25.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check25/sol_triton25.raw.csv.gz", "../../fixtures/sol-check25/sol_triton25.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check25/sol_check25.details.csv.gz", "../../fixtures/sol-check25/sol_check25.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check25/sol_triton25.details.csv.gz", "../../fixtures/sol-check25/sol_triton25.source.cuda-sass.csv.gz"},
}

// TestSolCheck25 holds profan on the twenty-fifth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check25").
//
// The capture (08:24 UTC by the device's clock, one device call), before
// profan read it: the fixed twins' measured gains, 1 − t_fixed/t_broken
// from the raw page's gpu__time_duration.sum (median of two launches),
// read as plain CSV: pcmMix 0.54, chebMat 0.65, chanMean 0.36, vec3Rot
// 0.69, kfPredict 0.73, voteTally 0.98, byteCount 0.69, hbScale 0.85,
// raidMap 0.35, shadeMat 0.68, rowCum32 0.77, lognPdf 0.45, dampModes
// 0.54, bernCurve 0.69, rowCenter 0.23, eqBands 0.89, gray2bin 0.70,
// clsBias 0.98 (0.976), recPublish 0.65, gstride_p40 0.84, gather2_chain
// 0.62; planned as classes, measured little or nothing: treeGemv 0.10,
// bmm64h −0.07, and mixLerp, planned not to help, 0.22; with no rule
// lcgAhead 0.90, powSumPoly 0.81, civilDate 0.91; the fix that did not
// help, as planned, hswish_w4 0.015. Every name in the table is the
// capture's. Skipped until its first read (solCheck25Read), so that no
// test run reads it before; the bounds were the (0.08, 0.2) until
// then.
//
// First read, once, at 10:23 UTC with main at f4c65e8 (verdict version
// 193): raw page mean |error| 0.2259, worst 0.9090 (civilDate<0>, no
// rule, 0 against 0.909); details page 0.2258 and 0.9090. Over the 25
// pairs with a class a rule names (the three no-rule pairs left out):
// 0.1485 raw, 0.1484 details. 18 of the 21 required findings on each
// page, the same three missing on both: chebMat<1>'s register-tile (the
// distance matrix's two shared loads a subtract-max read memory-bound on
// L1/shared, no finding, "≈3 % ... on L1/shared"; 0 against 0.65);
// byteCount<0>'s cas-loop (the byte counters' CAS loop read
// memory-bound, no cas-loop nor atomic-serialization, "≈97 % ... on
// DRAM"; 0 against 0.69); eqBands<0>'s volatile-reread (the gains' 8
// strong loads a sample read latency-bound, no finding, "≈89 % ... on
// DRAM"; 0 against 0.89). Forbidden, one, on the raw page only:
// hbScale<0>'s tile-shared-memory 0.05 ("L2 serves 9× the bytes DRAM
// delivers") beside uncoalesced-global 0.85, the required finding; it
// counts nowhere in the gain error (a pair's estimate is its required
// rule's). gather2_chain's dependent-loads 0.50 is not in Triton's
// terms (its advice composes the index maps, no .py term). Lines: every
// required finding that locates named a line written for it (no line
// gap). Under-estimates among the findings given: raidMap int-division
// 0.08 against 0.35, chanMean small-grid 0.19 against 0.36,
// gather2_chain dependent-loads 0.50 against 0.62; over: lognPdf
// fp64-on-float 0.65 against 0.45. treeGemv (0.10), bmm64h (−0.07) and
// mixLerp (0.22) get only their allowed finding or none (bmm64h
// tensor-cores-unused 0.25, mixLerp narrow-access 0.16); hswish_w4 no
// class finding. The three no-rule kernels state their headroom
// (lcgAhead "≈98 % ... on compute pipes", powSumPoly "≈86 % ... on FP32
// pipe", civilDate "≈97 % ... on ALU pipe", "issue slots" on the details
// page) and add 0.093 to the mean. Unmarked 0: none on either page (23
// broken kernels on each). Nothing was fitted on this set; the gaps are
// logged and the bounds held at the first read.
func TestSolCheck25(t *testing.T) {
	skipShort(t)
	if !solCheck25Read {
		t.Skip("sol-check25: read once at ~09:30 UTC or later with main as it is then; skipped until that read")
	}
	// kfix32b's volatile-reread fit (verdict version 195): strong loads
	// of an address the same in every thread of the grid (each warp's
	// request to L2 for the same word), priced from L2's work they
	// leave and DRAM at the stream's line, no more than the warps'
	// sampled time at global memory instructions and their data:
	// eqBands<0> none -> 0.81 against 0.89 at line 536 on both pages;
	// means 0.2259 -> 0.1971 raw, 0.2258 -> 0.1970 details (ruled pairs
	// 0.1485 -> 0.1162 on both).
	// kfix32a's register-tile fit (verdict version 196): the max of an
	// absolute difference (FADD, then FMNMX of its |.|) is an
	// L∞-distance product's step (analysis.TropicalSteps), fed by its
	// shared loads as an FFMA is: chebMat<1>'s register-tile at lines
	// 156 and 157, 0.742 against 0.648 on both pages; after the
	// volatile-reread fit, means 0.1971 -> 0.1773 raw (ruled pairs
	// 0.1162 -> 0.0941), 0.1970 -> 0.1773 details (0.1162 -> 0.0940);
	// bounds (0.198, 0.91) -> (0.178, 0.91).
	// kfix32b's tile-shared-memory narrowing (verdict version 197): the
	// L2-to-DRAM reuse held against the threshold without an
	// uncoalesced load's excess sectors: hbScale<0>'s forbidden
	// tile-shared-memory 0.05 (raw page) gone, its reuse 9× -> 2.7×;
	// no gain error moves.
	// kfix32a's cas-loop fit (verdict version 198): an IMAD.IADD (a·1 +
	// c) writing the CAS's new value is the loop's 32-bit integer add:
	// byteCount<0>'s cas-loop at line 286, 0.647 against 0.690 on both
	// pages; means 0.1773 -> 0.1542 raw (ruled pairs 0.0941 -> 0.0682),
	// 0.1773 -> 0.1542 details (0.0940 -> 0.0681); bounds (0.178, 0.91)
	// -> (0.155, 0.91).
	// loop's serial-loop (verdict version 219), fitted after the read:
	// a loop with no memory access whose exit depends on a value each
	// thread loads or on its index (for an integer recurrence, on an
	// argument), priced as the kernel without it down to its memory
	// floor: civilDate<0> none -> 0.923 against 0.909 at lines 794-797,
	// lcgAhead<0> none -> 0.946 against 0.899 at line 738, on both
	// pages; means 0.1491 -> 0.0867 raw, 0.1490 -> 0.0866 details (ruled
	// pairs 0.0624, as before); bounds (0.155, 0.91) -> (0.087, 0.91).
	// The two pairs are fitted now, not held out.
	heldOutGaps(t, solCheck25Files, solCheck25Pairs, "sol-check25", 0.087, 0.91, solCheck25Gaps)
}

// solCheck25Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. Three required
// findings missing on each page at the read (two since eqBands<0>'s
// volatile-reread fit, one since chebMat<1>'s register-tile fit, none
// since byteCount<0>'s cas-loop fit), one forbidden given on the raw
// page at the read (none since the tile-shared-memory narrowing), and
// one Triton finding not in Triton's terms.
var solCheck25Gaps = []string{
	"gather2_chain dependent-loads terms"}

// solCheck25LineGaps are the required findings whose named line is not
// one of solCheck25Lines at the first read: logged, not failed. None at
// the first read.
var solCheck25LineGaps = []string{}

// TestSolCheck25Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck25Lines(t *testing.T) {
	skipShort(t)
	if !solCheck25Read {
		t.Skip("sol-check25: read once at ~09:30 UTC or later with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck25Files, solCheck25Pairs, solCheck25Lines, "sol_check25.cu", solCheck25LineGaps)
}
