package rules_test

import (
	"slices"
	"testing"
)

// solClasses20 are the class rules the twentieth set forbids on kernels
// at their speed of light, on those whose class no rule knows and on
// those whose fix did not help: solClasses19 and invariant-work (landed
// at 14:42, after the nineteenth set's capture and before this set's,
// 17:35 UTC).
var solClasses20 = append(slices.Clone(solClasses19), "invariant-work")

// solClasses20But is solClasses20 without the rules named.
func solClasses20But(rules ...string) []string {
	return slices.DeleteFunc(slices.Clone(solClasses20), func(r string) bool { return slices.Contains(rules, r) })
}

// solCheck20Read says whether the twentieth set has had its one read (at
// 19:05 UTC on 2026-11-30 or later, with main as it is then): until then
// its tests, and its entries in TestNoUnmarkedZero and internal/cli's
// TestHeadroomNeverUnmarked, skip, so that no test run reads the set
// before.
const solCheck20Read = true

// solCheck20Pairs are the twentieth held-out set of the speed-of-light
// classes (sources in fixtures/gen/sol_check20.cu and sol_triton20.py):
// the classes in shapes and contexts none of the earlier sets has (the
// absolute difference of two byte frames, a byte a thread; an int8
// product by __dp4a from shared tiles, one output a thread; SMs + SMs/4
// tasks of chained items, a 1024-thread block a task, a quarter of the
// SMs holding two; (r, θ) to (x, y) in 24-thread blocks; the most
// frequent nibble of 64-bit keys by sixteen counters indexed by the
// data, a 64-byte stack frame; the xor of 16 Mi words by a global
// atomicXor an element on one word; an ELL SpMV gathering x at random
// columns; Vandermonde rows stored by each thread into a shared tile at
// a pitch of 32 floats, 32-way stores; 40 __logf steps on even elements
// and 40 __sinf steps on odd, a thread an element; RK4 steps written with
// double literals; two __syncthreads a step in 1024-thread blocks where
// only the warp's words are shared; a cosine similarity reading each row
// twice from global memory; a binary search over thresholds read through
// a volatile pointer; hash buckets as chains of 8 linked entries; 16
// rotation matrices every thread builds from the Euler angles in the
// kernel's arguments; floor(log2) by a 31-step scan of the bits; a Triton
// scale walking its matrix column-major; a Triton fp32 product at
// input_precision="ieee"); five kinds profan has no rule for (an
// arithmetic progression's sum of squares by a 256-term loop against its
// closed form, 0.82; a product of 32 __expf against one of the summed
// exponent, 0.64; a knot found by scanning 128 uniform knots against its
// index computed, 0.81; a 3x3 power iteration renormalised every step
// against every eighth, 0.52; 96 Jacobi sweeps where 16 converge, 0.75),
// whose broken kernels need no class finding and, each having run 30 %
// faster or more fixed, must state their headroom (TestNoUnmarkedZero,
// once read); and four fixes that did not help or helped little (three
// planned: 512-thread blocks in place of 128 on a DRAM-bound uint4 ReLU
// of halves, −0.01; a DRAM-bound float4 map staged through shared
// memory, −0.01; evict_first on a Triton DRAM-bound add's loads, −0.05;
// one found from the durations: 32-bit / and % in place of 64-bit on
// timestamp offsets under 2^32, 0.12, planned as division: its 384 MiB
// stream hides the divisions, so int-division is allowed there, not
// required). The required and the forbidden findings, and the lines the
// required ones should name (solCheck20Lines), were written here from
// the kernels' source, ptxas's report and the measured durations, read
// as plain CSV, before profan ever read the set.
// Forbidden: uncoalesced-global on kernels whose global accesses use
// every byte of their sectors (the byte frames, the int8 rows, the
// items, the float2 pairs, the keys, the words, the ELL values and
// columns, the timestamps, the Vandermonde values and rows, the
// interleaved values, the rows of 32768, the value planes, the probes,
// the points, the Triton rows; required, as a gather, on the SpMV's
// random columns and on the Triton column-major walk; allowed on the
// hash chains, whose 8-byte entries lie at random in the pool); narrow-
// access where the kernel already issues 8- or 16-byte accesses or where
// 4-byte words are the data; tensor-cores-unused but on the Triton fp32
// product at "ieee" (allowed on the __dp4a product, which IMMA could
// take); int-division everywhere but the 64-bit timestamps (allowed);
// thread-divergence but on the even/odd paths (the other branches are
// bounds tests or select-compiled compares); shared-bank-conflict but on
// the Vandermonde stores (the dp4a tiles padded, the warp ring's
// neighbour words consecutive, the reductions' eight words, the staged
// float4 conflict-free); tile-shared-memory where the kernel stages its
// tile already or has no reuse to stage (the staged float4 map has none);
// register-tile but on the __dp4a product; tiny-blocks on blocks of 128
// threads and more; small-grid but on the SMs + SMs/4 tasks;
// low-occupancy where the fix keeps the occupancy (allowed on the
// 24-thread blocks, which cap it, and on the tasks, whose SMs with one
// block hold 32 warps); barrier-stalls but on the warp ring's
// __syncthreads; repeated-passes but on the three-pass cosine;
// local-memory but on the nibble counters (no other kernel has a stack
// frame); atomic-serialization but on the one-word atomicXor; cas-loop
// on native atomics; uniform-load everywhere; dependent-loads but on the
// hash chains (allowed on the volatile binary search, whose probes chain
// through their compares); fence-per-access everywhere; precise-math
// everywhere (__logf, __sinf, __sincosf, __expf and rsqrtf only);
// fp64-on-float but on the double literals; volatile-reread but on the
// volatile thresholds; invariant-work but on the Euler matrices (allowed
// there: warp-redundant-work, the same lanes' same values); bit-loop but
// on the bit scan; on the no-rule kernels and the fixes that did not help
// every class rule (the 64-bit division's int-division excepted).
var solCheck20Pairs = []solCheckPair{
	{calibPair{"void absDiffU8<1>(unsigned char *, const unsigned char *, const unsigned char *, int)", "void absDiffU8<16>(unsigned char *, const unsigned char *, const unsigned char *, int)", "|a − b| of two 128 Mi-byte frames: two 1-byte loads and a 1-byte store a pixel → a uint4 of sixteen from each, __vabsdiffu4, a uint4 out"}, "narrow-access", solClasses20But("narrow-access")},
	{calibPair{"void dp4aMM<1>(int *, const int *, const int *, int)", "void dp4aMM<4>(int *, const int *, const int *, int)", "C = A·Bᵀ of 4096 x 4096 from int8 rows of 512 by __dp4a from padded shared tiles of 16 rows x 16 words: one output a thread (two shared loads a dp4a) → a 4x4 block a thread (eight for 16)"}, "register-tile", solClasses20But("register-tile", "tensor-cores-unused")},
	{calibPair{"void taskChain<1024>(float *, const float *, int)", "void taskChain<128>(float *, const float *, int)", "SMs + SMs/4 tasks of 64 Ki items, 128 steps of a chain an item: a 1024-thread block a task (a quarter of the SMs hold two) → eight 128-thread blocks a task, ten an SM"}, "small-grid", solClasses20But("small-grid", "low-occupancy")},
	{calibPair{"void polarXY<24>(float2 *, const float2 *, int)", "void polarXY<256>(float2 *, const float2 *, int)", "(r, θ) to (x, y) on 32 Mi float2 by __sincosf: 24-thread blocks (32 an SM, 768 threads) → 256"}, "tiny-blocks", solClasses20But("tiny-blocks", "low-occupancy")},
	{calibPair{"void nibMode<0>(int *, const unsigned long long *, int)", "void nibMode<1>(int *, const unsigned long long *, int)", "the most frequent nibble of 16 Mi 64-bit keys: sixteen int counters indexed by the data (a 64-byte stack frame) → byte counters packed in two 64-bit registers"}, "local-memory", solClasses20But("local-memory")},
	{calibPair{"void xorSum<0>(unsigned int *, const unsigned int *, int)", "void xorSum<1>(unsigned int *, const unsigned int *, int)", "the xor of 16 Mi words: a global atomicXor an element on one word → a grid-stride loop, __reduce_xor_sync and an atomicXor a warp"}, "atomic-serialization", solClasses20But("atomic-serialization")},
	{calibPair{"void spmvEll<0>(float *, const float *, const int *, const float *, int)", "void spmvEll<1>(float *, const float *, const int *, const float *, int)", "y = A·x in ELL, 4 Mi rows of 16 nonzeros, a thread a row, x 256 MiB, a gather: columns at random → banded after a reordering"}, "uncoalesced-global", solClasses20But("uncoalesced-global")},
	{calibPair{"void vander<32>(float *, const float *)", "void vander<33>(float *, const float *)", "Vandermonde rows x^0..x^31 of 2 Mi values, each thread its own row into a shared tile before coalesced stores: a pitch of 32 floats (32-way stores) → 33 (measured 0.18: the 256 MiB written hides most of it)"}, "shared-bank-conflict", solClasses20But("shared-bank-conflict")},
	{calibPair{"void evenOdd<0>(float *, const float *, int)", "void evenOdd<1>(float *, const float *, int)", "interleaved values on 16 Mi floats, 40 __logf steps on even elements and 40 __sinf steps on odd: a thread an element (both paths in every warp) → each warp one parity"}, "thread-divergence", solClasses20But("thread-divergence")},
	{calibPair{"void rk4Log<0>(float *, const float *, float, int)", "void rk4Log<1>(float *, const float *, float, int)", "16 RK4 steps of the logistic equation on 8 Mi floats: written with double literals (each stage in double, rounded to float) → float literals"}, "fp64-on-float", solClasses20But("fp64-on-float")},
	{calibPair{"void warpRing<0>(float *, const float *)", "void warpRing<1>(float *, const float *)", "64 steps of a neighbour average within each warp through shared memory, 1024-thread blocks: two __syncthreads a step (the block waits for words only the warp shares) → two __syncwarp"}, "barrier-stalls", solClasses20But("barrier-stalls")},
	{calibPair{"void cosRows<0>(float *, const float4 *, const float4 *, int)", "void cosRows<1>(float *, const float4 *, const float4 *, int)", "cosine similarity of 4096 row pairs of 32768 floats (128 KiB rows), a 256-thread block a pair: three passes (‖a‖², ‖b‖², a·b), each row read twice from global memory → one pass"}, "repeated-passes", solClasses20But("repeated-passes")},
	{calibPair{"void volBins<0>(unsigned int *, const float *, const float *, int)", "void volBins<1>(unsigned int *, const float *, const float *, int)", "8 values a thread binned by a 4-step binary search over 15 thresholds: read through a volatile pointer (every probe from L2) → __ldg"}, "volatile-reread", solClasses20But("volatile-reread", "dependent-loads")},
	{calibPair{"void hashChain<0>(int *, const unsigned int *, const uint2 *, const unsigned int *, const uint4 *, int, int)", "void hashChain<1>(int *, const unsigned int *, const uint2 *, const unsigned int *, const uint4 *, int, int)", "16 Mi hash probes of buckets of 8 entries: a chain of linked entries through a 256 MiB pool (eight dependent loads) → the bucket's 8 keys contiguous, two uint4"}, "dependent-loads", solClasses20But("dependent-loads", "uncoalesced-global")},
	{calibPair{"void eulerRot<0>(float4 *, const float4 *, Euler16, int)", "void eulerRot<1>(float4 *, const float4 *, Euler16, int)", "16 rotations of 8 Mi points: each matrix built by every thread from three Euler angles in the kernel's arguments (three __sincosf and twelve products) → the matrices built on the host, in __constant__"}, "invariant-work", solClasses20But("invariant-work", "warp-redundant-work")},
	{calibPair{"void msbScan<0>(int *, const unsigned int *, int)", "void msbScan<1>(int *, const unsigned int *, int)", "Σ floor(log2 v) over 8 hashed words a thread on 8 Mi words: a 31-step scan of the bits → 31 − __clz"}, "bit-loop", solClasses20But("bit-loop")},
	{calibPair{"scale_colmaj", "scale_rowmaj", "Triton y = 2x + 1 on an 8192 x 8192 fp32 matrix, BLOCK=1024: walked column-major (lanes 32 KiB apart) → row-major"}, "uncoalesced-global", solClasses20But("uncoalesced-global")},
	{calibPair{"mm_f32_ieee", "mm_f32_tf32", "Triton C = A·B of 4096³ fp32, 128x128x32 tiles, num_warps=8, num_stages=3: input_precision=\"ieee\" (FMA) → \"tf32\" (tensor cores)"}, "tensor-cores-unused", solClasses20But("tensor-cores-unused")},
	{calibPair{"void arithSq<0>(float *, const float *, const float *, int)", "void arithSq<1>(float *, const float *, const float *, int)", "Σ_{k<256} (a + k·d)² on 16 Mi (a, d): a 256-term loop → the closed form (no rule)"}, "", solClasses20},
	{calibPair{"void expProd<0>(float *, const float *, int)", "void expProd<1>(float *, const float *, int)", "Π_{k=1..32} e^(−0.01·k·v) on 16 Mi floats: 32 __expf → one __expf of the summed exponent (no rule)"}, "", solClasses20},
	{calibPair{"void knotFind<0>(float *, const float *, const float *, int)", "void knotFind<1>(float *, const float *, const float *, int)", "a linear interpolation on 128 uniform knots, 16 Mi values: the knot found by scanning the knots in __constant__ (127 compares and selects) → its index computed (no rule)"}, "", solClasses20},
	{calibPair{"void powIt3<1>(float4 *, const float4 *, int)", "void powIt3<8>(float4 *, const float4 *, int)", "64 power-iteration steps of a 3x3 symmetric matrix on 8 Mi: renormalised by rsqrtf every step → every eighth (no rule)"}, "", solClasses20},
	{calibPair{"void jacobi4<96>(float4 *, const float4 *, int)", "void jacobi4<16>(float4 *, const float4 *, int)", "a 4x4 diagonally dominant tridiagonal system a thread on 4 Mi: 96 Jacobi sweeps → 16, converged to float precision already (no rule)"}, "", solClasses20},
	{calibPair{"void tsBucket<0>(uint4 *, const unsigned long long *, unsigned long long, Windows, int)", "void tsBucket<1>(uint4 *, const unsigned long long *, unsigned long long, Windows, int)", "16 Mi µs timestamps bucketed at four run-time widths modulo four run-time ring sizes: 64-bit / and % → 32-bit on the offsets (planned as division; measured 0.12: the 384 MiB stream hides the divisions)"}, "", solClasses20But("int-division")},
	{calibPair{"void reluH8<128>(uint4 *, const uint4 *, int)", "void reluH8<512>(uint4 *, const uint4 *, int)", "ReLU of 128 Mi halves, a uint4 of eight a thread, DRAM-bound: 128-thread blocks → 512 (measured −0.01: fine as it is)"}, "", solClasses20},
	{calibPair{"void stageF4<0>(float4 *, const float4 *, int)", "void stageF4<1>(float4 *, const float4 *, int)", "y = 2x + 1 on 16 Mi float4, DRAM-bound: straight from global memory → staged through shared memory (measured −0.01: fine as it is)"}, "", solClasses20},
	{calibPair{"add_plain", "add_evict", "Triton fp32 add of 64 Mi elements, DRAM-bound: plain loads → eviction_policy=\"evict_first\" (measured −0.05: fine as it is)"}, "", solClasses20},
}

