package rules_test

import (
	"slices"
	"testing"
)

// solCheck28Read says whether the twenty-eighth set (fixtures/sol-check28)
// has had its one read (with main as it is then, by someone who did not
// write the set): until then its tests, its entries in TestNoUnmarkedZero
// and internal/cli's TestHeadroomNeverUnmarked, and its pages in the tests
// that read every fixture (heldOutUnread), skip, so that no test run reads
// the set before.
const solCheck28Read = true

// solClasses28 are the class rules the twenty-eighth set forbids on
// kernels at their speed of light, on those whose class no rule knows and
// on those whose fix did not help: solClasses27 (no class rule landed
// between the twenty-seventh set's capture, 05:19 UTC on 2026-12-02, and
// this set's, 11:44: the rule commits between refine existing rules).
var solClasses28 = slices.Clone(solClasses27)

// solClasses28But is solClasses28 without the rules named.
func solClasses28But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses28), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck28Pairs are the twenty-eighth held-out set of the
// speed-of-light classes (sources in fixtures/gen/sol_check28.cu and
// sol_triton28.py): the classes in shapes and mechanisms none of the
// earlier sets has (12-bit Bayer samples in uint16, a 2-byte load and
// store a thread; an L1 distance matrix one output a thread from shared
// tiles; 32 channels soft-clipped a 1024-thread block a channel; complex
// bins to dB in 16-thread blocks; a word's nibbles counted in an int
// array of sixteen indexed by the nibble, in local memory; popcounts
// summed by a 64-bit atomicAdd a word on one total; a z-buffer's float
// min by the usual atomicCAS loop; vertex positions read from 48-byte
// structs; 32-float row-segment prefix sums through a shared 256 x 32
// tile a thread a row, 32-way; nanosecond timestamps split by 64-bit /
// and % by divisors passed at run time; the Magnus dew point with double
// literals and log; Gabor weights by sincosf, expf and cosf; two chaotic
// maps in interleaved slots, a thread a slot choosing by parity; a 63-tap
// FIR reading every tap from global memory; a 256-entry __constant__
// palette at data indices; in Triton a 32768-wide row softmax whole in
// registers on four warps, spilled, and a cumulative sum down the
// columns, a program a column), measured 0.30 or more fixed but for two
// that helped less than planned (gaborW 0.13, firTap63 0.10: their
// findings are still required, with the small gains the read must
// price); two kinds profan has no rule for (an upper-triangle pair index
// to (row, column) by a walk over the rows against the closed form, 0.99;
// a sum of up to 512 discount factors by a loop against (1 − γ^T)/(1 −
// γ), 0.90), whose broken kernels need no class finding and, each having
// run 30 % faster or more fixed, must state their headroom
// (TestNoUnmarkedZero, once read); and two fixes planned not to help,
// which did not (a DRAM-bound int4 clamp in 256-thread blocks against
// 1024, −0.05; Triton Huber loss BLOCK 1024 against 4096, −0.01). The
// required and the forbidden findings, and the lines the required ones
// should name (solCheck28Lines), were written here from the kernels'
// design, ptxas's report and the measured durations, read as plain CSV,
// before profan ever read the set. Allowed beside the required finding:
// low-occupancy on the channel grid (32 blocks: 100 SMs idle) and the
// 16-thread blocks and on the Triton softmax on four warps (its registers
// at the limit); atomic-serialization and uncoalesced-global on the
// z-buffer's CAS loop (64 fragments a pixel, pixels at random);
// barrier-stalls on the prefix tile (the conflicted scan between two
// barriers); precise-math on the double log; local-memory on the Gabor
// weights' cosf (ptxas: a 32-byte stack frame, the slow-path reduction);
// thread-divergence on the two no-rule kernels (each lane's trip count
// its own: the warp runs its longest). Not allowed: tensor-cores-unused
// on the L1 distances (|a − b| is no product: no MMA computes it),
// narrow-access on the vertex structs (4-byte loads whose fix is the
// layout, not their width). Every other class rule is forbidden on every
// broken kernel, every class rule but those named on the no-rule
// kernels, and every class rule on the fixes planned not to help.
var solCheck28Pairs = []solCheckPair{
	{calibPair{"void rawBlack<1>(unsigned short *, const unsigned short *, int)", "void rawBlack<8>(unsigned short *, const unsigned short *, int)", "128 Mi 12-bit Bayer samples in uint16, black level off and a white-balance gain: a 2-byte load and a 2-byte store a thread → a uint4 of eight samples in and out"}, "narrow-access", solClasses28But("narrow-access")},
	{calibPair{"void manhDist<1>(float *, const float *, const float *, int, int)", "void manhDist<4>(float *, const float *, const float *, int, int)", "the L1 distance matrix of 2048 x 2048 points of 128 features from shared tiles of 16 features x 16R points: one output a thread (two shared loads a |a − b|) → a 4x4 block a thread"}, "register-tile", solClasses28But("register-tile")},
	{calibPair{"void chanDrive<0>(float *, const float *, int)", "void chanDrive<1>(float *, const float *, int)", "32 channels of 2 Mi samples soft-clipped by the channel's drive, a grid-stride loop over the channel: one 1024-thread block a channel (32 blocks on 132 SMs) → 128 blocks a channel"}, "small-grid", solClasses28But("small-grid", "low-occupancy")},
	{calibPair{"void cpxDb<16>(float *, const float2 *, int)", "void cpxDb<256>(float *, const float2 *, int)", "32 Mi complex bins to power in dB, a bin a thread: 16-thread blocks (half a warp a block) → 256-thread blocks"}, "tiny-blocks", solClasses28But("tiny-blocks", "low-occupancy")},
	{calibPair{"void nibDistinct<0>(unsigned int *, const unsigned long long *, int)", "void nibDistinct<1>(unsigned int *, const unsigned long long *, int)", "the distinct nibbles of 32 Mi 64-bit words and their top count: an int array of sixteen counters indexed by the nibble (ptxas: a 64-byte stack frame) → byte counters packed in two 64-bit registers"}, "local-memory", solClasses28But("local-memory")},
	{calibPair{"void popTotal<0>(unsigned long long *, const unsigned int *, int)", "void popTotal<1>(unsigned long long *, const unsigned int *, int)", "the set bits of 32 Mi words summed: a 64-bit atomicAdd a word on one total → __reduce_add_sync a warp, a shared table, one atomicAdd a block"}, "atomic-serialization", solClasses28But("atomic-serialization")},
	{calibPair{"void zbufMin<0>(float *, const unsigned int *, const float *, unsigned int, int)", "void zbufMin<1>(float *, const unsigned int *, const float *, unsigned int, int)", "16 Mi fragments' depths into a 256 Ki-pixel z-buffer: the usual float min by an atomicCAS loop of fminf, a CAS a fragment at least → atomicMin on the depth's bits"}, "cas-loop", solClasses28But("cas-loop", "atomic-serialization", "uncoalesced-global")},
	{calibPair{"void vtxXform<0>(float *, const float *, Affine34, int)", "void vtxXform<1>(float *, const float *, Affine34, int)", "8 Mi vertex positions by a 3 x 4 matrix: read from 48-byte vertex structs {position, normal, uv, tangent} (lanes 48 bytes apart) → from three position planes"}, "uncoalesced-global", solClasses28But("uncoalesced-global")},
	{calibPair{"void tileRowPfx<0>(float *, const float *, int)", "void tileRowPfx<1>(float *, const float *, int)", "the prefix sums of 32-float row segments of an 8192 x 8192 matrix through a shared 256 x 32 tile, a thread scanning a row: rows of 32 words (32-way) → padded to 33"}, "shared-bank-conflict", solClasses28But("shared-bank-conflict", "barrier-stalls")},
	{calibPair{"void nsFields<0>(unsigned int *, const unsigned long long *, Units, int)", "void nsFields<1>(unsigned int *, const unsigned long long *, Units, int)", "32 Mi 64-bit nanosecond timestamps to day, hour, minute, second and millisecond: 64-bit / and % by divisors passed at run time → the same divisors compile-time constants"}, "int-division", solClasses28But("int-division")},
	{calibPair{"void dewPt<0>(float *, const float *, const float *, int)", "void dewPt<1>(float *, const float *, const float *, int)", "the Magnus dew point of 32 Mi float temperatures and humidities ported with double literals and double log → float literals and logf"}, "fp64-on-float", solClasses28But("fp64-on-float", "precise-math")},
	{calibPair{"void gaborW<0>(float *, const float *, const float *, int)", "void gaborW<1>(float *, const float *, const float *, int)", "32 Mi Gabor filter weights at eight orientations: sincosf, expf and cosf → __sincosf, __expf and __cosf (measured 0.13: near DRAM-bound once fixed)"}, "precise-math", solClasses28But("precise-math", "local-memory")},
	{calibPair{"void ilvMaps<0>(float *, const float *, int)", "void ilvMaps<1>(float *, const float *, int)", "16 Mi pairs of interleaved chaotic-map features, 96 steps each: a thread a slot, the map chosen by the slot's parity (every warp runs both bodies) → a thread a pair, both maps in one loop"}, "thread-divergence", solClasses28But("thread-divergence")},
	{calibPair{"void firTap63<0>(float *, const float *, int)", "void firTap63<1>(float *, const float *, int)", "a 63-tap FIR over 64 Mi samples: every tap's sample read from global memory (each read by 63 threads) → a block's samples and 62-sample halo staged in shared memory (measured 0.10)"}, "tile-shared-memory", solClasses28But("tile-shared-memory")},
	{calibPair{"void paletteMap<0>(uint4 *, const uchar4 *, const unsigned int *, int)", "void paletteMap<1>(uint4 *, const uchar4 *, const unsigned int *, int)", "64 Mi 8-bit indexed pixels to RGBA, four a thread: a 256-entry __constant__ palette read at the lanes' own indices → the palette copied to shared memory"}, "constant-serialization", solClasses28But("constant-serialization")},
	{calibPair{"smx_w4", "smx_w16", "Triton softmax of 1024 rows of 32768 fp32, a program a row, the whole row in registers: BLOCK=32768 on four warps (256 floats a thread and their exponentials, spilled) → on sixteen"}, "local-memory", solClasses28But("local-memory", "low-occupancy")},
	{calibPair{"cumsum0_col", "cumsum0_strip", "Triton cumulative sum down the columns of a 4096 x 8192 fp32 matrix: a program a column, 1024 rows a step (lanes a row, 32 KiB, apart) → a program a 16-column strip of [256, 16] tiles"}, "uncoalesced-global", solClasses28But("uncoalesced-global")},
	{calibPair{"void triRowWalk<0>(unsigned int *, const unsigned int *, int, int)", "void triRowWalk<1>(unsigned int *, const unsigned int *, int, int)", "4 Mi pair indices of an 8192-point triangle's upper half to (row, column): a walk over the rows → the closed form by sqrtf, corrected in integers (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses28But("thread-divergence", "serial-loop")},
	{calibPair{"void discSum<0>(float *, const float *, const unsigned int *, int)", "void discSum<1>(float *, const float *, const unsigned int *, int)", "8 Mi sums of T discount factors γ^t, T up to 512: a loop over the terms → (1 − γ^T)/(1 − γ) by exp2f and __log2f (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses28But("thread-divergence", "serial-loop")},
	{calibPair{"void satI32<256>(int4 *, const int4 *, int, int, int)", "void satI32<1024>(int4 *, const int4 *, int, int, int)", "128 Mi int32 clamped to a range, an int4 a thread, DRAM-bound: 256-thread blocks → 1024-thread blocks (measured −0.05: fine as it is)"}, "", solClasses28},
	{calibPair{"huber_b1024", "huber_b4096", "Triton Huber loss of 64 Mi fp32 against a target, DRAM-bound: BLOCK=1024 → BLOCK=4096 on four warps (measured −0.01: fine as it is)"}, "", solClasses28},
}

// solCheck28Lines are the lines of sol_check28.cu that each required
// finding which locates should name (any of them), written with the
// pairs from the source (the same line numbers as the capture's source
// page): the sample's load and store, the tiles' shared loads and the
// |a − b|, the counter array's declaration, clearing, increment and
// reads, the atomicAdd, the counter's read, CAS and retry, the structs'
// three loads, the scan's shared load and store, the five divisions, the
// double dew point, the sincosf and the expf and cosf, the parity branch
// and its two bodies, the taps' loads, the palette's reads.
var solCheck28Lines = map[string][]int{
	"triRowWalk<0>":  {494, 495, 496, 497},
	"discSum<0>":     {522, 523, 524},
	"rawBlack<1>":    {93},
	"manhDist<1>":    {130, 131, 136},
	"nibDistinct<0>": {189, 191, 192, 194, 195},
	"popTotal<0>":    {226},
	"zbufMin<0>":     {254, 257, 258},
	"vtxXform<0>":    {281, 282, 283},
	"tileRowPfx<0>":  {310, 311},
	"nsFields<0>":    {335, 336, 337, 338, 339},
	"dewPt<0>":       {362, 363},
	"gaborW<0>":      {383, 388},
	"ilvMaps<0>":     {404, 407, 411},
	"firTap63<0>":    {441},
	"paletteMap<0>":  {470},
}

// solCheck28Files are the twenty-eighth held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck28Files = map[string][]string{
	"raw": {"../../fixtures/sol-check28/sol_check28.raw.csv.gz", "../../fixtures/sol-check28/sol_check28.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check28/sol_triton28.raw.csv.gz", "../../fixtures/sol-check28/sol_triton28.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check28/sol_check28.details.csv.gz", "../../fixtures/sol-check28/sol_check28.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check28/sol_triton28.details.csv.gz", "../../fixtures/sol-check28/sol_triton28.source.cuda-sass.csv.gz"},
}

// TestSolCheck28 holds profan on the twenty-eighth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check28", once read).
//
// The capture (11:44 UTC on 2026-12-02 by the device's clock, one device
// call), before profan read it: the fixed twins' measured gains, 1 −
// t_fixed/t_broken from the raw page's gpu__time_duration.sum (median of
// two launches), read as plain CSV: rawBlack 0.66 (0.659), manhDist 0.63,
// chanDrive 0.81, cpxDb 0.91, nibDistinct 0.89, popTotal 0.99 (0.995:
// 24.57 ms against 0.13), zbufMin 0.58, vtxXform 0.56, tileRowPfx 0.76,
// nsFields 0.59, dewPt 0.37 (0.373), gaborW 0.13 (0.127), ilvMaps 0.48
// (0.483), firTap63 0.10 (0.105), paletteMap 0.84, smx_w4 0.30 (0.301),
// cumsum0_col 0.89; with no rule triRowWalk 0.99 (0.991: 1.79 ms against
// 0.016), discSum 0.90 (0.897); the fixes planned not to help, as
// planned, satI32 −0.05 (−0.047) and huber_b1024 −0.01 (−0.014). Every
// name in the table is the capture's. Skipped until its first read
// (solCheck28Read), so that no test run reads it before; the bounds were
// the (0.08, 0.2) until then.
//
// First read, once, at 12:18 UTC on 355a5a3 (verdict version 206; the
// same figures on 7c245f4, verdict version 208, where it landed): raw
// page mean |error| 0.1372, worst 0.9911 (triRowWalk<0>, no rule, 0
// against 0.991); details page 0.1372 and 0.9911. Over the 19 pairs with
// a class a rule names (the two no-rule pairs left out): 0.0522 raw,
// 0.0522 details. 16 of the 17 required findings on each page; missing,
// firTap63<0>'s tile-shared-memory on both pages: its re-reads hit L1
// (97.1 %), L2 serving about 2.2 times DRAM's read bytes, and the L1
// path (63 loads a stored element) leaves a kernel the L1/shared pipe
// limits (85 %) alone; only memory-bound is said, and the pair's
// estimate is 0 against 0.105, 0.005 of the mean. smx_w4's local-memory
// is given at a .py line (45) but in CUDA's terms (__launch_bounds__,
// -maxrregcount), not BLOCK_SIZE and num_warps; cumsum0_col's
// uncoalesced-global is in Triton's terms. Forbidden, one, on both
// pages: smx_w4's bit-loop 0.15 (sol_triton28.py:46, 2.46e+05
// warp-level single-bit tests: the LOP3.LUTs that unpack the masked
// store's per-element mask bits from one register into predicates)
// beside local-memory 0.24, the required finding; it does not count in
// the gain error. Lines: every required finding that locates named a
// line written for it (no line gap). Over-estimates: manhDist
// register-tile 0.74 against 0.63, dewPt fp64-on-float 0.49 against
// 0.37, gaborW precise-math 0.22 against 0.13; under: nsFields
// int-division 0.35 against 0.59, cumsum0_col uncoalesced-global 0.82
// against 0.89, smx_w4 local-memory 0.24 against 0.30; the other 10
// within 0.03 (zbufMin cas-loop 0.55 against 0.58 the widest). The two
// no-rule kernels state their headroom (triRowWalk "≈49 % ... on ALU
// pipe" raw, on compute pipes details, beside an allowed
// thread-divergence 0.51; discSum "≈30 % ... on FP32 pipe" beside
// thread-divergence 0.48) and add 0.090 to the mean; satI32 (−0.05) and
// huber_b1024 (−0.01) no class finding. Unmarked 0: none on either page
// (17 broken kernels on each; internal/cli's TestHeadroomNeverUnmarked,
// 15 CUDA and 2 Triton); TestConsistency on the set's 10 inputs, no
// failure. Nothing was fitted on this set; the gaps are logged and the
// bounds held at the first read.
//
// After the read (the set no longer a clean test): int-division reads
// nsFields<0>'s quotient chain as no modular arithmetic and prices the
// inline divisions' test and barrier, 0.35 to 0.57 against 0.59; the
// bound tightened to 0.127 (0.1269 on each page). register-tile's floor
// from the FP32 instructions issued, not FLOPs, on a kernel of adds
// (tileIssueFloor): manhDist<1> 0.74 to 0.68 against 0.63; the bound
// 0.124 (0.1239). Then, fitted on this set's logged misses (the set no
// longer a clean test of them): tile-shared-memory prices a kernel the
// L1/shared pipe limits by the data wavefronts its tile takes off, and
// firTap63<0> has its finding, 0.128 against 0.105 (and its headroom,
// on the FP32 pipe's work, is said held by L1/shared); a request whose lanes
// each touch their own line takes a wavefront a line, cumsum0_col 0.82
// to 0.88 against 0.89; spills whose registers bind the warps price the
// freed warps, smx_w4 0.24 to 0.33 against 0.30; precise-math adds the
// math left and the stream as a 2-norm, gaborW<0> 0.22 to 0.11 against
// 0.13. dewPt<0> stays 0.49 against 0.37 (fp64-on-float's float issue
// is not yet close enough to the float twins' for the 2-norm: it took
// sol-check27's sigmoidLL<0> 0.52 to 0.34 against 0.50). The bound
// 0.112 (0.1114 raw, 0.1115 details).
func TestSolCheck28(t *testing.T) {
	skipShort(t)
	if !solCheck28Read {
		t.Skip("sol-check28: read once, with main as it is then; skipped until that read")
	}
	// loop's serial-loop (verdict version 219), fitted after the read:
	// a loop with no memory access whose exit depends on a value each
	// thread loads or on its index, priced as the kernel without it down
	// to its memory floor: triRowWalk<0> none -> 0.992 against 0.991 at
	// lines 494-497, discSum<0> none -> 0.783 against 0.897 at lines
	// 522-524 (held by its headroom, 78 %, which counts the loop's FLOPs
	// as needed work), on both pages; means 0.1114 -> 0.0270 raw, 0.1115
	// -> 0.0271 details (ruled pairs 0.0238, 0.0239); bounds (0.112, 1.0)
	// -> (0.028, 0.12). The two pairs are fitted now, not held out.
	// fp64-on-float's 2-norm where the samples show no load wait (verdict
	// version 226, fitted after sol-check29's read): dewPt<0> 0.49 ->
	// 0.36 against 0.37; means 0.0270 -> 0.0221 raw, 0.0271 -> 0.0222
	// details; bound 0.028 -> 0.023. serial-loop's gain no longer held
	// by the headroom (verdict version 228, fitted after sol-check29's
	// read, on its rampTotal<0>): discSum<0> 0.783 -> 0.892 against
	// 0.897; means 0.0221 -> 0.0169 raw, 0.0222 -> 0.0170 details, worst
	// 0.114 -> 0.049; bounds (0.023, 0.12) -> (0.018, 0.06).
	heldOutGaps(t, solCheck28Files, solCheck28Pairs, "sol-check28", 0.018, 0.06, solCheck28Gaps)
}

// solCheck28Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. On each page, one
// required finding missing (firTap63<0>'s tile-shared-memory). The read
// also found smx_w4's local-memory not in Triton's terms and its
// bit-loop given, forbidden; all three fixed after the read (Triton's
// local-memory advice; bit-loop leaves masks' bits; tile-shared-memory
// on a kernel the L1/shared pipe limits), so they fail if they return,
// and the set is no longer a clean test of them.
var solCheck28Gaps = []string{}

// solCheck28LineGaps are the required findings whose named line is not
// one of solCheck28Lines at the first read: logged, not failed. None at
// the first read.
var solCheck28LineGaps = []string{}

// TestSolCheck28Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck28Lines(t *testing.T) {
	skipShort(t)
	if !solCheck28Read {
		t.Skip("sol-check28: read once, with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck28Files, solCheck28Pairs, solCheck28Lines, "sol_check28.cu", solCheck28LineGaps)
}
