package rules_test

import (
	"slices"
	"testing"
)

// solCheck29Read says whether the twenty-ninth set (fixtures/sol-check29)
// has had its one read (with main as it is then, by someone who did not
// write the set): until then its tests, its entries in TestNoUnmarkedZero
// and internal/cli's TestHeadroomNeverUnmarked, and its pages in the tests
// that read every fixture (heldOutUnread), skip, so that no test run reads
// the set before.
const solCheck29Read = true

// solClasses29 are the class rules the twenty-ninth set forbids on
// kernels at their speed of light, on those whose class no rule knows and
// on those whose fix did not help: solClasses28 and serial-loop, the rule
// this set's three serial loops are written for (being built at the
// capture, 14:43 UTC on 2026-12-02; no other class rule landed between the
// twenty-eighth set's capture, 11:44, and this one: cpu-op, the one new
// rule ID, is a host rule).
var solClasses29 = append(slices.Clone(solClasses28), "serial-loop")

// solClasses29But is solClasses29 without the rules named.
func solClasses29But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses29), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck29Pairs are the twenty-ninth held-out set of the speed-of-light
// classes (sources in fixtures/gen/sol_check29.cu and sol_triton29.py):
// the classes in shapes and mechanisms none of the earlier sets has (8-bit
// samples contrast-stretched a byte a thread; a max-times product one
// output a thread from shared tiles; 64 Ki Duffing oscillators in 64
// blocks of 1024 threads; counts to log10(1 + c) in 4-thread blocks; an
// 8-float vector rotated by a data-chosen amount through an array read at
// run-time indices, in local memory; a 64-bit (time, event) max per key by
// an atomicCAS loop; a paged KV cache gathered through a block table with
// the index split tokens fastest; xorshift1024* state in shared memory as
// [thread][16], 32-way; the barometric altitude with double literals and
// pow; the Mercator ordinate by tanf and logf; a 65-tap vertical FIR
// reading every tap from global memory in row blocks; a 64-entry
// __constant__ material table at data indices; in Triton Mish in 32-wide
// one-warp programs and the log-sigmoid in fp64), measured 0.42 or more
// fixed; three class pairs whose fixes helped less than planned, two
// keeping their required findings with the small gains the read must
// price (brickIdx's 32-bit division by run-time sizes 0.14, the float
// quotients of its fix not free; mapPick's divergence 0.11) and one with
// none (allFlags, −0.00: its fixed twin, an atomicAnd a warp, ran as long
// as the broken, 0.417 ms for 128 MiB read, neither near DRAM's rate:
// atomic-serialization is allowed on it, not required, since one address
// may bound both); three serial loops, per-thread loops that touch no
// memory, their trip count from the data, against a closed form, whose
// required finding is serial-loop (a 64-bit word's decimal digits by
// dividing by ten, 0.72; the periods of compound growth to a target by
// multiplying, 0.88; an arithmetic series term by term, 0.94); two
// algorithmic kinds profan has no rule for, straight-line code both ways
// (4x4 matrix exponentials by a 32-term Taylor series against scaling and
// squaring, 0.62; 7x7 determinants by cofactor expansion against
// elimination, 0.55), whose broken kernels need no class finding and,
// each having run 30 % faster or more fixed, must state their headroom
// (TestNoUnmarkedZero, once read); and two fixes planned not to help,
// which did not (a DRAM-bound float4 affine map in double against float,
// −0.00: fp64-on-float is forbidden there, the doubles hidden behind
// DRAM; Triton y = a/(b + 1) on four warps against eight, 0.00). The
// required and the forbidden findings, and the lines the required ones
// should name (solCheck29Lines), were written here from the kernels'
// design, ptxas's report and the measured durations, read as plain CSV,
// before profan ever read the set. Allowed beside the required finding:
// low-occupancy on the 64-block grid, the 4-thread blocks and the
// one-warp Triton programs; atomic-serialization and uncoalesced-global on
// the CAS loop (256 events a key, the keys at random); precise-math on
// the double pow and on Triton's fp64 exp and log; local-memory on the
// Mercator tanf (ptxas: a 32-byte stack frame, the slow-path reduction);
// thread-divergence on the three serial loops (each lane's trip count its
// own: the warp runs its longest). Not allowed: tensor-cores-unused on the
// max-times product (a max of products is no sum: no MMA computes it),
// narrow-access on the paged gather (4-byte loads whose fix is the index
// split, not their width), int-division on the digit count (a
// compile-time divisor, a multiply-high), serial-loop on the fixed-count
// loops (the Duffing steps, the maps' 96 steps, the generator's 64) and on
// the straight-line no-rule kernels. Every other class rule is forbidden
// on every broken kernel, every class rule on the no-rule kernels and on
// the fixes planned not to help.
var solCheck29Pairs = []solCheckPair{
	{calibPair{"void stretchU8<1>(unsigned char *, const unsigned char *, int)", "void stretchU8<16>(unsigned char *, const unsigned char *, int)", "256 Mi 8-bit samples contrast-stretched, (x − 16)·300/256 clamped: a 1-byte load and a 1-byte store a thread → a uint4 of sixteen samples in and out"}, "narrow-access", solClasses29But("narrow-access")},
	{calibPair{"void maxTimes<1>(float *, const float *, const float *, int, int)", "void maxTimes<4>(float *, const float *, const float *, int, int)", "the max-times product D[i][j] = max_k p_ik·q_jk of 2048 x 2048 rows of 128 features from shared tiles of 16 features x 16R rows: one output a thread (two shared loads a product) → a 4x4 block a thread"}, "register-tile", solClasses29But("register-tile")},
	{calibPair{"void duffStep<1024>(float *, const float *, int)", "void duffStep<128>(float *, const float *, int)", "4096 damped Duffing steps for 64 Ki oscillators, a thread an oscillator: 1024-thread blocks (64 blocks on 132 SMs) → 128-thread blocks (512)"}, "small-grid", solClasses29But("small-grid", "low-occupancy")},
	{calibPair{"void cntLog1p<4>(float *, const unsigned int *, int)", "void cntLog1p<256>(float *, const unsigned int *, int)", "16 Mi counts to log10(1 + c), a count a thread: 4-thread blocks (an eighth of a warp a block) → 256-thread blocks"}, "tiny-blocks", solClasses29But("tiny-blocks", "low-occupancy")},
	{calibPair{"void rotMix8<0>(float4 *, const float4 *, const unsigned int *, int)", "void rotMix8<1>(float4 *, const float4 *, const unsigned int *, int)", "16 Mi 8-float vectors, eight rounds of a rotation by a data-chosen amount and a neighbour mix: the rotation read from the array at run-time indices (ptxas: a 32-byte stack frame) → three conditional stages of fixed moves, in registers"}, "local-memory", solClasses29But("local-memory")},
	{calibPair{"void allFlags<0>(unsigned int *, const unsigned int *, int)", "void allFlags<1>(unsigned int *, const unsigned int *, int)", "the flags set in all of 16 Mi status words: an atomicAnd a word on one mask → __reduce_and_sync a warp, one atomicAnd a warp (planned as atomics; measured −0.00: both 0.417 ms)"}, "", solClasses29But("atomic-serialization")},
	{calibPair{"void lastSeen<0>(unsigned long long *, const unsigned int *, unsigned int, int)", "void lastSeen<1>(unsigned long long *, const unsigned int *, unsigned int, int)", "16 Mi events kept as their key's latest, (time << 32 | event) in 64 Ki slots: a 64-bit max by the usual atomicCAS loop, a CAS an event at least → the 64-bit atomicMax"}, "cas-loop", solClasses29But("cas-loop", "atomic-serialization", "uncoalesced-global")},
	{calibPair{"void pagedKv<0>(float *, const float *, const unsigned int *, float, int)", "void pagedKv<1>(float *, const float *, const unsigned int *, float, int)", "1 Mi tokens of 128 floats gathered through a block table of 16-token pages at random and scaled: the index split tokens fastest (lanes 512 bytes apart, loads and stores) → features fastest"}, "uncoalesced-global", solClasses29But("uncoalesced-global")},
	{calibPair{"void xs1024<0>(unsigned long long *, const unsigned int *, int)", "void xs1024<1>(unsigned long long *, const unsigned int *, int)", "64 steps of xorshift1024* a thread for 1 Mi threads, each thread's sixteen 64-bit state words in shared memory: as [thread][16] (every lane at the same word of its own 128-byte row, 32-way) → as [16][thread]"}, "shared-bank-conflict", solClasses29But("shared-bank-conflict")},
	{calibPair{"void brickIdx<0>(unsigned int *, const unsigned int *, Brick, int)", "void brickIdx<1>(unsigned int *, const unsigned int *, Brick, int)", "64 Mi voxel indices of a 256³ volume to 12³-brick order: five 32-bit / and % by the run-time sizes → each quotient by a float multiply with the reciprocal passed in, corrected once (measured 0.14)"}, "int-division", solClasses29But("int-division")},
	{calibPair{"void baroAlt<0>(float *, const float *, int)", "void baroAlt<1>(float *, const float *, int)", "the barometric altitude of 32 Mi float pressures, 44330.77·(1 − (p/1013.25)^0.190263), ported with double literals and double pow → float literals and powf"}, "fp64-on-float", solClasses29But("fp64-on-float", "precise-math")},
	{calibPair{"void mercY<0>(float *, const float *, int)", "void mercY<1>(float *, const float *, int)", "the Mercator ordinate ln tan(π/4 + φ/2) summed over eight parallels a thread for 32 Mi latitudes: tanf and logf → __tanf and __logf"}, "precise-math", solClasses29But("precise-math", "local-memory")},
	{calibPair{"void mapPick<0>(float *, const float *, const unsigned int *, int)", "void mapPick<1>(float *, const float *, const unsigned int *, int)", "16 Mi items, 96 steps of one of two quadratic maps chosen by a flag in the data: each map its own loop under the flag (every warp runs both) → the map's coefficients selected before one loop (measured 0.11)"}, "thread-divergence", solClasses29But("thread-divergence")},
	{calibPair{"void vFir65<0>(float *, const float *, int, int)", "void vFir65<1>(float *, const float *, int, int)", "a 65-tap vertical FIR over a 16384 x 2048 float image: every tap read from global memory by 256-thread row blocks (each row read by 65 blocks, mostly on other SMs) → 64 x 64 output tiles from a shared tile of 128 rows x 64 columns"}, "tile-shared-memory", solClasses29But("tile-shared-memory")},
	{calibPair{"void matProp<0>(float *, const float *, const unsigned int *, const float4 *, int)", "void matProp<1>(float *, const float *, const unsigned int *, const float4 *, int)", "32 Mi cells' property from their material's four coefficients: a 64-entry __constant__ table of float4 read at the lanes' own materials → the table in global memory read through __ldg"}, "constant-serialization", solClasses29But("constant-serialization")},
	{calibPair{"mish_b32_w1", "mish_b2048_w4", "Triton Mish of 64 Mi fp32 values: BLOCK=32 on one warp (2 Mi programs) → BLOCK=2048 on four warps"}, "tiny-blocks", solClasses29But("tiny-blocks", "low-occupancy")},
	{calibPair{"logsig_f64", "logsig_f32", "Triton log-sigmoid of 64 Mi fp32 values computed in fp64 (each value widened, exp and log in double) → in fp32"}, "fp64-on-float", solClasses29But("fp64-on-float", "precise-math")},
	{calibPair{"void decDigits<0>(unsigned int *, const unsigned long long *, int)", "void decDigits<1>(unsigned int *, const unsigned long long *, int)", "the decimal digits of 32 Mi 64-bit words (1 to 20 digits): divided by ten until below ten, a digit a step → nineteen comparisons with the powers of ten, summed"}, "serial-loop", solClasses29But("serial-loop", "thread-divergence")},
	{calibPair{"void growPeriods<0>(unsigned int *, const float *, const float *, const unsigned int *, int)", "void growPeriods<1>(unsigned int *, const float *, const float *, const unsigned int *, int)", "the periods 4 Mi balances compounded at their own rate take to reach their target (up to 417): multiplied a period a step → ⌈ln(target/p)/ln(1 + r)⌉"}, "serial-loop", solClasses29But("serial-loop", "thread-divergence")},
	{calibPair{"void rampTotal<0>(float *, const float *, const float *, const unsigned int *, int)", "void rampTotal<1>(float *, const float *, const float *, const unsigned int *, int)", "8 Mi sums of n terms a + k·d of an arithmetic series, n up to 1024: term by term → n·a + d·n(n − 1)/2"}, "serial-loop", solClasses29But("serial-loop", "thread-divergence")},
	{calibPair{"void expm4<0>(float4 *, const float4 *, int)", "void expm4<1>(float4 *, const float4 *, int)", "1 Mi 4x4 matrix exponentials: a 32-term Taylor series → scaling by 2^−5, a 6-term series and five squarings (no rule)"}, "", solClasses29},
	{calibPair{"void det7<0>(float *, const float *, const float *, int)", "void det7<1>(float *, const float *, const float *, int)", "8 Mi determinants of diagonally dominant 7x7 matrices made from two values: cofactor expansion along the rows → Gaussian elimination without pivoting (no rule)"}, "", solClasses29},
	{calibPair{"void affD4<0>(float4 *, const float4 *, double, double, int)", "void affD4<1>(float4 *, const float4 *, double, double, int)", "128 Mi floats, y = a·x + b, a float4 a thread, DRAM-bound: the arithmetic in double → in float (measured −0.00: fine as it is)"}, "", solClasses29},
	{calibPair{"ratio_w4", "ratio_w8", "Triton y = a/(b + 1) over 64 Mi fp32 pairs, DRAM-bound, BLOCK=4096: num_warps=4 → 8 (measured 0.00: fine as it is)"}, "", solClasses29},
}