// solCheck20Lines are the lines of sol_check20.cu that each required
// finding which locates should name (any of them), written with the
// pairs: the byte loads and store, the tiles' shared loads and the dp4a,
// the counters' stores, increments and reads, the atomicXor, the
// gather's load, the shared stores, the two paths' branch and loops, the
// double-literal stages, the barriers and the ring's store and load, the
// three passes' loads, the volatile load, the chain's loads, the matrix
// build, the bit scan.
var solCheck20Lines = map[string][]int{
	"absDiffU8<1>": {88, 89},
	"dp4aMM<1>":    {127, 128, 133},
	"nibMode<0>":   {192, 194, 197, 198},
	"xorSum<0>":    {232},
	"spmvEll<0>":   {252},
	"vander<32>":   {294},
	"evenOdd<0>":   {317, 319, 322},
	"rk4Log<0>":    {340, 341, 342, 343, 344, 345, 346, 347},
	"warpRing<0>":  {376, 377, 379, 380},
	"cosRows<0>":   {417, 418, 419},
	"volBins<0>":   {452},
	"hashChain<0>": {476, 479, 481},
	"eulerRot<0>":  {515, 516, 517, 518, 519, 520, 521, 522, 523, 524, 525, 526},
	"msbScan<0>":   {557},
}

