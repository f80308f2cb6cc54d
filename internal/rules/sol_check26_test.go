package rules_test

import (
	"slices"
	"testing"
)

// solClasses26 are the class rules the twenty-sixth set forbids on
// kernels at their speed of light, on those whose class no rule knows and
// on those whose fix did not help: solClasses25 (no class rule landed
// between the twenty-fifth set's capture, 08:24 UTC on 2026-12-01, and
// this set's, 02:02 on 2026-12-02: the rule commits between refine
// existing rules).
var solClasses26 = slices.Clone(solClasses25)

// solClasses26But is solClasses26 without the rules named.
func solClasses26But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses26), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck26Read says whether the twenty-sixth set has had its one read
// (with main as it is then, by someone who did not write the set): until
// then its tests, its entries in TestNoUnmarkedZero and internal/cli's
// TestHeadroomNeverUnmarked, and its pages in the tests that read every
// fixture (heldOutUnread), skip, so that no test run reads the set
// before.
const solCheck26Read = true

// solCheck26Pairs are the twenty-sixth held-out set of the
// speed-of-light classes (sources in fixtures/gen/sol_check26.cu and
// sol_triton26.py): the classes in shapes and mechanisms none of the
// earlier sets has (the power of fp16 spectrum bins, two 2-byte loads
// and a 2-byte store a thread; 20-bit counts to floats, a 4-byte load and
// store a thread; a Gram matrix XᵀX one output a thread from shared
// tiles; Van der Pol steps on 3·SMs + 1 blocks of 640 threads, three an
// SM; planar RGB to YCbCr in 16-thread blocks; move-to-front decoding
// with the table an int array indexed by the symbol, in local memory; a
// position-weighted 64-bit checksum by a global 8-byte atomicAdd a word
// on one address; particles reading a 512 MiB field at random cells;
// int8 weights dequantised by column scales with lanes a row apart; a
// complex conjugate transpose through split 32 x 32 shared planes read
// down a column, 32-way; Planck's radiance with double literals, exp and
// divisions; a von Mises mixture by expf and cosf; in Triton log-cosh in
// programs of 64 on one warp and a column abs-max a program a column);
// three pairs planned as classes whose fix measured little or made it
// slower (offsets below 4 GiB split by 64-bit / and % against 32-bit,
// 0.15: the 32-bit twin streams near DRAM rate; a block abs-max tree
// with interleaved active threads against t < h, 0.03; bucket minima by
// an atomicCAS loop against atomicMin, −1.21: the loop reads first and
// swaps only a smaller value, atomicMin sends every value), none needing
// a finding and each allowing the one it was planned for (int-division,
// thread-divergence, cas-loop) beside those its shape invites; two kinds
// profan has no rule for (a Fibonacci-like recurrence mod 2^32 advanced
// 1000 steps one at a time against fast doubling, 0.88; upper-triangle
// indices to (row, column) by a row walk against the triangular root,
// 0.97), whose broken kernels need no class finding and, each having run
// 30 % faster or more fixed, must state their headroom
// (TestNoUnmarkedZero, once read); and two fixes planned not to help,
// which did not (a DRAM-bound float4 ReLU6 in 128- against 512-thread
// blocks, −0.01; Triton min(x², 4) BLOCK 1024 against 4096, −0.03). The
// required and the forbidden findings, and the lines the required ones
// should name (solCheck26Lines), were written here from the kernels'
// design, ptxas's report and the measured durations, read as plain CSV,
// before profan ever read the set. Allowed beside the required finding:
// low-occupancy on the tail's second wave, the 16-thread blocks and the
// one-warp Triton programs; thread-divergence on the move-to-front
// decoder (its shift loop runs the code's count of steps); precise-math
// on Planck's double exp; local-memory on the von Mises mixture's cosf
// (ptxas: a 32-byte stack frame, the slow-path reduction); narrow-access
// on the one-warp log-cosh (two floats a thread); tile-shared-memory on
// the column abs-max; on the abs-max tree also shared-bank-conflict and
// barrier-stalls (interleaved addressing, a barrier a level); on the
// bucket minima also atomic-serialization and uncoalesced-global (random
// buckets). Every other class rule is forbidden on every broken kernel,
// and every class rule on the no-rule kernels and the fixes planned not
// to help.
var solCheck26Pairs = []solCheckPair{
	{calibPair{"void powerH<1>(__half *, const __half *, const __half *, int)", "void powerH<8>(__half *, const __half *, const __half *, int)", "the power |re|² + |im|² of 128 Mi fp16 spectrum bins from two half planes: two 2-byte loads and a 2-byte store a thread → a uint4 of eight halves of each in, a uint4 out"}, "narrow-access", solClasses26But("narrow-access")},
	{calibPair{"void cnt2f<1>(float *, const unsigned int *, float, int)", "void cnt2f<4>(float *, const unsigned int *, float, int)", "64 Mi 20-bit counts scaled to floats: a 4-byte load and a 4-byte store a thread → an int4 in, a float4 out"}, "narrow-access", solClasses26But("narrow-access")},
	{calibPair{"void xtxCov<1>(float *, const float *, int, int)", "void xtxCov<4>(float *, const float *, int, int)", "the Gram matrix XᵀX of 1024 samples of 2048 features from shared tiles of 16 x 16R: one output a thread (two shared loads an FMA) → a 4x4 block a thread"}, "register-tile", solClasses26But("register-tile")},
	{calibPair{"void vdpTail<1>(float *, const float *, int, int, int)", "void vdpTail<0>(float *, const float *, int, int, int)", "256 midpoint steps of a Van der Pol oscillator an item, 640-thread blocks three an SM, the items split evenly: 3·SMs + 1 blocks (a second wave of one block) → 3·SMs (measured 0.23)"}, "small-grid", solClasses26But("small-grid", "low-occupancy")},
	{calibPair{"void ycbcr<16>(float *, const float *, int)", "void ycbcr<256>(float *, const float *, int)", "32 Mi planar RGB pixels to Y, Cb and Cr planes, a pixel a thread: 16-thread blocks (half a warp a block) → 256-thread blocks"}, "tiny-blocks", solClasses26But("tiny-blocks", "low-occupancy")},
	{calibPair{"void mtfDec<0>(uint4 *, const uint4 *, int)", "void mtfDec<1>(uint4 *, const uint4 *, int)", "move-to-front decoding of 8 Mi 32-symbol nibble strings: the 16-entry table an int array indexed by the symbol and shifted by a loop (ptxas: a 96-byte stack frame) → the table packed in a 64-bit register, the move by shifts and masks"}, "local-memory", solClasses26But("local-memory", "thread-divergence")},
	{calibPair{"void wsumChk<0>(unsigned long long *, const unsigned int *, int)", "void wsumChk<1>(unsigned long long *, const unsigned int *, int)", "a position-weighted 64-bit checksum of 16 Mi words: a global 8-byte atomicAdd a word on one address → shuffles, a shared table of the warps' sums, one atomicAdd a block"}, "atomic-serialization", solClasses26But("atomic-serialization")},
	{calibPair{"void cellField<0>(float *, const float *, const unsigned int *, int)", "void cellField<1>(float *, const float *, const unsigned int *, int)", "16 Mi particles reading their cell's value in a 512 MiB field, a gather: the cells at random → the same particles sorted by cell upstream"}, "uncoalesced-global", solClasses26But("uncoalesced-global")},
	{calibPair{"void mixRadix<0>(uint2 *, const unsigned long long *, unsigned long long, unsigned long long, unsigned long long, int)", "void mixRadix<1>(uint2 *, const unsigned long long *, unsigned long long, unsigned long long, unsigned long long, int)", "32 Mi file offsets below 4 GiB held as 64-bit, split into block, record and field: 64-bit / and % by the run-time sizes → the same in 32 bits (planned as division; measured 0.15: the 32-bit twin streams near DRAM rate)"}, "", solClasses26But("int-division")},
	{calibPair{"void amaxTree<0>(float *, const float *)", "void amaxTree<1>(float *, const float *)", "the largest |x − 0.5| of each 256-value block of 128 Mi floats by a shared tree: the active threads t & (2h − 1) == 0 (every warp divergent) → t < h (planned as divergence; measured 0.03)"}, "", solClasses26But("thread-divergence", "shared-bank-conflict", "barrier-stalls")},
	{calibPair{"void wDeq8<0>(float *, const signed char *, const float *)", "void wDeq8<1>(float *, const signed char *, const float *)", "an int8 weight matrix 4096 x 8192 dequantised by its column scales: the thread index split column-major (lanes a row of 8192 bytes apart) → row-major"}, "uncoalesced-global", solClasses26But("uncoalesced-global")},
	{calibPair{"void herm32<0>(float2 *, const float2 *, int)", "void herm32<1>(float2 *, const float2 *, int)", "the conjugate transpose of a 4096 x 4096 complex matrix through 32 x 32 tiles staged as real and imaginary shared planes, read down a column: [32][32] (32-way) → [32][33]"}, "shared-bank-conflict", solClasses26But("shared-bank-conflict")},
	{calibPair{"void binMinCas<0>(unsigned int *, const float *, const unsigned int *, int)", "void binMinCas<1>(unsigned int *, const float *, const unsigned int *, int)", "the minima of 16 Mi positive floats into 64 Ki buckets: an atomicCAS loop on the bits, entered only for a smaller value → atomicMin on the bits (planned as a CAS loop; measured −1.21: atomicMin sends every value, the loop few once the minima settle)"}, "", solClasses26But("cas-loop", "atomic-serialization", "uncoalesced-global")},
	{calibPair{"void planckRad<0>(float *, const float *, float, int)", "void planckRad<1>(float *, const float *, float, int)", "Planck's spectral radiance at 32 Mi float wavelengths ported with double literals, double exp and double divisions → float literals and expf"}, "fp64-on-float", solClasses26But("fp64-on-float", "precise-math")},
	{calibPair{"void vmMix<0>(float *, const float *, int)", "void vmMix<1>(float *, const float *, int)", "a mixture of four von Mises densities at 32 Mi angles: expf and cosf a component → __expf and __cosf"}, "precise-math", solClasses26But("precise-math", "local-memory")},
	{calibPair{"logcosh_b64_w1", "logcosh_b2048_w4", "Triton log(cosh(x)) over 64 Mi fp32: BLOCK=64 on one warp → BLOCK=2048 on four, the same body"}, "tiny-blocks", solClasses26But("tiny-blocks", "low-occupancy", "narrow-access")},
	{calibPair{"camax_strided", "camax_tiled", "Triton column abs-max of a 2048 x 32768 fp32 matrix: a program a column, its rows 128 KiB apart → a program a 64-column strip, [64, 64] tiles of whole row segments"}, "uncoalesced-global", solClasses26But("uncoalesced-global", "tile-shared-memory")},
	{calibPair{"void fibSeq<0>(unsigned int *, const unsigned int *, unsigned int, int)", "void fibSeq<1>(unsigned int *, const unsigned int *, unsigned int, int)", "8 Mi Fibonacci-like sequences mod 2^32 from their own seeds advanced 1000 steps: one step at a time → F(999) and F(1000) by fast doubling, then a·F(999) + b·F(1000) (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses26But("serial-loop")},
	{calibPair{"void triInv<0>(unsigned int *, int, int)", "void triInv<1>(unsigned int *, int, int)", "the 2 Mi linear indices of a 2048-point upper triangle to (row, column): a walk subtracting row lengths → the triangular root by sqrtf, corrected in integers (no rule at the first read; serial-loop fitted after)"}, "serial-loop", solClasses26But("serial-loop")},
	{calibPair{"void relu6F4<128>(float4 *, const float4 *, int)", "void relu6F4<512>(float4 *, const float4 *, int)", "y = min(max(8x − 1, 0), 6) over 128 Mi floats, a float4 a thread, DRAM-bound: 128-thread blocks → 512 (measured −0.01: fine as it is)"}, "", solClasses26},
	{calibPair{"clampsq_b1024", "clampsq_b4096", "Triton y = min(x², 4) over 64 Mi fp32, DRAM-bound: BLOCK=1024 → 4096, both on four warps (measured −0.03: fine as it is)"}, "", solClasses26},
}

// solCheck26Lines are the lines of sol_check26.cu that each required
// finding which locates should name (any of them), written with the
// pairs from the source (the same line numbers as the capture's source
// page): the bins' loads and store, the count's load and store, the
// tiles' shared loads and the FMA, the table's reset, read, shift and
// write, the atomicAdd, the field's gather, the weights' access, the
// planes' read down a column, the double radiance, the expf and cosf.
var solCheck26Lines = map[string][]int{
	"triInv<0>":    {500, 501, 502, 503},
	"fibSeq<0>":    {463, 464, 465, 466},
	"powerH<1>":    {80, 81},
	"cnt2f<1>":     {111},
	"xtxCov<1>":    {149, 150, 155},
	"mtfDec<0>":    {221, 226, 227, 228},
	"wsumChk<0>":   {262},
	"cellField<0>": {287},
	"wDeq8<0>":     {360},
	"herm32<0>":    {379},
	"planckRad<0>": {418, 419},
	"vmMix<0>":     {444},
}

// solCheck26Files are the twenty-sixth held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck26Files = map[string][]string{
	"raw": {"../../fixtures/sol-check26/sol_check26.raw.csv.gz", "../../fixtures/sol-check26/sol_check26.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check26/sol_triton26.raw.csv.gz", "../../fixtures/sol-check26/sol_triton26.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check26/sol_check26.details.csv.gz", "../../fixtures/sol-check26/sol_check26.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check26/sol_triton26.details.csv.gz", "../../fixtures/sol-check26/sol_triton26.source.cuda-sass.csv.gz"},
}

// TestSolCheck26 holds profan on the twenty-sixth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check26", once read).
//
// The capture (02:02 UTC on 2026-12-02 by the device's clock, one device
// call), before profan read it: the fixed twins' measured gains,
// 1 − t_fixed/t_broken from the raw page's gpu__time_duration.sum (median
// of two launches), read as plain CSV: powerH 0.55, cnt2f 0.39, xtxCov
// 0.72, vdpTail 0.23, ycbcr 0.84, mtfDec 0.99 (0.986), wsumChk 0.99
// (0.995), cellField 0.67, wDeq8 0.86, herm32 0.59, planckRad 0.25, vmMix
// 0.48 (0.475), logcosh_b64_w1 0.80, camax_strided 0.76; planned as
// classes, measured little or worse: mixRadix 0.15, amaxTree 0.03,
// binMinCas −1.21; with no rule fibSeq 0.88, triInv 0.97; the fixes
// planned not to help, as planned, relu6F4 −0.01 (−0.014) and
// clampsq_b1024 −0.03 (−0.032). Every name in the table is the capture's.
// Skipped until its first read (solCheck26Read), so that no test run
// reads it before; the bounds were the (0.08, 0.2) until then.
//
// First read, once, at 02:43 UTC on b0f48ba (verdict version 196; main's
// 421afa4 since changes tests only): raw page mean |error| 0.2039, worst 1.2102 (binMinCas<0>, planned
// as a CAS loop, no finding, 0 against −1.210: the twin is slower);
// details page 0.2041 and 1.2102. Over the 19 pairs with a class a rule
// names (the two no-rule pairs left out): 0.1278 raw, 0.1280 details.
// 14 of the 14 required findings on each page, each in Triton's terms on
// the two Triton kernels. Forbidden, two: wDeq8<0>'s tile-shared-memory
// 0.29 on the raw page only ("L2 serves 26× the bytes DRAM delivers")
// beside uncoalesced-global 0.65 and 0.62 (loads', stores'), the required
// finding; logcosh_b64_w1's precise-math 0.07 (logf at .py line 41, 45 %
// of the instructions) on both pages beside tiny-blocks 0.81, the
// required one; neither counts in the gain error (a pair's estimate is
// its required rule's). Lines: every required finding that locates named
// a line written for it (no line gap). Over-estimates: planckRad
// fp64-on-float 0.55 against 0.25, cellField uncoalesced-global 0.87
// against 0.67, camax_strided uncoalesced-global 0.86 against 0.76,
// wDeq8 uncoalesced-global 0.92 against 0.86; under: mtfDec local-memory
// 0.85 against 0.99, herm32 shared-bank-conflict 0.52 against 0.59; the
// other 8 within 0.04. The pairs planned as classes that measured little
// or worse get only allowed findings or none: mixRadix (0.15)
// int-division 0.02, amaxTree (0.03) thread-divergence 0.05, binMinCas
// (−1.21) none ("≈68 % ... on DRAM"), the worst error and 0.058 of the
// mean. The two no-rule kernels state their headroom (fibSeq "≈95 % ...
// on compute pipes", triInv "≈99 % ... on issue slots") and add 0.088 to
// the mean; relu6F4 and clampsq_b1024 no class finding. Unmarked 0: none
// on either page (14 broken kernels on each). Nothing was fitted on this
// set; the gaps are logged and the bounds held at the first read.
// Rebased before landing on 8f41b06 (verdict version 198, with
// tile-shared-memory's fix 7df19f7, landed as the read ran): wDeq8<0>'s
// forbidden tile-shared-memory is gone, nothing else moved.
//
// After the read: planckRad<0>'s fp64-on-float keeps the warps' waits on
// their loads (36 % of its samples; verdict version 202): 0.32 against
// 0.25 (was 0.55). Not priced, no mechanism the broken kernel's counters
// hold: cellField<0>'s sorted twin moves 596 MB, not the 201 MB asked
// (16 Mi particles over 8 Mi 64-byte granules touch 1 − e^−2 of them; it
// needs the field's size, which no counter gives); camax_tiled's 512
// programs reduce [64, 64] tiles through 8-way conflicted shared memory
// (sol-check13's colsum_tiled, as few warps, ran DRAM at 82 %);
// wDeq8<1>'s 1-byte loads hold it latency-bound (DRAM 32 %), a narrow
// stream's rate no rule models.
// After the read, verdict version 208 (rules: the wave floor bounds
// coalescing by the index or a gather's order): the pair's estimate
// (KernelGain's coalescing of loads and stores together) is held to 1 −
// the wave floor over its time (a DRAM round trip, 0.55 µs, a wave of
// resident threads and the bytes kept at twice DRAM's peak): wDeq8<0>
// 0.87 against 0.86 (was 0.92: its twin's 1-byte stream ran 0.75 µs a
// wave); mean 0.193 → 0.1905 (details 0.1906), the bound 0.191. Not
// bounded by it: cellField<0> (the floor over its 62 waves and the 201
// MB asked allows 0.86; its sorted twin moves 596 MB, the field's blocks
// it touches) and camax_strided (its tiled twin is another grid, 512
// programs against 32768, a fix the floor of the broken grid does not
// bound).
func TestSolCheck26(t *testing.T) {
	skipShort(t)
	if !solCheck26Read {
		t.Skip("sol-check26: read once, with main as it is then; skipped until that read")
	}
	// loop's serial-loop (verdict version 219), fitted after the read:
	// a loop with no memory access whose exit depends on a value each
	// thread loads or on its index (for an integer recurrence, on an
	// argument), priced as the kernel without it down to its memory
	// floor: triInv<0> none -> 0.982 against 0.971 at lines 500-503,
	// fibSeq<0> none -> 0.908 against 0.883 at lines 463-464, on both
	// pages; means 0.1905 -> 0.1039 raw, 0.1907 -> 0.1041 details (ruled
	// pairs 0.1129, 0.1131); bounds (0.191, 1.22) -> (0.105, 1.22). The
	// two pairs are fitted now, not held out.
	heldOutGaps(t, solCheck26Files, solCheck26Pairs, "sol-check26", 0.105, 1.22, solCheck26Gaps)
}

// solCheck26Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. Every required
// finding given on each page; two forbidden given, neither logged now,
// so each fails if it returns: wDeq8<0>'s tile-shared-memory on the raw
// page, gone on main at the landing (7df19f7); logcosh_b64_w1's
// precise-math on both pages, gone with verdict version 200 (its gain
// held to what the blocks' starts leave: none).
var solCheck26Gaps = []string{}

// solCheck26LineGaps are the required findings whose named line is not
// one of solCheck26Lines at the first read: logged, not failed. None at
// the first read.
var solCheck26LineGaps = []string{}

// TestSolCheck26Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck26Lines(t *testing.T) {
	skipShort(t)
	if !solCheck26Read {
		t.Skip("sol-check26: read once, with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck26Files, solCheck26Pairs, solCheck26Lines, "sol_check26.cu", solCheck26LineGaps)
}
