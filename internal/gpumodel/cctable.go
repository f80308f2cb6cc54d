package gpumodel

import "sort"

// ccRow is everything the model knows of one compute capability, in one
// place: the per-SM limits and memory rules (PG, "Feature Support per
// Compute Capability", the per-CC sections on global and shared memory),
// the arithmetic lanes, the tensor cores (warp matrix functions; the
// architecture whitepapers for the precisions and peaks), the names that
// resolve to it and its representative GPU.
type ccRow struct {
	cc string
	// names are the architecture and chip names ResolveArch turns into
	// this compute capability (lower case).
	names []string
	// rep is the representative GPU (byCC): the flagship compute part
	// where there is one, else the GPU the published talks use.
	rep string
	// fp32 and fp64 are the lanes per SM (PG, throughput of native
	// arithmetic instructions: 32-bit and 64-bit floating-point add,
	// multiply, multiply-add per clock per SM); 0 where not known.
	fp32, fp64 int
	// fp16 and imad are the results per clock per SM of 16-bit
	// floating-point add, multiply and multiply-add (a half2 instruction
	// two) and of 32-bit integer multiply and multiply-add (PG, the same
	// table); 0 where not given here.
	fp16, imad int
	// sfu is the results per clock per SM of the special-function unit's
	// 32-bit transcendentals (PG, the same table: reciprocal, reciprocal
	// square root, base-2 logarithm and exponential, sine, cosine; MUFU
	// in SASS, the XU pipe in ncu): 16 on 5.0 to 9.0; 0 where not given.
	sfu int
	// cvt64 is the results per clock per SM of type conversions from and
	// to 64-bit types (PG, the same table: F2F.F64.F32 and F2F.F32.F64
	// in SASS, the XU pipe in ncu on 9.0): 16 on 7.0, 8.0 and 9.0; 0
	// where not given here.
	cvt64 int
	// limits are zero for a compute capability whose rules are those of
	// the newest row before it with limits (see RulesOf).
	limits ccLimits
	tensor TensorCores
}

// ccLimits are the per-SM limits and the memory model's rules of one
// compute capability.
type ccLimits struct {
	warps, blocks, regs int
	l1Shared, maxShared int
	banks               int
	bank8               bool
	coalescing          Coalescing
	// l1 is whether L1 can cache global loads, and l1Default whether
	// it does unless the kernel opts out.
	l1, l1Default bool
}

// Dense tensor-core peaks as multiples of the FP32 FMA peak, per operand
// type, from NVIDIA's datasheets: H100 SXM5 66.9 TFLOP/s FP32, 494.7 TF32,
// 989.4 BF16/FP16, 1978.9 FP8/INT8, 66.9 FP64 tensor; A100 19.5 FP32, 156
// TF32, 312 BF16/FP16, 624 INT8, 19.5 FP64 tensor.
var (
	a100Rates = map[string]float64{"tf32": 156 / 19.5, "bf16": 312 / 19.5, "fp16": 312 / 19.5, "int8": 624 / 19.5, "fp64": 1}
	h100Rates = map[string]float64{"tf32": 494.7 / 66.9, "bf16": 989.4 / 66.9, "fp16": 989.4 / 66.9, "fp8": 1978.9 / 66.9, "int8": 1978.9 / 66.9, "fp64": 1}
	// Blackwell: TF32 only, at Hopper's ratio, which its own (about 15×)
	// exceeds; its other types have no figure here (its FP64 tensor peak
	// is half its FP32 peak, not Hopper's equal).
	b200Rates = map[string]float64{"tf32": h100Rates["tf32"]}
)

// sectored are the rules of Volta onward: one unified L1/shared array per
// SM, which looks every warp's request up by 128-B line and moves 32-B
// sectors, and caches global loads by default.
func sectored(warps, blocks, l1Shared, maxShared int) ccLimits {
	return ccLimits{warps: warps, blocks: blocks, regs: 65536, l1Shared: l1Shared, maxShared: maxShared, banks: 32,
		coalescing: CoalesceSectored, l1: true, l1Default: true}
}