// solCheck29Lines are the lines of sol_check29.cu that each required
// finding which locates should name (any of them), written with the
// pairs from the source (the same line numbers as the capture's source
// page): the sample's load and store, the tiles' shared loads and the
// products' max, the vector's array, its rotated read, the mix's stores
// and the final reads, the CAS loop's read, CAS and retry, the paged
// gather, the state's accessor and its reads and writes, the division and
// its three calls, the double pow, the tanf and logf, the flag's branch
// and its two loops, the taps' loads, the table's read, and each serial
// loop's test and body.
var solCheck29Lines = map[string][]int{
	"stretchU8<1>":   {100},
	"maxTimes<1>":    {137, 138, 143},
	"rotMix8<0>":     {194, 200, 210, 212, 213},
	"lastSeen<0>":    {246, 249, 250},
	"pagedKv<0>":     {275},
	"xs1024<0>":      {297, 299, 303, 305, 308},
	"brickIdx<0>":    {328, 343, 344, 345},
	"baroAlt<0>":     {361},
	"mercY<0>":       {380},
	"mapPick<0>":     {400, 402, 405},
	"vFir65<0>":      {431},
	"matProp<0>":     {466},
	"decDigits<0>":   {487, 488, 489},
	"growPeriods<0>": {518, 519, 520},
	"rampTotal<0>":   {541, 542, 543},
}