// solCheck20Files are the twentieth held-out set's pages, raw and
// details (the default export) alike, each with the source page.
var solCheck20Files = map[string][]string{
	"raw": {"../../fixtures/sol-check20/sol_check20.raw.csv.gz", "../../fixtures/sol-check20/sol_check20.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check20/sol_triton20.raw.csv.gz", "../../fixtures/sol-check20/sol_triton20.source.cuda-sass.csv.gz"},
	"details": {"../../fixtures/sol-check20/sol_check20.details.csv.gz", "../../fixtures/sol-check20/sol_check20.source.cuda-sass.csv.gz",
		"../../fixtures/sol-check20/sol_triton20.details.csv.gz", "../../fixtures/sol-check20/sol_triton20.source.cuda-sass.csv.gz"},
}

// TestSolCheck20 holds profan on the twentieth held-out set: the
// required findings (with their lines), none forbidden, and the gain
// error, on the raw and the details page (docs/calibration.md, block
// "sol-check20").
//
// The capture (17:35 UTC by the device's clock, one device call), before
// profan read it: the fixed twins' measured gains, 1 − t_fixed/t_broken
// from the raw page's gpu__time_duration.sum (median of two launches),
// read as plain CSV: absDiffU8 0.75, dp4aMM 0.72, taskChain 0.25,
// polarXY 0.84, nibMode 0.88, xorSum 0.91, spmvEll 0.87, vander 0.18,
// evenOdd 0.49, rk4Log 0.86, warpRing 0.52, cosRows 0.49, volBins 0.96,
// hashChain 0.89, eulerRot 0.65, msbScan 0.85, scale_colmaj 0.91,
// mm_f32_ieee 0.48; with no rule arithSq 0.82, expProd 0.64, knotFind
// 0.81, powIt3 0.52, jacobi4 0.75; fixes that did not help or helped
// little tsBucket 0.12, reluH8 −0.01, stageF4 −0.01, add_plain −0.05.
// Every name in the table is the capture's. Skipped until its first read
// (solCheck20Read), so that no test run reads it before; the bounds were
// the (0.08, 0.2) until then.
//
// First read, once, at 19:05 UTC with main at 36ff392 (after the
// fitters' cutoff; verdict version 156): raw page mean |error| 0.2860,
// worst 0.9594 (volBins<0>, 0 against 0.96); details page 0.2860 and
// 0.9593. 14 of the 18 required findings on both pages. Missing:
// volBins<0>'s volatile-reread (its 32 LDG.E.STRONG.SYS probes a thread
// at line 452 each load an address no strong load before it loaded, the
// next index chosen by the last compare, so the rule's re-reads count
// none; what the fix takes is L1's hits on the 15 thresholds a block's
// threads all probe; read latency-bound, "≈97 % ... on DRAM", marked),
// cosRows<0>'s repeated-passes (DRAM at 96 %, its 2.15 GB, the second
// read of each 128 KiB row included, counted as needed: "at its speed of
// light", an unmarked 0), hashChain<0>'s dependent-loads (latency-bound,
// L2 at 89 %, the chain's loads at lines 476 and 479 read as a gather:
// uncoalesced-global 0.90, allowed, not counted in the gain error) and
// msbScan<0>'s bit-loop (the 31-step scan holds the ALU pipe at 96 %;
// read compute-bound, "≈96 % ... on ALU pipe"). Forbidden: none on
// either page. Lines: every required finding that locates named a line
// written for it. Gains of the 14 given (raw): absDiffU8 0.73 against
// 0.75, dp4aMM 0.54 against 0.72, taskChain 0.38 against 0.25, polarXY
// 0.86 against 0.84, nibMode 0.89 against 0.88, xorSum 0.82 against
// 0.91, spmvEll 0.86 against 0.87, vander 0.32 against 0.18 (8-way on
// STS.128 at line 294; its gain above the 31 % that L2 at 69 % leaves,
// internal/cli's consistencyGaps), evenOdd 0.48 against 0.49, rk4Log
// 0.86 against 0.86, warpRing 0.53 against 0.52, eulerRot 0.66 against
// 0.65, scale_colmaj 0.90 against 0.91 (named a gather), mm_f32_ieee
// 0.32 against 0.48 (in Triton's terms). The five no-rule kernels state
// their headroom and add 0.13 to the mean; tsBucket<0> has int-division
// 0.12 (allowed). Unmarked 0 on both pages: cosRows<0> (unmarkedGaps).
// Nothing was fitted on this set; the gaps are logged and the bounds
// held at the first read.
func TestSolCheck20(t *testing.T) {
	skipShort(t)
	if !solCheck20Read {
		t.Skip("sol-check20: read once at 19:05 UTC or later with main as it is then; skipped until that read")
	}
	// After the read, kfix26a's fit on sol-check19 (verdict version 161:
	// a write pass or a second read whose block's row fits on chip is a
	// re-read) finds cosRows<0>'s repeated-passes on both pages, 0.48
	// against 0.49: means 0.2860 -> 0.2684 raw and details; bounds
	// (0.269, 0.960).
	// After kfix27b's fit (verdict version 163): bit-loop reads a test
	// of a bit position, (v >> b) != 0 as LOP3.LUT P, RZ, v, the mask
	// of the bits from b up, RZ, 0xc0 (scanTest), and prices a word a
	// scan walks at one FLO: msbScan<0>'s bit-loop at line 557, 0.90
	// against 0.85 on both pages; means 0.2684 -> 0.2388 raw and
	// details; bounds (0.239, 0.960).
	// kfix27a's fit (verdict version 164: a pointer chase's hops priced
	// laid out in the chain's order, chainLayoutGain) finds
	// hashChain<0>'s dependent-loads on both pages at line 479, 0.86
	// against 0.89 (was none: leftBy's price, L2 at 89 %, left nothing).
	// Means 0.2388 -> 0.2068 raw and details, worst 0.9594 (volBins<0>);
	// bounds (0.207, 0.960).
	// kfix27a's second fit (verdict version 165: strong loads of a
	// small table whose DRAM footprint their sectors dwarf,
	// volatileTable) finds volBins<0>'s volatile-reread on both pages at
	// line 452, 0.95 against 0.96 (was none). Means 0.2068 -> 0.1716 raw
	// and details (the 22 ruled pairs 0.0493), worst 0.9594 -> 0.8169
	// (arithSq<0>, no rule); no gap left; bounds (0.172, 0.817).
	heldOutGaps(t, solCheck20Files, solCheck20Pairs, "sol-check20", 0.172, 0.817, solCheck20Gaps)
}

