package rules_test

import (
	"slices"
	"testing"
)

// solClasses15 are the class rules the fifteenth set forbids on kernels
// at their speed of light, on those whose class no rule knows and on
// those whose fix was planned not to help: solClasses14 and the kernel
// class rule landed while the set waited for its read (alias-reload;
// added at 03:40 UTC, before the read).
var solClasses15 = append(slices.Clone(solClasses14), "alias-reload")

// solClasses15But is solClasses15 without the rules named.
func solClasses15But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses15), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck15Read says whether the fifteenth set has had its one read
// (at 03:40 UTC on 2026-11-30 or later, with main as it is then): until
// then its tests, and its entries in TestNoUnmarkedZero, skip, so that no
// test run reads the set before.
const solCheck15Read = true

// solCheck15Pairs are the fifteenth held-out set of the speed-of-light
// classes (sources in fixtures/gen/sol_check15.cu and sol_triton15.py):
// the classes in shapes and contexts none of the earlier sets has (two
// int16 audio tracks mixed and saturated a 2-byte sample a thread, L1
// distances of 4096x4096 points from 16x16 shared tiles one output a
// thread by FADD of |a - b| and no FMA, a logistic chain in 1024-thread
// blocks asking 120 KiB of shared memory, one an SM, on a grid of SMs + 4,
// an algebraic sigmoid in 20-thread blocks (partial warps), a Levenshtein
// DP row at run-time length (a 112-byte stack frame), per-channel sums by
// atomicAdd(__half2) on 64 words, a float scatter at random indices, Game
// of Life on a torus wrapped by run-time %, a byte transpose through a
// 32x32 byte tile at a pitch of 32 bytes (8-way), segment heads running a
// 256-step chain one lane in eight, haversine distances in double on
// float degrees, a bitonic sort of 512-float segments with 90 barriers,
// min-max scaling in three passes over rows far over L2, release stores
// through cuda::atomic_ref, per-block coefficients loaded through a
// volatile pointer every step, a rotating 3-vector renormalised by IEEE
// division by sqrtf, a Triton transpose a program an output row, a Triton
// histogram by an atomic an element, a Triton Gaussian mixture in fp64);
// three kinds profan has no rule for (a 64-bit multiply-xorshift mix of
// 32-bit keys against a 32-bit mix; the nearest of 32 centroids by sqrtf
// distances against squared ones; a neighbour exchange through shared
// memory and __syncwarp against __shfl_sync) and a fourth in Triton (a
// tl.dot product at num_stages=1 against 4), whose broken kernels need no
// class finding and, each having run 30 % faster or more fixed, must
// state their headroom (TestNoUnmarkedZero, once read); and two fixes
// planned not to help (a 3-point stencil staged in shared memory with a
// halo, −0.05; __fdividef and __expf on a DRAM-bound sigmoid, 0.05),
// every class rule forbidden. The required and the forbidden findings,
// and the lines the required ones should name (solCheck15Lines), were
// written here from the kernels' source, ptxas's report and the measured
// durations, read as plain CSV, before profan ever read the set.
// Forbidden: uncoalesced-global on kernels whose global accesses use
// every byte of their sectors (the audio tracks, the distance tiles, the
// strings, the channels, the torus rows, the byte tiles, the segments,
// the rows and planes) or whose stores thin out only where a branch
// leaves lanes idle (the segment heads); narrow-access where a pipe,
// local memory, atomics, divisions, a layout or a fence, not the access
// width, holds the kernel and the fix keeps the width (allowed on the
// byte transpose, whose 1-byte accesses both twins keep);
// tensor-cores-unused on the L1 distances (no MMA computes |a - b|);
// int-division where no divisor is a run-time value; thread-divergence
// where the only branch is warp-uniform or a bounds test (the DP row, the
// bitonic selects, the torus); shared-bank-conflict on conflict-free
// shared accesses (pitch 17 and broadcasts, s[t] and s[t ^ j], the
// segment heads' s[t + k] at lanes 8 apart); tile-shared-memory where the
// kernel stages its tile already or the fix is not a tile (allowed on the
// Triton column transpose, whose fix is a tile); tiny-blocks on
// 256-thread blocks and above; small-grid where grids are what the kernel
// needs; barrier-stalls on kernels with one barrier or a few;
// repeated-passes on one-pass kernels; low-occupancy where the fix keeps
// the occupancy (the tail's one 1024-thread block an SM); local-memory on
// the haversine twins (a stack frame in both, the trig slow path never
// taken); cas-loop on the half2 channel sums (a native atomicAdd);
// uniform-load on the volatile per-block coefficients (the fix loads them
// once, uniform still); on the no-rule and planned-not-to-help kernels
// every class rule (precise-math allowed on the sqrtf distances: a
// precise square root is there, if not the fix). Allowed beside the
// required one: low-occupancy where the 20-thread blocks cap it.
var solCheck15Pairs = []solCheckPair{
	{calibPair{"void mixS16<1>(short *, const short *, const short *, float, float, int)", "void mixS16<8>(short *, const short *, const short *, float, float, int)", "two int16 audio tracks of 128 Mi samples mixed with gains and saturated: two 2-byte loads and a 2-byte store a sample → a uint4 of eight from each"}, "narrow-access", solClasses15But("narrow-access")},
	{calibPair{"void l1dist<1>(float *, const float *, const float *, int, int)", "void l1dist<4>(float *, const float *, const float *, int, int)", "L1 distances of 4096x4096 points of 128 floats from 16x16 shared tiles: one output a thread (two shared loads a subtract and an add, no FMA) → a 4x4 tile a thread"}, "register-tile", solClasses15But("register-tile")},
	{calibPair{"void bigTail<1>(float *, const float *, int, int, int)", "void bigTail<0>(float *, const float *, int, int, int)", "a logistic-map chain, 1024 rounds an item, 1024-thread blocks asking 120 KiB of shared memory, one an SM: a grid of SMs + 4 → SMs"}, "small-grid", solClasses15But("small-grid")},
	{calibPair{"void algSig<20>(float *, const float *, int)", "void algSig<256>(float *, const float *, int)", "the algebraic sigmoid x·rsqrt(1 + x²) of 64 Mi floats: 20-thread blocks (20 of a warp's 32 lanes) → 256"}, "tiny-blocks", solClasses15But("tiny-blocks", "low-occupancy")},
	{calibPair{"void editDist<0>(int *, const uint4 *, const uint4 *, int, int)", "void editDist<1>(int *, const uint4 *, const uint4 *, int, int)", "Levenshtein distances of 2 Mi pairs of 16-byte strings: a DP row of 17 ints at a run-time length (a 112-byte stack frame) → the length a template, the loops unrolled, in registers"}, "local-memory", solClasses15But("local-memory")},
	{calibPair{"void chanSumH2<0>(__half2 *, const __half2 *, int)", "void chanSumH2<1>(__half2 *, const __half2 *, int)", "per-channel sums of 32 Mi half2 in 64 interleaved channels: an atomicAdd(__half2 *) an element on its channel's word → a register sum a thread, 64 atomics a block"}, "atomic-serialization", solClasses15But("atomic-serialization")},
	{calibPair{"void scatterF<0>(float *, const float *, const unsigned int *, float, int)", "void scatterF<1>(float *, const float *, const unsigned int *, float, int)", "16 Mi floats stored into 32 Mi slots (128 MiB), y[idx[i]] = s·x[i]: the indices at random → the same indices sorted"}, "uncoalesced-global", solClasses15But("uncoalesced-global")},
	{calibPair{"void lifeTorus<0>(unsigned char *, const unsigned char *, int, int)", "void lifeTorus<1>(unsigned char *, const unsigned char *, int, int)", "a Game of Life step on an 8192² torus of bytes: the cell by i / w and i % w, the neighbours by run-time % (seven 32-bit divisions a cell) → a 2-D grid, wraps by compares"}, "int-division", solClasses15But("int-division")},
	{calibPair{"void transposeU8<32>(unsigned char *, const unsigned char *, int)", "void transposeU8<33>(unsigned char *, const unsigned char *, int)", "a 16384² byte image transposed through a 32x32 byte tile in shared memory: a pitch of 32 bytes (column reads 8-way) → 33"}, "shared-bank-conflict", solClasses15But("shared-bank-conflict", "narrow-access")},
	{calibPair{"void segHead<0>(float *, const float *, int)", "void segHead<1>(float *, const float *, int)", "8 Mi 8-float segments summed and run through a 256-step FMA chain: the segment's first lane working, one lane in eight → a thread a segment"}, "thread-divergence", solClasses15But("thread-divergence")},
	{calibPair{"void haversine<double>(float *, const float *, const float *, const float *, const float *, int)", "void haversine<float>(float *, const float *, const float *, const float *, const float *, int)", "great-circle distances of 16 Mi pairs of float points in degrees: sin, cos, asin and sqrt in double → in float"}, "fp64-on-float", solClasses15But("fp64-on-float")},
	{calibPair{"void bitonic512<0>(float *, const float *)", "void bitonic512<1>(float *, const float *)", "bitonic sort of 64 Ki segments of 512 floats, a 512-thread block a segment: 45 compare-exchange steps through shared memory, 90 __syncthreads → the steps within a warp by shuffles, 20 barriers"}, "barrier-stalls", solClasses15But("barrier-stalls")},
	{calibPair{"void rowMinMax<0>(float4 *, const float4 *, int)", "void rowMinMax<1>(float4 *, const float4 *, int)", "min-max scaling of 1024 rows of 64 Ki floats (256 KiB a row, the rows in flight far over L2): three passes, min, max, write → min and max in one pass, then write"}, "repeated-passes", solClasses15But("repeated-passes")},
	{calibPair{"void relStore<0>(float *, const float *, int)", "void relStore<1>(float *, const float *, int)", "eight derived values a thread stored to eight planes, 4 Mi threads, through cuda::atomic_ref: memory_order_release each (a fence before each store) → relaxed stores, one release fence after the last"}, "fence-per-access", solClasses15But("fence-per-access")},
	{calibPair{"void volParam<0>(float *, const float *, const float *, int)", "void volParam<1>(float *, const float *, const float *, int)", "16 logistic steps on 16 Mi floats, two coefficients a block: loaded through a volatile pointer every step (two strong loads a step) → once, into registers"}, "volatile-reread", solClasses15But("volatile-reread")},
	{calibPair{"void spinNorm<0>(float *, const float *, float, float, float, float, int)", "void spinNorm<1>(float *, const float *, float, float, float, float, int)", "32 steps of a rotating 3-vector renormalised, 4 Mi vectors: v / sqrtf(v·v), three IEEE divisions a step → v·rsqrtf(v·v)"}, "precise-math", solClasses15But("precise-math")},
	{calibPair{"tr_col", "tr_tile", "Triton 8192² fp32 transpose: a program an output row, a lane an input row (loads 32 KiB apart) → 64x64 tiles loaded along rows, stored transposed"}, "uncoalesced-global", solClasses15But("uncoalesced-global", "tile-shared-memory")},
	{calibPair{"hist_atomic", "hist_local", "Triton 256-bin histogram of 128 Mi bytes: a tl.atomic_add an element → tl.histogram a 4096-element program, 256 atomics"}, "atomic-serialization", solClasses15But("atomic-serialization")},
	{calibPair{"gmm_f64", "gmm_f32", "Triton log-likelihood of an 8-component Gaussian mixture on 16 Mi fp32 values: computed in fp64 (tl.exp, tl.log) → in fp32"}, "fp64-on-float", solClasses15But("fp64-on-float")},
	{calibPair{"void hash64<0>(unsigned int *, const unsigned int *, int)", "void hash64<1>(unsigned int *, const unsigned int *, int)", "16 rounds of a multiply-xorshift mix of 16 Mi 32-bit keys: in 64-bit arithmetic (splitmix64's finaliser) → a 32-bit mix (murmur3's fmix32) (no rule)"}, "", solClasses15},
	{calibPair{"void nearestSqrt<0>(int *, const float *, int)", "void nearestSqrt<1>(int *, const float *, int)", "the nearest of 32 centroids to 8 Mi 3-D points: distances compared after sqrtf → squared distances compared (no rule)"}, "", solClasses15But("precise-math")},
	{calibPair{"void warpRot<0>(float *, const float *, int)", "void warpRot<1>(float *, const float *, int)", "64 steps mixing each lane's value with the next lane's, 16 Mi threads: through shared memory, a store, __syncwarp, a load, __syncwarp → __shfl_sync (no rule)"}, "", solClasses15},
	{calibPair{"mm_s1", "mm_s4", "Triton 4096³ fp16 tl.dot product, 128x128x64 tiles, num_warps=8: num_stages=1 (no software pipelining) → num_stages=4 (no rule)"}, "", solClasses15},
	{calibPair{"void stencil3<0>(float *, const float *, int)", "void stencil3<1>(float *, const float *, int)", "3-point stencil on 64 Mi floats, DRAM-bound: the neighbours from global memory (L1 serves them) → staged in shared memory with a halo (measured −0.05: fine as it is)"}, "", solClasses15},
	{calibPair{"void sigmoidMap<0>(float *, const float *, int)", "void sigmoidMap<1>(float *, const float *, int)", "logistic sigmoid of 64 Mi floats, DRAM-bound: 1.0f / (1.0f + expf(-x)) → __fdividef and __expf (measured 0.05: fine as it is)"}, "", solClasses15},
}