// solCheck29Files are the twenty-ninth held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck29Files = map[string][]string{
	"raw": {"../../fixtures/sol-check29/sol_check29.raw.csv.gz", "../../fixtures/sol-check29/sol_check29.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check29/sol_triton29.raw.csv.gz", "../../fixtures/sol-check29/sol_triton29.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check29/sol_check29.details.csv.gz", "../../fixtures/sol-check29/sol_check29.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check29/sol_triton29.details.csv.gz", "../../fixtures/sol-check29/sol_triton29.source.cuda-sass.csv.gz"},
}

// TestSolCheck29 holds profan on the twenty-ninth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check29", once read).
//
// The capture (14:43 UTC on 2026-12-02 by the device's clock, one device
// call), before profan read it: the fixed twins' measured gains, 1 −
// t_fixed/t_broken from the raw page's gpu__time_duration.sum (median of
// two launches), read as plain CSV: stretchU8 0.80 (0.795), maxTimes
// 0.61, duffStep 0.45 (0.452), cntLog1p 0.98, rotMix8 0.77, allFlags
// −0.00 (−0.001), lastSeen 0.55, pagedKv 0.95 (0.949: 11.21 ms against
// 0.57), xs1024 0.86, brickIdx 0.14 (0.138), baroAlt 0.50 (0.495), mercY
// 0.42 (0.419), mapPick 0.11 (0.106), vFir65 0.72, matProp 0.74,
// mish_b32_w1 0.90, logsig_f64 0.59; serial loops decDigits 0.72,
// growPeriods 0.88, rampTotal 0.94 (0.940: 0.58 ms against 0.035); with no
// rule expm4 0.62 and det7 0.55; the fixes planned not to help, as
// planned, affD4 −0.00 (−0.002) and ratio_w4 0.00 (0.005). Every name in
// the table is the capture's. Skipped until its first read
// (solCheck29Read), so that no test run reads it before; the bounds were
// the (0.08, 0.2) until then.
//
// First read, once, at 15:29 UTC on 56addce (verdict version 219), as
// soon as serial-loop had landed (ed2ff26, 56addce): raw page mean
// |error| 0.1882, worst 0.7237 (vFir65<0>, 0 against 0.724); details
// page 0.1883 and 0.7245. Over the 22 pairs with a class a rule names
// (the two no-rule pairs left out): 0.1519 raw, 0.1519 details; over the
// three serial loops 0.109 (decDigits 0.75 against 0.72, growPeriods 0.88
// against 0.88, rampTotal 0.65 against 0.94). 16 of the 19 required
// findings on each page; missing, on both pages: maxTimes<1>'s
// register-tile (only memory-bound: L1/shared at 93 %, its work read as
// "shared-memory work of its own, no product", the max of products
// having no FFMA), lastSeen<0>'s cas-loop (only memory-bound: L2 at 96 %,
// the 64-bit loads at line 246 scattered, no finding on the CAS loop)
// and vFir65<0>'s tile-shared-memory (only compute-bound: ALU pipe at
// 64 %, its loads coalesced, L2 at 72 %); the three pairs' estimates 0
// against 0.61, 0.55 and 0.72 (0.079 of the mean). pagedKv<0>'s gather
// is priced by two uncoalesced-global findings of 0.77, the loads' and
// the stores' (line 275), the stores' not named a gather. Forbidden,
// one, on both pages: rotMix8<0>'s uncoalesced-global 0.47 (its 16-byte
// stores at lines 212 and 213, 32 sectors a request where 16 would do)
// beside local-memory 0.79, the required finding; it does not count in
// the gain error. serial-loop fired on the three serial loops only.
// Lines: every required finding that locates named a line written for
// it (no line gap). Over-estimates: mapPick thread-divergence 0.48
// against 0.11, baroAlt fp64-on-float 0.71 against 0.50, brickIdx
// int-division 0.34 against 0.14, mercY precise-math 0.59 against 0.42;
// under: rampTotal serial-loop 0.65 against 0.94, logsig_f64
// fp64-on-float 0.52 against 0.59; the other 11 given within 0.035
// (decDigits the widest). The no-rule kernels state their headroom
// (expm4 "≈38 % ... on FP32 pipe", det7 "≈34 % ... on FP32 pipe") and
// add 0.049 to the mean; allFlags (atomic-serialization 0.80, allowed),
// affD4 and ratio_w4 no forbidden finding. Unmarked 0: none on either
// page (19 broken kernels on each; internal/cli's
// TestHeadroomNeverUnmarked, 17 CUDA and 2 Triton). TestConsistency on
// the set's 10 inputs: pagedKv<0>'s two findings state one gain twice
// (internal/cli's consistencyGaps). Nothing was fitted on this set; the
// gaps are logged and the bounds held at the first read.
//
// Fitted after the read (kmiss2; fits, not held-out results): cas-loop
// reads an integer max SEL'd into the CAS (lastSeen<0> 0 -> 0.57
// against 0.55); a run split over two statements is a split run
// (rotMix8<0>'s forbidden uncoalesced-global 0.47 -> none); a gather
// whose stores on its statement waste as much is one index split
// (pagedKv<0>: two findings of 0.77 -> one of 0.94, named a gather; its
// consistency gap gone). Raw mean |error| 0.1882 -> 0.1662, details
// 0.1883 -> 0.1663; over the 22 ruled pairs 0.1519 -> 0.1279 (raw),
// 0.1280 (details); worst 0.7237 / 0.7245 (vFir65<0>) unchanged. The
// bounds: (0.189, 0.73) -> (0.167, 0.73).
//
// Fitted after the read (kmiss1; fits too): register-tile counts a max
// of products as a product's step (maxTimes<1> 0 -> 0.68 against 0.61);
// tile-shared-memory sees a window whose re-reads miss L1 (vFir65<0>
// 0 -> 0.72 against 0.72). Raw mean |error| 0.1662 -> 0.1140, details
// 0.1663 -> 0.1141; ruled pairs 0.1279 -> 0.0709 (raw), 0.0710
// (details); worst 0.7237 -> 0.6228 (expm4<0>, no rule). The bounds:
// (0.167, 0.73) -> (0.115, 0.63).
//
// Fitted after the read (the set is no longer a clean test of it):
// fp64-on-float adds the stream to the float math as a 2-norm where the
// double kernel's stall samples show no wait on its loads (verdicts
// 226): baroAlt<0> 0.71 -> 0.61 against 0.50 (its loads' waits 0.1 % of
// its samples; the float issue it counts, 85 µs, is still under its
// twin's 109 µs: the precise powf's 70 instructions a call are more than
// the double pow's integer work). After kmiss2's and kmiss1's fits: raw
// mean |error| 0.1141 -> 0.1099 (details the same), over the 22 ruled
// pairs 0.071 -> 0.0664; bound 0.115 -> 0.111. mercY<0>, brickIdx<0>
// and mapPick<0> are as read.
//
// Fitted after the read (kfix; a fit): serial-loop's gain is bounded by
// the floors it prices, not by the headroom, whose ideal on the FP32
// pipe counts the loop's arithmetic as necessary work (Rule.RemovesWork;
// verdict version 228): rampTotal<0> 0.652 (its headroom, 0.65) ->
// 0.923 against 0.940. Raw mean |error| 0.1099 -> 0.0986 (details the
// same), ruled pairs 0.0664 -> 0.0541; bound 0.111 -> 0.099.
// precise-math tells tanf from sinf (analysis.PreciseTan, the 1/3 term
// of its polynomial): __tanf is three MUFUs (SIN, COS, the quotient's
// RCP), not one, and the XU pipe bounds the fix (mercY<1> ran at 97 %
// of it; verdict version 229): mercY<0> 0.587 -> 0.388 against 0.419.
// Mean 0.0986 -> 0.0929 (both pages), ruled 0.0541 -> 0.0479; bound
// 0.099 -> 0.094.
func TestSolCheck29(t *testing.T) {
	skipShort(t)
	if !solCheck29Read {
		t.Skip("sol-check29: read once, with main as it is then; skipped until that read")
	}
	heldOutGaps(t, solCheck29Files, solCheck29Pairs, "sol-check29", 0.094, 0.63, solCheck29Gaps)
}