// solCheck20Gaps are what the first read found against the verdicts
// written before it ("kernel rule", "kernel rule terms", "kernel
// uncoalesced-global gather"): logged, not failed. None missing now
// (four at the first read: cosRows<0>'s
// repeated-passes, found since kfix26a's fit on sol-check19's rmsH<0>;
// msbScan<0>'s bit-loop, since kfix27b's; hashChain<0>'s
// dependent-loads, since kfix27a's chainLayoutGain; volBins<0>'s
// volatile-reread, since kfix27a's volatileTable), none forbidden, the
// same on both pages.
var solCheck20Gaps = []string{}

// solCheck20LineGaps are the required findings whose named line is not
// one of solCheck20Lines at the first read: logged, not failed. None:
// every required finding that locates named a line written for it.
var solCheck20LineGaps = []string{}

// TestSolCheck20Lines holds the lines the set's required findings name,
// on the raw and the details page.
func TestSolCheck20Lines(t *testing.T) {
	skipShort(t)
	if !solCheck20Read {
		t.Skip("sol-check20: read once at 19:05 UTC or later with main as it is then; skipped until that read")
	}
	heldOutLines(t, solCheck20Files, solCheck20Pairs, solCheck20Lines, "sol_check20.cu", solCheck20LineGaps)
}