// solCheck15Lines are the lines of sol_check15.cu that each required
// finding which locates should name (any of them), written with the
// pairs: the samples' loads and store, the distance loop's shared loads
// and sum, the DP row's and the string words' run-time-indexed accesses,
// the half2 atomic, the scattered store, the divisions, the byte tile's
// column reads, the segment head's branch, sum, chain and store, the
// double conversions and trig, the sort's barriers, the passes' loops and
// loads, the release store, the volatile loads, the sqrtf and the
// divisions.
var solCheck15Lines = map[string][]int{
	"mixS16<1>":         {92},
	"l1dist<1>":         {131, 132, 137},
	"editDist<0>":       {198, 200, 201, 202, 204, 205, 206, 210},
	"chanSumH2<0>":      {244},
	"scatterF<0>":       {273},
	"lifeTorus<0>":      {288, 289, 303, 304},
	"transposeU8<32>":   {331},
	"segHead<0>":        {342, 355, 358, 359},
	"haversine<double>": {380, 381, 382, 383, 384},
	"bitonic512<0>":     {416, 418},
	"rowMinMax<0>":      {461, 462, 466, 467, 481, 482},
	"relStore<0>":       {500, 501},
	"volParam<0>":       {519, 521},
	"spinNorm<0>":       {548, 549, 550, 551},
}