// solCheck29Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. On each page, three
// required findings missing (maxTimes<1>'s register-tile, lastSeen<0>'s
// cas-loop, vFir65<0>'s tile-shared-memory), one forbidden given
// (rotMix8<0>'s uncoalesced-global) and one gather not named as one
// (pagedKv<0>'s stores).
//
// Fitted after the read (kmiss2, each a fit, not a held-out result):
// lastSeen<0>'s cas-loop (an integer max SEL'd into the CAS, 0 -> 0.57
// against 0.55), rotMix8<0>'s forbidden uncoalesced-global (two stores
// of one thread's 32 bytes, a split run: 0.47 -> none) and pagedKv<0>'s
// gather (loads and stores one index split, one finding: two of 0.77 ->
// one of 0.94 against 0.95) are off the list. Fitted after the read
// too (kmiss1): maxTimes<1>'s register-tile (a max of products, an
// FMUL of two registers and its FMNMX, the tile's step; the FMNMXs kept
// in the issue floor): missing -> 0.68 against 0.61; vFir65<0>'s
// tile-shared-memory (a window whose re-reads miss L1, its ALU-held taps
// priced by the L1/shared wavefronts the tile moves): missing -> 0.72
// against 0.72, both pages. The list is empty: a gap that returns fails.
var solCheck29Gaps = []string{}

// solCheck29LineGaps are the required findings whose named line is not
// one of solCheck29Lines at the first read: logged, not failed. None at
// the first read.
var solCheck29LineGaps = []string{}

// TestSolCheck29Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck29Lines(t *testing.T) {
	skipShort(t)
	if !solCheck29Read {
		t.Skip("sol-check29: read once, with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck29Files, solCheck29Pairs, solCheck29Lines, "sol_check29.cu", solCheck29LineGaps)
}