// ccTable has one row per compute capability, oldest first.
var ccTable = []ccRow{
	// Tesla: no cache for global memory; a half-warp's accesses coalesce
	// only in order (1.0, 1.1) or into 32/64/128-B segments (1.2, 1.3).
	{cc: "1.0", names: []string{"g80"}, rep: "GeForce 8800 GTX",
		limits: ccLimits{warps: 24, blocks: 8, regs: 8192, l1Shared: 16 * kiB, maxShared: 16 * kiB, banks: 16, coalescing: CoalesceHalfWarpStrict}},
	{cc: "1.1",
		limits: ccLimits{warps: 24, blocks: 8, regs: 8192, l1Shared: 16 * kiB, maxShared: 16 * kiB, banks: 16, coalescing: CoalesceHalfWarpStrict}},
	{cc: "1.2",
		limits: ccLimits{warps: 32, blocks: 8, regs: 16384, l1Shared: 16 * kiB, maxShared: 16 * kiB, banks: 16, coalescing: CoalesceHalfWarpSegments}},
	{cc: "1.3", names: []string{"tesla", "gt200"}, rep: "GeForce GTX 280",
		limits: ccLimits{warps: 32, blocks: 8, regs: 16384, l1Shared: 16 * kiB, maxShared: 16 * kiB, banks: 16, coalescing: CoalesceHalfWarpSegments}},
	// Fermi: 64 KB split 16/48 between L1 and shared; L1 caches global
	// loads by default (128-B lines).
	{cc: "2.0", names: []string{"fermi"}, rep: "Tesla C2050",
		limits: ccLimits{warps: 48, blocks: 8, regs: 32768, l1Shared: 64 * kiB, maxShared: 48 * kiB, banks: 32, coalescing: CoalesceLines, l1: true, l1Default: true}},
	// Kepler: 64 KB split 16/32/48; 8-byte bank mode available. GK210
	// doubles both the unified array (128 KB, up to 112 KB shared) and the
	// register file. Kepler to Pascal cache global loads in L2 only
	// (32-B transactions) unless the kernel opts in to L1.
	{cc: "3.0", rep: "GeForce GTX 760", fp32: 192, fp64: 8,
		limits: ccLimits{warps: 64, blocks: 16, regs: 65536, l1Shared: 64 * kiB, maxShared: 48 * kiB, banks: 32, bank8: true, coalescing: CoalesceLines, l1: true}},
	{cc: "3.5", names: []string{"kepler"}, rep: "Tesla K40", fp32: 192, fp64: 64,
		limits: ccLimits{warps: 64, blocks: 16, regs: 65536, l1Shared: 64 * kiB, maxShared: 48 * kiB, banks: 32, bank8: true, coalescing: CoalesceLines, l1: true}},
	{cc: "3.7", rep: "Tesla K80", fp32: 192, fp64: 64,
		limits: ccLimits{warps: 64, blocks: 16, regs: 131072, l1Shared: 128 * kiB, maxShared: 112 * kiB, banks: 32, bank8: true, coalescing: CoalesceLines, l1: true}},
	// Maxwell and Pascal GP10x: 96 KB dedicated shared memory plus 48 KB
	// of L1/texture cache; GP100: 64 KB shared plus 24 KB L1 (the Pascal
	// performance-pyramid notes: "the small 24KB ... L1").
	{cc: "5.0", fp32: 128, fp64: 4},
	{cc: "5.2", names: []string{"maxwell"}, rep: "GeForce GTX 950", fp32: 128, fp64: 4,
		limits: ccLimits{warps: 64, blocks: 32, regs: 65536, l1Shared: 144 * kiB, maxShared: 96 * kiB, banks: 32, coalescing: CoalesceLines, l1: true}},
	{cc: "5.3", fp32: 128, fp64: 4},
	{cc: "6.0", names: []string{"pascal"}, rep: "Tesla P100-PCIE-16GB", fp32: 64, fp64: 32,
		limits: ccLimits{warps: 64, blocks: 32, regs: 65536, l1Shared: 88 * kiB, maxShared: 64 * kiB, banks: 32, coalescing: CoalesceLines, l1: true}},
	{cc: "6.1", rep: "GeForce GTX 1080", fp32: 128, fp64: 4,
		limits: ccLimits{warps: 64, blocks: 32, regs: 65536, l1Shared: 144 * kiB, maxShared: 96 * kiB, banks: 32, coalescing: CoalesceLines, l1: true}},
	{cc: "6.2", fp32: 128, fp64: 4},
	// Volta onward: see sectored.
	{cc: "7.0", names: []string{"volta"}, rep: "Tesla V100-SXM2-16GB", fp32: 64, fp64: 32,
		fp16: 128, imad: 64, sfu: 16, cvt64: 16, limits: sectored(64, 32, 128*kiB, 96*kiB), tensor: TensorCores{Precisions: []string{"fp16"}}},
	{cc: "7.2", fp32: 64, fp64: 2,
		limits: sectored(64, 32, 128*kiB, 96*kiB), tensor: TensorCores{Precisions: []string{"fp16", "int8"}}},
	{cc: "7.5", names: []string{"turing"}, rep: "Tesla T4", fp32: 64, fp64: 2,
		limits: sectored(32, 16, 96*kiB, 64*kiB), tensor: TensorCores{Precisions: []string{"fp16", "int8"}}},
	{cc: "8.0", names: []string{"ampere"}, rep: "A100-SXM4-40GB", fp32: 64, fp64: 32,
		fp16: 256, imad: 64, sfu: 16, cvt64: 16, limits: sectored(64, 32, 192*kiB, 164*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "fp64", "int8"}, Rates: a100Rates}},
	{cc: "8.6", rep: "A10", fp32: 128, fp64: 2,
		limits: sectored(48, 16, 128*kiB, 100*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "int8"}}},
	{cc: "8.7", rep: "Jetson AGX Orin", fp32: 128, fp64: 2,
		limits: sectored(48, 16, 192*kiB, 164*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "int8"}}},
	{cc: "8.9", names: []string{"ada", "lovelace", "ada lovelace"}, rep: "RTX 6000 Ada Generation", fp32: 128, fp64: 2,
		limits: sectored(48, 24, 128*kiB, 100*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "fp8", "int8"}}},
	{cc: "9.0", names: []string{"hopper"}, rep: "H100 SXM5 80GB", fp32: 128, fp64: 64,
		fp16: 256, imad: 64, sfu: 16, cvt64: 16, limits: sectored(64, 32, 256*kiB, 228*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "fp8", "fp64", "int8"}, Rates: h100Rates}},
	{cc: "10.0", names: []string{"blackwell"}, rep: "B200", fp32: 128, fp64: 64,
		limits: sectored(64, 32, 256*kiB, 228*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "fp8", "fp4", "fp64", "int8"}, Rates: b200Rates}},
	{cc: "10.3", fp32: 128, fp64: 64},
	{cc: "12.0", rep: "GeForce RTX 5090", fp32: 128, fp64: 2,
		limits: sectored(48, 32, 128*kiB, 100*kiB), tensor: TensorCores{Precisions: []string{"fp16", "bf16", "tf32", "fp8", "fp4", "int8"}}},
}

// ccIndex finds a row of ccTable by its compute capability "X.Y".
var ccIndex = func() map[string]*ccRow {
	m := make(map[string]*ccRow, len(ccTable))
	for i := range ccTable {
		m[ccTable[i].cc] = &ccTable[i]
	}
	return m
}()

// ccRowOf returns the row of compute capability "X.Y".
func ccRowOf(cc string) (*ccRow, bool) {
	r, ok := ccIndex[cc]
	return r, ok
}

// hasLimits reports whether the table gives the limits of cc "X.Y".
func hasLimits(cc string) bool {
	r, ok := ccRowOf(cc)
	return ok && r.limits.warps > 0
}

// sortedCCs are the rows' compute capabilities as [major, minor], oldest
// first.
func sortedCCs() [][2]int {
	keys := make([][2]int, 0, len(ccTable))
	for _, r := range ccTable {
		a, b, _ := ParseCC(r.cc)
		keys = append(keys, [2]int{a, b})
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	return keys
}