// solCheck15Files are the fifteenth held-out set's pages, raw and details
// (the default export) alike, each with the source page.
var solCheck15Files = map[string][]string{
	"raw": {"../../fixtures/sol-check15/sol_check15.raw.csv.gz", "../../fixtures/sol-check15/sol_check15.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check15/sol_triton15.raw.csv.gz", "../../fixtures/sol-check15/sol_triton15.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check15/sol_check15.details.csv.gz", "../../fixtures/sol-check15/sol_check15.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check15/sol_triton15.details.csv.gz", "../../fixtures/sol-check15/sol_triton15.source.cuda-sass.csv.gz"},
}

// TestSolCheck15 holds profan on the fifteenth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check15").
//
// The capture (02:08 UTC by the device's clock, one device call), before
// profan read it: the fixed twins' measured gains, 1 − t_fixed/t_broken
// from the raw page's gpu__time_duration.sum (median of two launches),
// read as plain CSV: mixS16 0.56, l1dist 0.68, bigTail 0.49, algSig
// 0.90, editDist 0.79, chanSumH2 0.98, scatterF 0.89, lifeTorus 0.42,
// transposeU8 0.38, segHead 0.87, haversine 0.48, bitonic512 0.49,
// rowMinMax 0.23, relStore 0.40, volParam 0.82, spinNorm 0.68, tr_col
// 0.73, hist_atomic 0.98, gmm_f64 0.80; with no rule hash64 0.40,
// nearestSqrt 0.45, warpRot 0.42, mm_s1 0.32; planned not to help
// stencil3 −0.05, sigmoidMap 0.05. Every name in the table is the
// capture's. Skipped until its first read (solCheck15Read), so that no
// test run reads it before; the bounds were the until then.
//
// First read, once, at 03:40 UTC with main at b7a83cf (after the
// fitters' cutoff): raw page mean |error| 0.1890, worst 0.8033 (gmm_f64,
// 0 against 0.80); details page 0.1848 and 0.8033. 16 of the 19 required
// findings on both pages: missing are l1dist<1>'s register-tile (read
// memory-bound, L1/shared at 95 %, "97% of its wavefronts at their ideal
// (shared-memory work of its own, no product)": its step is an FADD of
// an FADD's |a - b|, no FFMA and no FMNMX, so neither the FMA count nor
// the min-plus step sees a product; no headroom sentence, an unmarked 0
// against 0.68), haversine<double>'s fp64-on-float ("≈60 % ... on FP64
// pipe" unexplained, a forbidden uniform-load 0.05 on the double sin's
// coefficient table, line 382) and gmm_f64's fp64-on-float (Triton's
// fp64 tl.exp and tl.log, "≈41 % ... on FP64 pipe" unexplained): both
// have 16-byte global accesses (the math library's table; Triton's four
// fp32 a thread), which analysis.DoubleWork takes for double data. Other
// forbidden findings, on both pages: bigTail<1> low-occupancy 0.46 (the
// one 120 KiB block an SM, which the fix keeps), lifeTorus<0> bit-loop
// 0.70 (the neighbours' x[...] & 1, line 311, read as single-bit tests),
// rowMinMax<0> small-grid 0.03 (1024 blocks, 1.29 waves), hist_atomic
// fence-per-access 0.79 (tl.atomic_add's default acq_rel puts a
// MEMBAR.ALL.GPU before each atomic), mm_s1 barrier-stalls 0.34 (the
// unpipelined loop's barriers), stencil3<0> uncoalesced-global 0.08 (the
// neighbours' misaligned loads, 4.7 sectors a request where L1 serves
// them), sigmoidMap<0> narrow-access 0.43 (measured 0.05): eight on each
// page. Lines: every required finding that locates named one written for
// it, on both pages. Gains of the 16 given (raw): mixS16<1> 0.52 against
// 0.56, bigTail<1> 0.48 against 0.49, algSig<20> 0.92 against 0.90,
// editDist<0> 0.84 against 0.79, chanSumH2<0> 0.86 against 0.98 (0.98
// details), scatterF<0> 0.84 against 0.89, lifeTorus<0> 0.30 against
// 0.42, transposeU8<32> 0.45 against 0.38, segHead<0> 0.84 against 0.87,
// bitonic512<0> 0.48 against 0.49, rowMinMax<0> 0.23 against 0.23,
// relStore<0> 0.58 against 0.40, volParam<0> 0.88 against 0.82,
// spinNorm<0> 0.36 against 0.68, tr_col 0.73 against 0.73, hist_atomic
// 0.98 against 0.98. No-rule kernels: hash64<0> (0.40) "≈84 % ... on
// compute pipes", nearestSqrt<0> (0.45) "≈70 % ... on FP32 pipe",
// warpRot<0> (0.42) "≈81 % ... on FP32 pipe", mm_s1 (0.32) "≈20 % ... on
// tensor pipe" beside its forbidden barrier-stalls. Nothing was fitted on
// this set; the gaps are logged and the bounds held at the first read.
//
// After the fix (kfix17a, by mechanism): analysis.DoubleWork no longer
// takes every 8- or 16-byte global access for double data. A table read
// (one or two sectors a request: the double sin's coefficients,
// LDG.E.128.CONSTANT) and a float vector (every register a 16-byte load
// writes converted by an F2F.F64.F32, every one a store reads written by
// an F2F.F32.F64: Triton's four fp32 a thread) hold no double data.
// haversine<double> now gets fp64-on-float, 0.58 against 0.48 on both
// pages, and gmm_f64 0.70 against 0.80, in Triton's terms (tl.float32) at
// its .py lines. Mean |error| raw 0.1890 → 0.1457, details 0.1848 →
// 0.1415; worst 0.8033 → 0.6783 (spinNorm<0>). haversine<double>'s
// forbidden uniform-load 0.05 on the table stays.
//
// Fixed after the read (kfix17b, verdict version 119): l1dist<1>'s
// abs-difference accumulate (an FADD of an FADD's |a - b|) is its
// product's step, so register-tile prices it, 0.74 against 0.68, on
// both pages (no unmarked 0 left). Mean |error| raw 0.1457 → 0.1211,
// details 0.1415 → 0.1169; worst 0.6783 (l1dist<1> itself) → 0.4473
// (nearestSqrt<0>, no rule); bounds 0.122 and 0.448.
//
// After the fixes (kfix18b, verdict version 120, by mechanism):
// precise-math prices a correctly rounded sqrtf whose result divisions
// read (v / sqrtf(q) → v * rsqrtf(q): the square root's ten
// instructions become its MUFU.RSQ, each division one FMUL, its RCP and
// FCHK gone from the XU pipe): spinNorm<0> 0.36 → 0.53 against 0.68
// (the headroom on the XU pipe, which counts every MUFU as needed
// work, caps it; the sqrt on line 548 named beside the divisions).
// fence-per-access bounds the fix by the rate a store stream without
// its fences reaches (0.63 of DRAM's peak, the four fence pairs' fixed
// twins), not DRAM's ceiling: relStore<0> 0.58 → 0.43 against 0.40.
// int-division counts a modulo by a divisor whose reciprocal another
// line computed ((c + dc + w) % w on line 304 reuses line 288's, no
// I2F.RP of its own): lifeTorus<0> 0.30 → 0.44 against 0.42. Mean
// |error| raw 0.121 → 0.104, details 0.117 → 0.100; worst 0.447
// (nearestSqrt<0>, no rule) unchanged; bounds now 0.105 and 0.448.
//
// Forbidden findings fixed after the read (kfix18a), each by its
// mechanism, on both pages: bigTail<1>'s low-occupancy (0.46 → none):
// the kernel read latency-bound only through its tail's idle SMs, its
// FP32 pipe at 44 % over the kernel and 85 % in the wave that fills the
// GPU, so more warps an SM would not run that wave faster (h2Tail<1> and
// logisticTail<1>, the same tail in sol-check12 and sol-check9, lose
// theirs too); lifeTorus<0>'s bit-loop (0.70 → none): a loaded value
// anded with 1 once (x[...] & 1, eight neighbour bytes) is a flag masked
// out of data, not a word's bits walked; haversine<double>'s
// uniform-load (0.05 → none): the double sin's coefficient table is the
// math library's (its address from constant bank 4, on a line calling
// sin), not the kernel's to move; rowMinMax<0>'s small-grid (0.03 →
// none): a tail of a kernel L2 or DRAM limits shares the one memory
// system with the blocks before it, its idle slots not idle time, and
// the priced 0.03 is under the 0.25 a tail needs; hist_atomic's
// fence-per-access (0.79 → none): each MEMBAR.ALL.GPU orders the
// tl.atomic_add after it (the default sem="acq_rel"), on a kernel the
// atomics' serial service at L2 limits, so combining the atomics
// (atomic-serialization, 0.98, its Triton advice now naming
// sem="relaxed" for the atomics that remain) removes the fences with
// them: redundant beside it. The required findings' gains and the means
// do not move.
//
// Fixed after the read (kfix19a, verdict version 124, by mechanism):
// mm_s1's barrier-stalls (0.34 → none). Its warps wait at the barriers
// on the tiles' unpipelined loads: each step loads them into registers
// (LDG.E.128), stores them to shared memory (STS.128) and meets at a
// BAR.SYNC before its HGMMAs, with no LDGSTS or UTMALDG in the SASS. The
// new rule unpipelined-tiles names that class, 0.34 against the 0.32
// num_stages=4 measured, at the loads' lines 97 and 98 and in Triton's
// terms (num_stages >= 3, triton.autotune over it), and barrier-stalls
// leaves such a kernel to it. The pair stays a no-rule pair as written
// before the read (its row and the means do not move); no other set's
// findings move.
//
// Fixed after the read (kfix20b, verdict version 132, by mechanism):
// stencil3<0>'s uncoalesced-global (0.08 → none). Its taps x[i - 1] and
// x[i + 1], their indices clamped at the ends, are computed apart, each
// on its own register, both on line 662 (5 sectors a request), the
// aligned x[i] on line 663 (4): shiftedWindow (one line) and shiftedTap
// (one register) missed them. A misaligned load of the array an aligned
// load, as wide, reads (both addresses an IMAD.WIDE onto the one
// pointer) is that load's neighbour: its extra sector the aligned load
// moves anyway and L1 serves. No finding is left on the kernel ("≈46 %
// ... on DRAM" unexplained, as its pair says: fine as it is).
// sigmoidMap<0>'s narrow-access (0.43) stays, written down: the pair's
// premise does not hold on its pages. Written as DRAM-bound, the kernel
// runs DRAM at 48.6 % of its peak, latency-bound, 47 % headroom on DRAM
// (its twin 51.3 %, 44 %), and its 4-byte accesses carry all of its
// traffic: the rule reads a stream below DRAM's speed of light whose
// threads keep few bytes in flight, which is its mechanism
// (sol-check12's clampGS<1>, 4-byte accesses at 74 % of DRAM, gained
// 0.14 from float4). The planned fix (__fdividef, __expf) keeps the
// width, so the capture measures nothing of what the rule advises; the
// pair's design, not the rule, is what is wrong, and the rule is not
// bent to it. The means do not move (both are no-rule pairs).
func TestSolCheck15(t *testing.T) {
	skipShort(t)
	if !solCheck15Read {
		t.Skip("sol-check15: read once at 03:40 UTC or later with main as it is then; skipped until that read")
	}
	heldOutGaps(t, solCheck15Files, solCheck15Pairs, "sol-check15", 0.104, 0.448, solCheck15Gaps)
}

