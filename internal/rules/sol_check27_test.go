package rules_test

import (
	"slices"
	"testing"
)

// solClasses27 are the class rules the twenty-seventh set forbids on
// kernels at their speed of light, on those whose class no rule knows and
// on those whose fix did not help: solClasses26 (no class rule landed
// between the twenty-sixth set's capture, 02:02 UTC on 2026-12-02, and
// this set's, 05:19: the rule commits between refine existing rules).
var solClasses27 = slices.Clone(solClasses26)

// solClasses27But is solClasses27 without the rules named.
func solClasses27But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses27), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck27Read says whether the twenty-seventh set has had its one read
// (with main as it is then, by someone who did not write the set): until
// then its tests, its entries in TestNoUnmarkedZero and internal/cli's
// TestHeadroomNeverUnmarked, and its pages in the tests that read every
// fixture (heldOutUnread), skip, so that no test run reads the set
// before.
const solCheck27Read = true

// solCheck27Pairs are the twenty-seventh held-out set of the
// speed-of-light classes (sources in fixtures/gen/sol_check27.cu and
// sol_triton27.py): the classes in shapes and mechanisms none of the
// earlier sets has (RGBA8 pixels premultiplied by alpha, a 4-byte load
// and store a thread; a cosine-similarity matrix one output a thread from
// shared tiles; Lorenz steps grid-stride over SMs/2 blocks; planar HSV to
// RGB in 8-thread blocks; decimal digits reversed through an int array
// indexed by a running count, in local memory; a global abs-max by an
// atomicMax a value on one word; the Moore-neighbour sum of a grid held as
// a mesh labelled at random, eight gathers a cell; a 5-point heat step
// with threadIdx.x along the rows' index; a spring chain's state in
// shared 8-float structs, 8-way; mixed-radix digits by 32-bit / and % by
// run-time radices; a logistic loss with double exp and log1p; a flat-top
// window in dB by cosf and log10f; tickets mod 1000 by an atomicCAS loop
// where atomicInc wraps natively; four kinds of recurrence mixed at
// random in every warp; in Triton a row log-sum-exp in fp64 and (x +
// xᵀ)/2 a program a row segment reading the mirror down a column), every
// one measured 0.40 or more fixed; two kinds profan has no rule for (leap
// years counted by a loop over the years against y/4 − y/100 + y/400,
// 0.99; the integer cube root by a linear walk against cbrtf corrected,
// 0.93), whose broken kernels need no class finding and, each having run
// 30 % faster or more fixed, must state their headroom
// (TestNoUnmarkedZero, once read); and two fixes planned not to help,
// which did not (a DRAM-bound float4 standardisation, plain against
// __ldcs and __stcs, −0.01; Triton softsign on four warps against eight,
// 0.01). The required and the forbidden findings, and the lines the
// required ones should name (solCheck27Lines), were written here from the
// kernels' design, ptxas's report and the measured durations, read as
// plain CSV, before profan ever read the set. Allowed beside the required
// finding: low-occupancy on the small grid (eight warps on half the SMs)
// and the 8-thread blocks; tensor-cores-unused on the cosine similarity
// (an fp32 product: TF32 would be another fix); thread-divergence on the
// digit reversal (its loops run each word's count of digits) and on the
// two no-rule walks (each lane's trip count its own: the warp runs its
// longest); tile-shared-memory on the heat step and the Triton
// symmetric part (a stencil and a mirror, both tileable); barrier-stalls
// on the spring chain (two barriers a step); precise-math on the double
// exp and log1p and on the Triton fp64 exp and log; local-memory on the
// window's cosf (ptxas: a 32-byte stack frame, the slow-path reduction);
// on the ticket loop also atomic-serialization and uncoalesced-global
// (4096 counters at random). Every other class rule is forbidden on every
// broken kernel, and every class rule but those named on the no-rule
// kernels and every class rule on the fixes planned not to help.
var solCheck27Pairs = []solCheckPair{
	{calibPair{"void rgbaPremul<1>(unsigned int *, const unsigned int *, int)", "void rgbaPremul<4>(unsigned int *, const unsigned int *, int)", "64 Mi RGBA8 pixels premultiplied by their alpha: a 4-byte load and a 4-byte store a thread → a uint4 of four pixels in and out"}, "narrow-access", solClasses27But("narrow-access")},
	{calibPair{"void cosSim<1>(float *, const float *, const float *, const float *, const float *, int, int)", "void cosSim<4>(float *, const float *, const float *, const float *, const float *, int, int)", "the cosine similarity of 2048 queries and 2048 keys of 256 features from shared tiles of 16 features x 16R rows: one output a thread (two shared loads an FMA) → a 4x4 block a thread"}, "register-tile", solClasses27But("register-tile", "tensor-cores-unused")},
	{calibPair{"void lorenzGrid<0>(float *, const float *, int, int)", "void lorenzGrid<1>(float *, const float *, int, int)", "256 Euler steps of the Lorenz system for 1 Mi items, a grid-stride loop: SMs/2 blocks of 256 threads (half the SMs idle, eight warps on the others) → 8·SMs blocks"}, "small-grid", solClasses27But("small-grid", "low-occupancy")},
	{calibPair{"void hsv2rgb<8>(float *, const float *, int)", "void hsv2rgb<256>(float *, const float *, int)", "32 Mi planar HSV pixels to R, G and B planes, a pixel a thread: 8-thread blocks (a quarter of a warp a block) → 256-thread blocks"}, "tiny-blocks", solClasses27But("tiny-blocks", "low-occupancy")},
	{calibPair{"void revDec<0>(unsigned int *, const unsigned int *, int)", "void revDec<1>(unsigned int *, const unsigned int *, int)", "the decimal digits of 64 Mi words reversed: pushed into an int array of ten by a running count and read back (ptxas: a 40-byte stack frame) → r = 10r + n % 10 as n is divided"}, "local-memory", solClasses27But("local-memory", "thread-divergence")},
	{calibPair{"void absMaxBits<0>(unsigned int *, const float *, int)", "void absMaxBits<1>(unsigned int *, const float *, int)", "the largest |x − 0.5| of 16 Mi floats as its bits: a global atomicMax a value on one word → __reduce_max_sync a warp, a shared table, one atomicMax a block"}, "atomic-serialization", solClasses27But("atomic-serialization")},
	{calibPair{"void mooreSum<0>(float *, const float *, const unsigned int *, int)", "void mooreSum<1>(float *, const float *, const unsigned int *, int)", "the 8-neighbour sum of each cell of a periodic 4096 x 4096 grid held as a mesh, eight gathers a cell from a 64 MiB field: the cells labelled at random → labelled in row order"}, "uncoalesced-global", solClasses27But("uncoalesced-global")},
	{calibPair{"void heatStep<0>(float *, const float *, int, float)", "void heatStep<1>(float *, const float *, int, float)", "one explicit 5-point heat step on 8192 x 8192 floats in 32 x 8 blocks: threadIdx.x along the rows' index (lanes a row of 32 KiB apart) → along the columns"}, "uncoalesced-global", solClasses27But("uncoalesced-global", "tile-shared-memory")},
	{calibPair{"void chainSh<0>(float *, const float *, const float *, int)", "void chainSh<1>(float *, const float *, const float *, int)", "128 steps of a 256-mass spring chain a block, its state in shared memory: 8-float structs, x, v and 1/m at a stride of 8 words (8-way) → three shared arrays"}, "shared-bank-conflict", solClasses27But("shared-bank-conflict", "barrier-stalls")},
	{calibPair{"void digitMix<0>(unsigned int *, const unsigned int *, Radix8, int)", "void digitMix<1>(unsigned int *, const unsigned int *, Radix8, int)", "64 Mi words to eight mixed-radix digits, weighted and summed: 32-bit / and % by the run-time radices → multiply-high by magic numbers made on the host"}, "int-division", solClasses27But("int-division")},
	{calibPair{"void sigmoidLL<0>(float *, const float *, const unsigned int *, int)", "void sigmoidLL<1>(float *, const float *, const unsigned int *, int)", "the logistic loss of 32 Mi float logits and labels ported with double literals, double exp and log1p → float literals, expf and log1pf"}, "fp64-on-float", solClasses27But("fp64-on-float", "precise-math")},
	{calibPair{"void hftWinDb<0>(float *, const float *, int)", "void hftWinDb<1>(float *, const float *, int)", "32 Mi samples by an 8-term flat-top window in dB: cosf(kθ) a term and log10f → __cosf and __log10f"}, "precise-math", solClasses27But("precise-math", "local-memory")},
	{calibPair{"void ringTicket<0>(unsigned int *, unsigned int *, const unsigned int *, unsigned int, int)", "void ringTicket<1>(unsigned int *, unsigned int *, const unsigned int *, unsigned int, int)", "16 Mi items each taking a ticket mod 1000 from one of 4096 counters: an atomicCAS loop of (old + 1) mod 1000 → atomicInc, which wraps natively"}, "cas-loop", solClasses27But("cas-loop", "atomic-serialization", "uncoalesced-global")},
	{calibPair{"void kindIter<0>(float *, const float *, const unsigned int *, int)", "void kindIter<1>(float *, const float *, const unsigned int *, int)", "32 Mi items of four kinds, each kind a different 64-step recurrence: the kinds mixed at random (every warp runs all four bodies) → the same items grouped by kind upstream"}, "thread-divergence", solClasses27But("thread-divergence")},
	{calibPair{"rowlse_f64", "rowlse_f32", "Triton log-sum-exp of each row of a 32768 x 4096 fp32 matrix, a program a row: the row widened to fp64, exp and log in double → fp32"}, "fp64-on-float", solClasses27But("fp64-on-float", "precise-math")},
	{calibPair{"symm_rowseg", "symm_tile", "Triton (x + xᵀ)/2 of an 8192 x 8192 fp32 matrix: a program a 1024-wide row segment, the mirrored values loaded down a column (lanes a row, 32 KiB, apart) → a program a [64, 64] tile, the mirrored tile loaded by rows and transposed"}, "uncoalesced-global", solClasses27But("uncoalesced-global", "tile-shared-memory")},
	{calibPair{"void leapCnt<0>(unsigned int *, const unsigned int *, int)", "void leapCnt<1>(unsigned int *, const unsigned int *, int)", "the leap years from year 1 to y for 1 Mi years up to 4096: a loop over the years testing each → y/4 − y/100 + y/400 (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses27But("thread-divergence", "serial-loop")},
	{calibPair{"void icbrtWalk<0>(unsigned int *, const unsigned int *, int)", "void icbrtWalk<1>(unsigned int *, const unsigned int *, int)", "the integer cube root of 8 Mi 24-bit words: a walk r = 0, 1, ... while (r + 1)³ <= n → cbrtf, corrected in integers (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses27But("thread-divergence", "serial-loop")},
	{calibPair{"void stdzF4<0>(float4 *, const float4 *, int)", "void stdzF4<1>(float4 *, const float4 *, int)", "y = (x − 0.5)·2.5 over 128 Mi floats, a float4 a thread, DRAM-bound: plain loads and stores → __ldcs and __stcs (measured −0.01: fine as it is)"}, "", solClasses27},
	{calibPair{"softsign_w4", "softsign_w8", "Triton y = x / (1 + |x|) over 64 Mi fp32, DRAM-bound: BLOCK=2048 on four warps → on eight (measured 0.01: fine as it is)"}, "", solClasses27},
}

// solCheck27Lines are the lines of sol_check27.cu that each required
// finding which locates should name (any of them), written with the
// pairs from the source (the same line numbers as the capture's source
// page): the pixel's load and store, the tiles' shared loads and the FMA,
// the digit array's declaration, push and read-back, the atomicMax, the
// neighbours' gathers, the stencil's loads and store, the chain's shared
// loads and stores, the division and the remainder, the double loss, the
// cosf and log10f, the counter's read, CAS and retry, the switch and the
// four bodies.
var solCheck27Lines = map[string][]int{
	"leapCnt<0>":    {451},
	"icbrtWalk<0>":  {471},
	"rgbaPremul<1>": {93},
	"cosSim<1>":     {131, 132, 137},
	"revDec<0>":     {203, 205, 208},
	"absMaxBits<0>": {229},
	"mooreSum<0>":   {258},
	"heatStep<0>":   {280, 281, 282, 283},
	"chainSh<0>":    {304, 305, 306, 309, 310},
	"digitMix<0>":   {336, 339},
	"sigmoidLL<0>":  {357},
	"hftWinDb<0>":   {377, 381},
	"ringTicket<0>": {395, 397, 398, 399},
	"kindIter<0>":   {418, 421, 425, 429, 433},
}

// solCheck27Files are the twenty-seventh held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck27Files = map[string][]string{
	"raw": {"../../fixtures/sol-check27/sol_check27.raw.csv.gz", "../../fixtures/sol-check27/sol_check27.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check27/sol_triton27.raw.csv.gz", "../../fixtures/sol-check27/sol_triton27.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check27/sol_check27.details.csv.gz", "../../fixtures/sol-check27/sol_check27.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check27/sol_triton27.details.csv.gz", "../../fixtures/sol-check27/sol_triton27.source.cuda-sass.csv.gz"},
}

// TestSolCheck27 holds profan on the twenty-seventh held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check27", once read).
//
// The capture (05:19 UTC on 2026-12-02 by the device's clock, one device
// call that ran; an identical one before it was taken back for other
// work and returned nothing), before profan read it: the fixed twins'
// measured gains, 1 − t_fixed/t_broken from the raw page's
// gpu__time_duration.sum (median of two launches), read as plain CSV:
// rgbaPremul 0.40 (0.399), cosSim 0.71 (0.706), lorenzGrid 0.56 (0.565),
// hsv2rgb 0.92, revDec 0.58 (0.575), absMaxBits 0.84, mooreSum 0.72,
// heatStep 0.86, chainSh 0.76, digitMix 0.45 (0.449), sigmoidLL 0.50
// (0.499), hftWinDb 0.60, ringTicket 0.97 (16.61 ms against 0.55),
// kindIter 0.68, rowlse_f64 0.56, symm_rowseg 0.64; with no rule leapCnt
// 0.99 (0.992), icbrtWalk 0.93 (0.935); the fixes planned not to help, as
// planned, stdzF4 −0.01 (−0.012) and softsign_w4 0.01 (0.014). Every
// name in the table is the capture's. Skipped until its first read
// (solCheck27Read), so that no test run reads it before; the bounds were
// the (0.08, 0.2) until then.
//
// First read, once, at 06:02 UTC on 7d75dfc (verdict version 202): raw
// page mean |error| 0.1939, worst 0.9923 (leapCnt<0>, no rule, 0 against
// 0.992); details page 0.1938 and 0.9923. Over the 18 pairs with a class
// a rule names (the two no-rule pairs left out): 0.1083 raw, 0.1083
// details. 15 of the 16 required findings on each page, the two Triton
// ones (rowlse_f64 fp64-on-float, symm_rowseg uncoalesced-global) in
// Triton's terms at a .py line; missing, ringTicket<0>'s cas-loop on
// both pages: its atomicCAS loop is read as atomic-serialization 0.87
// (allowed; "ATOMG.E.CAS" at line 398) and the pair's estimate is 0
// against 0.967, 0.048 of the mean. Forbidden, two, on both pages:
// cosSim<1>'s uniform-load 0.09 (one global load a warp reads at one
// address, line 146) beside register-tile 0.74, the required finding;
// sigmoidLL<0>'s thread-divergence 0.33 (branch efficiency 80.4 %, 20.8
// of 32 threads active, line 357) beside fp64-on-float 0.51, the
// required one; neither counts in the gain error. Lines: every required
// finding that locates named a line written for it (no line gap).
// Over-estimates: revDec local-memory 0.77 against 0.58, digitMix
// int-division 0.57 against 0.45, hftWinDb precise-math 0.69 against
// 0.60; under: mooreSum uncoalesced-global 0.50 against 0.72, rowlse_f64
// fp64-on-float 0.42 against 0.56; the other 10 within 0.05 (kindIter
// thread-divergence 0.73 against 0.68 the widest). The two no-rule
// kernels state their headroom (leapCnt "≈53 % ... on ALU pipe" raw, on
// issue slots details, beside an allowed thread-divergence 0.47;
// icbrtWalk "≈73 % ... on issue slots" beside thread-divergence 0.25)
// and add 0.096 to the mean; stdzF4 (−0.01) and softsign_w4 (0.01) no
// class finding. Unmarked 0: none on either page (18 broken kernels on
// each; internal/cli's TestHeadroomNeverUnmarked, 16 CUDA and 2 Triton);
// TestConsistency on the set's 10 inputs, no failure. Nothing was fitted on this set; the gaps are logged and the
// bounds held at the first read.
// after the read: verdict version 204 (rules: cas-loop reads a CAS
// loop's wrapping increment): a 32-bit CAS swapping in old + 1, or 0
// once an unsigned compare finds old at the bound (VIADD, ISETP.GE.U32,
// SEL: atomicInc's wrap) is cas-loop's: ringTicket<0> cas-loop 0.93
// against 0.967 on both pages (was atomic-serialization 0.87 alone).
// after the read: verdict version 205 (rules: library range splits and
// L1-bound broadcasts priced by mechanism): sigmoidLL<0>'s thread-divergence gone (double log1p's range split, tested on a double's high word, is the library's: its lanes go with the call fp64-on-float prices); cosSim<1>'s uniform-load gone (on an L1/shared-limited kernel a broadcast is priced as its requests' share of that unit's, 1.3e5 of 7.2e7).
// after the read (read, so no longer a clean test of what follows):
// verdict version 207 (rules: the wave floor): a fix inside each
// thread keeps the grid and the stream, so no kernel runs faster than a
// DRAM round trip a wave of resident threads plus its bytes at twice
// DRAM's peak (wave_floor.go; the lower frontier of every fixture's
// kernels). hftWinDb<0>'s precise-math 0.65 against 0.60 (was 0.69: its
// twin ran 0.85 µs a wave, no unit near its peak, where the XU pipe at
// its attainable peak would take 68 of its 106 µs); revDec<0>'s
// local-memory 0.72 against 0.58 (was 0.77). Mean 0.147 → 0.143 raw and
// details (0.057 → 0.052 over the 18 pairs a rule names); the bound
// tightened to 0.143. Not priced, mechanisms logged: revDec<1> (no
// array, 194 M instructions against 404 M) runs 1.19 µs a wave, issue
// at 63 %, DRAM 36 %: each thread's division chain (its IMAD.WIDE.U32
// at the loop head waits its long scoreboard, 15.9 k of 38 k samples;
// 33.2 k of 88.5 k in revDec<0>, where the STL's registers add to it)
// on top of the round trip, a chain the broken kernel's counters do not
// separate from the local stores' (the broken kernel's non-local
// instructions at the issue peak, 370 M, bound it at 0.49, under the
// measured 0.58: the twin drops the read-back loop's too). digitMix<0>'s
// int-division 0.57 against 0.45: its twin runs 1.13 µs a wave (issue
// 58 %, DRAM 38 %), the multiply-high chain of eight digits a thread
// on top of the round trip; the floor allows 0.62. DRAM at the latency
// line for one narrow load a thread (streamLine of the ceiling) was
// tried and does not bound: one-load kernels with wide stores run past
// it (sol-check5's dequantU8<4> 77 %, sol-check13's itoa10<1> 68 %).
// after the read, fitted on this set (its two pairs are no longer clean
// tests): verdict version 212. mooreSum<0>'s gathers moved 0.83 GB from
// DRAM for 0.54 GB of ideal sectors (80.6 % L2 hits): data past the L2,
// 60 MiB over 0.806 = 78 MB in order (analysis.OrderedGathers; the field
// is 64 MiB, the twin moved 668 MB in all): uncoalesced-global 0.70
// against 0.72 (was 0.50), its DRAM headroom 71 % (was 54 %).
// rowlse_f64's L2 at 52 % against DRAM's 41 % with 0.42 % hits is DRAM's
// fill and its wait, not work its fp32 stream keeps (the twin ran both
// at 94 %): fp64-on-float bounded by DRAM, 0.51 against 0.56 (was 0.42,
// held by L2's 52 %). Mean |error| 0.143 -> 0.128 on each page
// (0.052 -> 0.035 over the 18 pairs a rule names); bound 0.129.
// The no-rule pairs, read again at 212: leapCnt<0> states 100 % of
// headroom on its ALU pipe (issue slots on the details page) against
// 0.992 measured, thread-divergence explaining 0.47 of it: each lane
// loops y times (y uniform to 4096), so a warp runs its longest, 51.5 %
// of its lanes active; sorting by y would save that, and the rest is the
// loop's mean work itself, 2048 trips of ten ALU instructions that
// y/4 − y/100 + y/400 replaces. icbrtWalk<0> states 98 % on issue slots
// against 0.935 (thread-divergence 0.25, the walk's own trips the rest).
// Both are O(n) walks over a counter where a closed form or an inverse
// exists (as sol-check26's fibSeq and triInv, sol-check25's lcgAhead and
// civilDate, sol-check24's annuity): the SASS shows a memory-free loop
// with a data-dependent trip count, but not that a closed form exists
// (a Collatz or escape-time loop looks the same), so no rule prices the
// rest; the stated headroom is right (at or above the measured gain).
func TestSolCheck27(t *testing.T) {
	skipShort(t)
	if !solCheck27Read {
		t.Skip("sol-check27: read once, with main as it is then; skipped until that read")
	}
	// loop's serial-loop (verdict version 219), fitted after the read:
	// a loop with no memory access whose exit depends on a value each
	// thread loads or on its index, priced as the kernel without it down
	// to its memory floor: leapCnt<0> none -> 0.994 against 0.992 at line
	// 451, icbrtWalk<0> none -> 0.938 against 0.935 at line 471, on both
	// pages; means 0.1273 -> 0.0312 raw and details (ruled pairs 0.0344);
	// bounds (0.129, 1.0) -> (0.032, 0.15). The two pairs are fitted now,
	// not held out.
	heldOutGaps(t, solCheck27Files, solCheck27Pairs, "sol-check27", 0.032, 0.15, solCheck27Gaps)
}

// solCheck27Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. On each page, one
// required finding missing (ringTicket<0>'s cas-loop) and two forbidden
// given (cosSim<1>'s uniform-load, sigmoidLL<0>'s thread-divergence).
var solCheck27Gaps = []string{}

// solCheck27LineGaps are the required findings whose named line is not
// one of solCheck27Lines at the first read: logged, not failed. None at
// the first read.
var solCheck27LineGaps = []string{}

// TestSolCheck27Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck27Lines(t *testing.T) {
	skipShort(t)
	if !solCheck27Read {
		t.Skip("sol-check27: read once, with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck27Files, solCheck27Pairs, solCheck27Lines, "sol_check27.cu", solCheck27LineGaps)
}
