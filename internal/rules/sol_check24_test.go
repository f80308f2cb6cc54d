package rules_test

import (
	"slices"
	"testing"
)

// solClasses24 are the class rules the twenty-fourth set forbids on
// kernels at their speed of light, on those whose class no rule knows and
// on those whose fix did not help: solClasses23 (no class rule landed
// between the twenty-third set's capture, 02:28 UTC, and this set's,
// 05:40).
var solClasses24 = slices.Clone(solClasses23)

// solClasses24But is solClasses24 without the rules named.
func solClasses24But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses24), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck24Read says whether the twenty-fourth set has had its one read
// (at ~06:55 UTC on 2026-12-01 or later, with main as it is then): until
// then its tests, its entries in TestNoUnmarkedZero and internal/cli's
// TestHeadroomNeverUnmarked, and its pages in the tests that read every
// fixture (heldOutUnread), skip, so that no test run reads the set
// before.
const solCheck24Read = true

// solCheck24Pairs are the twenty-fourth held-out set of the
// speed-of-light classes (sources in fixtures/gen/sol_check24.cu and
// sol_triton24.py): the classes in shapes and mechanisms none of the
// earlier sets has (12-bit raw samples in uint16 to 8 bits, a 2-byte load
// and a 1-byte store a thread; a direct 256-point DFT of 16 Ki signals as
// a product with cos and sin tables, one output a thread from shared
// tiles; a grid-stride affine map on the 40 blocks written for a 40-SM
// GPU; unit normals in 16-thread blocks; sums into sorted segments by a
// global atomicAdd a value, a whole warp on one word; int64 tallies by an
// atomicCAS loop; a vertical blur with threadIdx.x mapped to rows, lanes
// a row apart; 44-bit offsets split by two 64-bit divisions; a rare slow
// path refined where it falls, nearly every warp running it for one or
// two lanes; dB written with double literals; a sound level map by
// log10f and exp10f; ragged sequences whose start every thread sums from
// the lengths before it; the top two of a row by two passes; a 9-tap FIR
// through a const volatile pointer; a log-sum-exp kept block-wide, four
// __syncthreads a 1024-value chunk; values boxed behind pointers; CRC-32
// bit by bit; NHWC int8 quantisation with the per-channel tables in
// __constant__ indexed by the channel; an fp16 linear layer on FFMA from
// float shared tiles; in Triton softplus in float64 and a byte inverse a
// byte a thread); two pairs planned as classes whose fix measured about
// nothing (a 16-cell state ping-ponged by swapping pointers, 0.05, where
// ptxas resolved the swap and kept both arrays in registers: no stack
// frame, no local memory, so that every class rule is forbidden on it;
// lane-private shared histograms laid out [lane][bin] against [bin][lane],
// 0.02: the conflicts cost nothing the kernel waits on), neither needing a
// finding and the second allowing the one it was planned for; three kinds
// profan has no rule for (an annuity's 360-step sum of discount factors
// against its closed form, 0.86; integer square roots by a 16-step
// bisection against sqrtf and one correction, 0.39; the nearest of 64
// sorted codes by a linear scan against a 6-step binary search, 0.72),
// whose broken kernels need no class finding and, each having run 30 %
// faster or more fixed, must state their headroom (TestNoUnmarkedZero,
// once read); and two fixes planned not to help, which did not (expf and
// an IEEE division replaced by __expf and __fdividef in a DRAM-bound
// float4 SiLU, 0.006; int64 offsets replaced by int32 in a DRAM-bound
// Triton scale, 0.005). The required and the forbidden findings, and the
// lines the required ones should name (solCheck24Lines), were written
// here from the kernels' source, ptxas's report and the measured
// durations, read as plain CSV, before profan ever read the set.
// Forbidden: uncoalesced-global on kernels whose global accesses use
// every byte of their sectors (the samples, the signals and tables, the
// float4 maps, the normals, the states, the values and segment ids, the
// keys and amounts, the offsets, the words, the complex samples, the
// sequences, the rows, the signal, the messages, the tensors, the
// activations and weights, the rates, the codes' values, the Triton
// elements and bytes; required on the blur walked with lanes a row
// apart; allowed on the boxed values, loaded at random); narrow-access
// where 4-byte words or wider are the data, loaded whole (required on the
// raw samples and the Triton bytes; allowed on the 16-thread blocks'
// half-filled warps and on the linear layer's 2-byte staging loads);
// tensor-cores-unused everywhere but the DFT (allowed there: TF32 could
// take the product) and the FFMA linear layer (required);
// int-division but on the offsets; thread-divergence but on the rare
// refinement (forbidden on the CAS loop's retries); shared-bank-conflict
// everywhere (allowed on the [lane][bin] histogram, whose fix did not
// help); tile-shared-memory everywhere but the volatile FIR (allowed
// there: staging the signal would also cut the rereads); register-tile
// but on the DFT (the linear layer has a 4x4 block a thread already);
// tiny-blocks but on the 16-thread blocks; small-grid but on the 40-block
// grid; low-occupancy where the fix keeps the occupancy (allowed on the
// 40-block grid and the 16-thread blocks); barrier-stalls but on the
// block-wide log-sum-exp; repeated-passes but on the top two;
// local-memory everywhere (no kernel has a stack frame); atomic-
// serialization but on the segment sums (allowed on the CAS loop's
// accounts); cas-loop but on the int64 tallies; uniform-load everywhere
// but the ragged starts (allowed there: every lane loads the same
// length); dependent-loads but on the boxed values; fence-per-access
// everywhere; precise-math but on the sound level map (allowed on the dB
// conversion's double log and the Triton softplus's double exp and log);
// fp64-on-float but on the dB conversion and the Triton softplus;
// volatile-reread but on the FIR; invariant-work but on the ragged starts
// (warp-redundant-work allowed there: every lane of every warp sums the
// same lengths); constant-serialization but on the quantisation tables;
// bit-loop but on the CRC; on the no-rule kernels and the fixes that did
// not help every class rule.
var solCheck24Pairs = []solCheckPair{
	{calibPair{"void raw12to8<1>(unsigned char *, const unsigned short *, unsigned int, unsigned int, int)", "void raw12to8<8>(unsigned char *, const unsigned short *, unsigned int, unsigned int, int)", "12-bit raw samples of 256 Mi uint16 to 8 bits with a black level and a gain: a 2-byte load and a 1-byte store a thread → a uint4 of eight samples in, a uint2 of eight bytes out"}, "narrow-access", solClasses24But("narrow-access")},
	{calibPair{"void dft256<1>(float2 *, const float *, const float *, const float *)", "void dft256<4>(float2 *, const float *, const float *, const float *)", "a direct 256-point DFT of 16 Ki real signals as a product with cos and sin tables, shared tiles of 16 x 16R: one frequency of one signal a thread (three shared loads for two FMAs) → a 4x4 block a thread"}, "register-tile", solClasses24But("register-tile", "tensor-cores-unused")},
	{calibPair{"void gsAffine<40>(float4 *, const float4 *, float, float, int)", "void gsAffine<0>(float4 *, const float4 *, float, float, int)", "y = a·x + b on 16 Mi float4 in a grid-stride loop: launched on the 40 blocks of 256 written for a 40-SM GPU (40 of 132 SMs) → 8 blocks an SM from the SM count, the same kernel"}, "small-grid", solClasses24But("small-grid", "low-occupancy")},
	{calibPair{"void nrmUnit<16>(float4 *, const float4 *, int)", "void nrmUnit<256>(float4 *, const float4 *, int)", "32 Mi surface normals (x, y, z, w) scaled to unit length, a float4 a thread: 16-thread blocks → 256-thread blocks"}, "tiny-blocks", solClasses24But("tiny-blocks", "low-occupancy", "narrow-access")},
	{calibPair{"void smooth16<0>(float *, const float *, int, int)", "void smooth16<1>(float *, const float *, int, int)", "32 smoothing steps of a 16-cell state a thread on 2 Mi states: ping-ponged between two arrays by swapping pointers → the steps in pairs without pointers (planned as local memory; measured 0.05: ptxas resolved the swap, no stack frame in either)"}, "", solClasses24},
	{calibPair{"void segSum<0>(float *, const float *, const int *, int)", "void segSum<1>(float *, const float *, const int *, int)", "sums of 16 Mi values into 4096 sorted segments of 4096: a global atomicAdd a value, every lane of a warp on the same word → a warp whose lanes share the segment sums by shuffles and adds once"}, "atomic-serialization", solClasses24But("atomic-serialization")},
	{calibPair{"void tallyI64<0>(long long *, const unsigned int *, const int *, unsigned int, int)", "void tallyI64<1>(long long *, const unsigned int *, const int *, unsigned int, int)", "16 Mi signed amounts tallied into 2048 int64 accounts: an atomicCAS loop on the account's 64-bit word → atomicAdd on unsigned long long"}, "cas-loop", solClasses24But("cas-loop", "atomic-serialization")},
	{calibPair{"void vBlur5<0>(float *, const float *, int, int)", "void vBlur5<1>(float *, const float *, int, int)", "a 5-tap vertical blur of an 8192² float image in 32x8 blocks: threadIdx.x mapped to rows (lanes a row apart) → to columns"}, "uncoalesced-global", solClasses24But("uncoalesced-global")},
	{calibPair{"void tierDiv<0>(uint2 *, const unsigned long long *, Div64, Div64, int)", "void tierDiv<1>(uint2 *, const unsigned long long *, Div64, Div64, int)", "16 Mi 44-bit file offsets to chunk and block numbers: two 64-bit divisions by run-time sizes (dividends above 2^32) → the sizes' 64-bit magic multipliers, __umul64hi and shifts (measured 0.49)"}, "int-division", solClasses24But("int-division")},
	{calibPair{"void rareRefine<0>(float *, const float *, float, int)", "void rareRefine<1>(float *, const float *, float, int)", "16 Mi values, 1 in 8 refined by a 64-step __sinf iteration, the rest halved: each refined where it falls (nearly every warp runs the 64 steps for one or two lanes) → queued in shared memory by the block and refined by whole warps"}, "thread-divergence", solClasses24But("thread-divergence")},
	{calibPair{"void laneHist<0>(unsigned int *, const unsigned int *, int)", "void laneHist<1>(unsigned int *, const unsigned int *, int)", "a 32-bin histogram of 256 MiB of bytes in lane-private shared counters: laid out [lane][bin] (the bank is the bin) → [bin][lane] (the bank is the lane) (planned as bank conflicts; measured 0.02)"}, "", solClasses24But("shared-bank-conflict")},
	{calibPair{"void toDb<0>(float *, const float2 *, int)", "void toDb<1>(float *, const float2 *, int)", "the power of 32 Mi complex float samples in dB: 10.0 * log10(p / 2.5e-3 + 1e-12), double literals (the division, the log and the product in double) → log10f, the reference folded in (measured 0.28)"}, "fp64-on-float", solClasses24But("fp64-on-float", "precise-math")},
	{calibPair{"void splMap<0>(float *, float, int)", "void splMap<1>(float *, float, int)", "a sound pressure level map of 4 Mi points from 32 sources: log10f and exp10f a source and log10f of the sum → __log10f and __exp10f (sqrtf in both)"}, "precise-math", solClasses24But("precise-math")},
	{calibPair{"void raggedScale<0>(float4 *, const float4 *, const int *, const int *, const float *)", "void raggedScale<1>(float4 *, const float4 *, const int *, const int *, const float *)", "per-sequence scales of 512 ragged sequences packed back to back: every thread sums the lengths of the sequences before its own for its start → the starts' prefix sums passed in, as cu_seqlens"}, "invariant-work", solClasses24But("invariant-work", "uniform-load", "warp-redundant-work")},
	{calibPair{"void top2Row<0>(float2 *, const float4 *, int)", "void top2Row<1>(float2 *, const float4 *, int)", "the two largest distinct values of 4096 rows of 32 Ki floats, a 256-thread block a row: a max pass, then a pass for the largest below it → one pass, the pairs merged by shuffles"}, "repeated-passes", solClasses24But("repeated-passes")},
	{calibPair{"void volTap9<0>(float *, const float *, int)", "void volTap9<1>(float *, const float *, int)", "a 9-tap FIR over 64 Mi floats: the signal read through a const volatile pointer (nine strong loads an output, none from L1) → a const pointer, __ldg (measured 0.37)"}, "volatile-reread", solClasses24But("volatile-reread", "tile-shared-memory")},
	{calibPair{"void rowLse<0>(float *, const float *, int)", "void rowLse<1>(float *, const float *, int)", "log-sum-exp of 2048 rows of 32 Ki floats, a 1024-thread block a row: the running max and sum kept block-wide, a block max and a block sum a 1024-value chunk (four __syncthreads) → each thread its own running pair, one block reduction at the end"}, "barrier-stalls", solClasses24But("barrier-stalls")},
	{calibPair{"void boxedLoad<0>(float *, const float *const *, const float *, float, int)", "void boxedLoad<1>(float *, const float *const *, const float *, float, int)", "y = s·*p[i] over 16 Mi pointers to values at random in a 512 MiB pool (the value's address the last load's value) → the values unboxed beforehand, y = s·v[i]"}, "dependent-loads", solClasses24But("dependent-loads", "uncoalesced-global")},
	{calibPair{"void crc32Msg<0>(unsigned int *, const unsigned int *, const unsigned int *, int)", "void crc32Msg<1>(unsigned int *, const unsigned int *, const unsigned int *, int)", "CRC-32 of 2 Mi 64-byte messages, a thread a message: bit by bit, eight shift-xor steps a byte → a byte a step through the 256-entry table in shared memory"}, "bit-loop", solClasses24But("bit-loop")},
	{calibPair{"void quantNhwc<0>(char4 *, const float4 *, const float4 *, const float4 *, int)", "void quantNhwc<1>(char4 *, const float4 *, const float4 *, const float4 *, int)", "int8 quantisation of an NHWC float tensor of 64 channels, a float4 of channels a thread: the scales and zero points in __constant__ indexed by the channel (16 addresses a warp) → a float4 __ldg of each from global memory"}, "constant-serialization", solClasses24But("constant-serialization")},
	{calibPair{"void linH<0>(float *, const __half *, const __half *, int)", "void linH<1>(float *, const __half *, const __half *, int)", "a linear layer y = x·Wᵀ, x 16384 x 256 and W 256 x 256 in fp16: converted to float in shared tiles, a 4x4 block a thread of FFMA → WMMA fp16 16x16x16, float accumulators (measured 0.39)"}, "tensor-cores-unused", solClasses24But("tensor-cores-unused", "narrow-access")},
	{calibPair{"softplus_f64", "softplus_f32", "Triton softplus of 32 Mi fp32: the loads cast to float64, tl.exp and tl.log in double → in fp32"}, "fp64-on-float", solClasses24But("fp64-on-float", "precise-math")},
	{calibPair{"u8inv_b128_w4", "u8inv_b4096_w4", "Triton bitwise inverse of 256 Mi bytes: 128-byte programs on 4 warps, a byte a thread → 4096-byte programs, 32 bytes a thread"}, "narrow-access", solClasses24But("narrow-access")},
	{calibPair{"void annuity<0>(float *, const float *, int)", "void annuity<1>(float *, const float *, int)", "the present value of 360 monthly payments at 8 Mi rates: the sum of the discount factors by a 360-step loop → the closed form −expm1f(−360·log1pf(r))/r (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses24But("serial-loop")},
	{calibPair{"void isqrtU32<0>(unsigned int *, const unsigned int *, int)", "void isqrtU32<1>(unsigned int *, const unsigned int *, int)", "floor square roots of 32 Mi 32-bit words: a 16-step bisection by branch-free selects → sqrtf of the float and one correction (no rule)"}, "", solClasses24},
	{calibPair{"void codeNear<0>(int *, const float *, const float *, int)", "void codeNear<1>(int *, const float *, const float *, int)", "the nearest of 64 sorted code values to 16 Mi floats: a linear scan of the __constant__ table (a uniform index) → a 6-step binary search in a shared copy and one comparison (no rule)"}, "", solClasses24},
	{calibPair{"void siluF4<0>(float4 *, const float4 *, int)", "void siluF4<1>(float4 *, const float4 *, int)", "SiLU on 128 Mi floats, a float4 a thread, DRAM-bound: expf and an IEEE division a value → __expf and __fdividef (measured 0.006: fine as it is)"}, "", solClasses24},
	{calibPair{"scale_i64off", "scale_i32off", "Triton y = 1.75·x on 64 Mi fp32, DRAM-bound: int64 offsets → int32 offsets (measured 0.005: fine as it is)"}, "", solClasses24},
}

// solCheck24Lines are the lines of sol_check24.cu that each required
// finding which locates should name (any of them), written with the
// pairs: the sample's load and store, the tiles' shared loads and the
// FMAs, the atomicAdd, the CAS loop's load, atomicCAS and retry and its
// call, the blur's loads, the two divisions, the refinement's step and
// its branch, the double dB line, the exp10f and the log10f, the length
// sum, the two passes' loads and maxima, the volatile loads, the block
// reductions' barriers and their calls, the boxed load, the bit steps,
// the __constant__ tables' reads, the linear layer's staging, shared
// loads and FFMA.
var solCheck24Lines = map[string][]int{
	"annuity<0>":     {803, 804, 805},
	"raw12to8<1>":    {120},
	"dft256<1>":      {164, 165, 166, 172, 173},
	"segSum<0>":      {267},
	"tallyI64<0>":    {287, 290, 291, 301},
	"vBlur5<0>":      {322, 323},
	"tierDiv<0>":     {345, 346},
	"rareRefine<0>":  {365, 376},
	"toDb<0>":        {444},
	"splMap<0>":      {467, 470},
	"raggedScale<0>": {486},
	"top2Row<0>":     {535, 536, 540, 541},
	"volTap9<0>":     {585},
	"rowLse<0>":      {601, 603, 610, 612, 625, 626},
	"boxedLoad<0>":   {653},
	"crc32Msg<0>":    {679, 681},
	"quantNhwc<0>":   {711, 712},
	"linH<0>":        {742, 751, 752, 757},
}

// solCheck24Files are the twenty-fourth held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck24Files = map[string][]string{
	"raw": {"../../fixtures/sol-check24/sol_check24.raw.csv.gz", "../../fixtures/sol-check24/sol_check24.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check24/sol_triton24.raw.csv.gz", "../../fixtures/sol-check24/sol_triton24.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check24/sol_check24.details.csv.gz", "../../fixtures/sol-check24/sol_check24.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check24/sol_triton24.details.csv.gz", "../../fixtures/sol-check24/sol_triton24.source.cuda-sass.csv.gz"},
}

// TestSolCheck24 holds profan on the twenty-fourth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check24").
//
// The capture (05:40 UTC by the device's clock, one device call), before
// profan read it: the fixed twins' measured gains, 1 − t_fixed/t_broken
// from the raw page's gpu__time_duration.sum (median of two launches),
// read as plain CSV: raw12to8 0.72, dft256 0.67, gsAffine 0.82, nrmUnit
// 0.80, segSum 0.98, tallyI64 0.99 (0.985), vBlur5 0.86, tierDiv 0.49,
// rareRefine 0.67, toDb 0.28, splMap 0.44, raggedScale 0.74, top2Row
// 0.48, volTap9 0.37, rowLse 0.76, boxedLoad 0.89, crc32Msg 0.71,
// quantNhwc 0.72, linH 0.39, softplus_f64 0.58, u8inv_b128_w4 0.90;
// planned as classes, measured about nothing: smooth16 0.05 (no local
// memory in either: ptxas kept both arrays in registers), laneHist 0.02;
// with no rule annuity 0.86, isqrtU32 0.39, codeNear 0.72; fixes that did
// not help, as planned, siluF4 0.006, scale_i64off 0.005. Every name in
// the table is the capture's. Skipped until its first read
// (solCheck24Read), so that no test run reads it before; the bounds were
// the (0.08, 0.2) until then.
//
// First read, once, at 07:10 UTC with main at f1073c3 (after the
// fitters' cutoff; verdict version 186): raw page mean |error| 0.2418,
// worst 0.9853 (tallyI64<0>, 0 against 0.985); details page 0.2418 and
// 0.9853. Over the 25 pairs with a class a rule names (the three no-rule
// pairs left out): 0.1922 raw, 0.1922 details. 16 of the 21 required
// findings on each page, the same five missing on both: tallyI64<0>'s
// cas-loop (the int64 CAS loop read as contended atomics, 743 M
// compare-and-swaps at line 290, atomic-serialization 0.87, allowed, no
// cas-loop); raggedScale<0>'s invariant-work (every thread's sum of the
// lengths before it read memory-bound on L1/shared at 96 %, compute
// 88 %, no finding, "≈82 % ... on DRAM"); volTap9<0>'s volatile-reread
// (the nine strong loads an output read L2-bound at 61 %, no finding,
// "≈68 % ... on DRAM"); rowLse<0>'s barrier-stalls (the block-wide max
// and sum read L1/shared-bound at 69 %, no finding, "≈80 % ... on
// DRAM"); boxedLoad<0>'s dependent-loads (the boxed values' loads read
// as a gather, uncoalesced-global 0.84, allowed, latency-bound, no
// dependent-loads). Forbidden, two, on both pages: linH<0>'s small-grid
// 0.03 (1.29 waves per SM) beside tensor-cores-unused 0.66, the required
// finding; u8inv_b128_w4's low-occupancy 0.03 (34 % achieved of 100 %)
// beside narrow-access 0.90. None counts in the gain error (a pair's
// estimate is its required rule's). u8inv_b128_w4's narrow-access is
// not in Triton's terms (uint4, not BLOCK_SIZE and num_warps). Lines:
// tierDiv<0>'s int-division names line 342 (the 64-bit division
// subroutine's call), not 345 or 346; every other required finding that
// locates named a line written for it. Gains of the 16 given (raw):
// raw12to8 0.71 against 0.72, dft256 0.66 against 0.67, gsAffine 0.79
// against 0.82, nrmUnit 0.81 against 0.80, segSum 0.99 against 0.98,
// vBlur5 0.87 against 0.86, tierDiv 0.34 against 0.49, rareRefine 0.79
// against 0.67, toDb 0.32 against 0.28, splMap 0.33 against 0.44,
// top2Row 0.49 against 0.48, crc32Msg 0.79 against 0.71, quantNhwc 0.66
// against 0.72, linH 0.66 against 0.39, softplus_f64 0.50 against 0.58,
// u8inv_b128_w4 0.90 against 0.90. smooth16 (0.05) and laneHist (0.02)
// get no class finding. The three no-rule kernels state their headroom
// (annuity "≈58 % ... on FP32 pipe", isqrtU32 "≈67 % ... on ALU pipe",
// codeNear "≈89 % ... on ALU pipe") and add 0.070 to the mean; siluF4
// and scale_i64off get no class finding. Unmarked 0: none on either
// page. Nothing was fitted on this set; the gaps are logged and the
// bounds held at the first read.
func TestSolCheck24(t *testing.T) {
	skipShort(t)
	if !solCheck24Read {
		t.Skip("sol-check24: read once at ~06:55 UTC or later with main as it is then; skipped until that read")
	}
	// kfix31b's volatile-reread fit (verdict version 187): strong loads
	// of a window's taps (one base register, constant offsets within a
	// warp's footprint, lanes consecutive), priced from the L2 sectors an
	// L1-served read of the window would not ask for: volTap9<0> none ->
	// 0.42 against 0.37 on both pages; means 0.2418 -> 0.2305 (ruled
	// pairs 0.1922 -> 0.1795) on both.
	// kfix31b's invariant-work fit (verdict version 189): a loop over
	// words every thread of the grid loads alike (served by L1) whose
	// trip count the thread's or its block's index sets, a prefix each
	// thread recomputes (analysis.PrefixLoops), priced as its
	// instructions and L1 requests gone: raggedScale<0> none -> 0.75
	// against 0.74 on both pages; means 0.2305 -> 0.2045 (ruled pairs
	// 0.1795 -> 0.1504) on both.
	// kfix31a's cas-loop fit (verdict version 190): an integer add
	// swapped in by the CAS (IADD3 and its carry's LEA.HI.X.SX32 into
	// ATOMG.E.CAS.64's new value) is a CAS loop atomicAdd on unsigned
	// long long replaces: tallyI64<0> 0 -> 0.98 against 0.985 on both
	// pages; with kfix31b's fits, means 0.2045 -> 0.1695 (ruled pairs
	// 0.1504 -> 0.1112) on both, worst 0.985 -> 0.893 (boxedLoad<0>);
	// bounds (0.205, 0.986) -> (0.170, 0.894).
	// kfix31b's barrier-stalls fit (verdict version 191): a loop that
	// reduces over the block each chunk it loads (two BAR.SYNCs or more
	// and a shuffle or more a loaded value, a tenth of the samples or
	// more at its barriers), priced as its shuffles and their combines,
	// its barriers and shared accesses gone: rowLse<0> none -> 0.73
	// against 0.76 on both pages; after the cas-loop fit, means 0.1695
	// -> 0.1433 (ruled pairs 0.1112 -> 0.0819) on both.
	// kfix31a's dependent-loads fit (verdict version 192): a load whose
	// address is the pointer an earlier 64-bit global load returned,
	// unchanged (LDG.E.64.CONSTANT R2, [R2.64] then LDG.E.CONSTANT R0,
	// [R2.64]: values boxed behind pointers), priced by the pointers'
	// sectors and the boxed loads' beyond their ideal: boxedLoad<0> 0 ->
	// 0.87 against 0.89 on both pages; with kfix31b's fit, means 0.1433
	// -> 0.1123 (ruled pairs 0.0819 -> 0.0471) on both, worst 0.893 ->
	// 0.861 (annuity<0>, no rule); bounds (0.144, 0.894) -> (0.113,
	// 0.862).
	// kfix31b's low-occupancy and narrow-access fit (verdict version
	// 194): low-occupancy leaves out a grid whose blocks retire as fast
	// as the SMs start them (u8inv_b128_w4's forbidden 0.03 gone), and
	// narrow-access says a Triton kernel's fix in BLOCK_SIZE, num_warps
	// and size_per_thread; means unchanged (no pair's estimate was it).
	// kfix's serial-loop fit (verdict version 231, after sol-check29's
	// read): a loop that sums a series (a float add of two carried
	// values, its body float arithmetic and its counter) has a closed
	// form at any count, a fixed one too: annuity<0> (360 discount
	// factors summed, lines 803-805), no rule -> serial-loop 0.88 against
	// 0.86 on both pages; the pair is fitted now, not held out. Means
	// 0.1129 -> 0.0827 on both, worst 0.861 -> 0.715 (codeNear<0>, no
	// rule); bounds (0.113, 0.862) -> (0.083, 0.72).
	heldOutGaps(t, solCheck24Files, solCheck24Pairs, "sol-check24", 0.083, 0.72, solCheck24Gaps)
}

// solCheck24Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. Five required
// findings missing on each page at the read (three since volTap9<0>'s
// volatile-reread and raggedScale<0>'s invariant-work fits; two since
// tallyI64<0>'s cas-loop fit, an integer add swapped in by the CAS:
// verdict version 190; one since rowLse<0>'s barrier-stalls fit; none
// since boxedLoad<0>'s dependent-loads fit, values boxed behind pointers:
// verdict version 192), two forbidden given on both (one since linH<0>'s
// small-grid fit, an L1/shared-bound tail on every SM no lever: verdict
// version 193; none since u8inv_b128_w4's low-occupancy was cut), and one
// Triton finding not in Triton's terms (none since narrow-access says
// BLOCK_SIZE and num_warps: verdict version 194).
var solCheck24Gaps = []string{}

// solCheck24LineGaps are the required findings whose named line is not
// one of solCheck24Lines at the first read: logged, not failed.
// tierDiv<0>'s int-division names the 64-bit division subroutine's call
// (line 342), not the divisions at 345 and 346: the source page has no
// row for 345 or 346 (nvcc's line table puts both divisions' SASS, the
// calls and the 32-bit fast paths alike, on line 342, the dividend's
// load), so no reading of the page can name them.
var solCheck24LineGaps = []string{"tierDiv<0> int-division"}

// TestSolCheck24Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck24Lines(t *testing.T) {
	skipShort(t)
	if !solCheck24Read {
		t.Skip("sol-check24: read once at ~06:55 UTC or later with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck24Files, solCheck24Pairs, solCheck24Lines, "sol_check24.cu", solCheck24LineGaps)
}