// solCheck15Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. Three required
// findings missing (l1dist<1> register-tile, haversine<double> and
// gmm_f64 fp64-on-float) and eight forbidden ones, the same on both
// pages; the two fp64-on-float ones met after the fix (kfix17a),
// l1dist<1>'s register-tile after kfix17b's; bigTail<1>'s low-occupancy,
// lifeTorus<0>'s bit-loop, haversine<double>'s uniform-load and
// rowMinMax<0>'s small-grid and hist_atomic's fence-per-access gone
// after kfix18a's, mm_s1's barrier-stalls after kfix19a's
// (unpipelined-tiles names its class), stencil3<0>'s uncoalesced-global
// after kfix20b's; sigmoidMap<0>'s narrow-access stays (the pair's
// premise, DRAM-bound, does not hold on its pages: TestSolCheck15).
var solCheck15Gaps = []string{"sigmoidMap<0> narrow-access"}

// solCheck15LineGaps are the required findings whose named line is not
// one of solCheck15Lines at the first read: logged, not failed. None at
// the first read.
var solCheck15LineGaps = []string{}

// TestSolCheck15Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck15Lines(t *testing.T) {
	skipShort(t)
	if !solCheck15Read {
		t.Skip("sol-check15: read once at 03:40 UTC or later with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck15Files, solCheck15Pairs, solCheck15Lines, "sol_check15.cu", solCheck15LineGaps)
}
