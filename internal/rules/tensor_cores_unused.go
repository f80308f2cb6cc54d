package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
)

// tf32Efficiency is the share of the TF32 tensor-core peak cuBLAS reaches
// on mid-size GEMMs: 64% in the H100 capture fixtures/pytorch/
// train.tf32.gemm.details.csv.gz (the same FLOPs 5.7 times faster than the
// FP32 kernels at 83% of the FFMA peak).
const tf32Efficiency = 0.65

// tensorCoresUnused reports FP32 GEMMs and convolutions that a library ran
// on the FFMA pipe of a GPU that has tensor cores.
var tensorCoresUnused = &Rule{
	ID:    "tensor-cores-unused",
	Title: "FP32 matrix multiply on a GPU with tensor cores",
	Text: `The kernel is a library GEMM or convolution that multiplies FP32 on the FFMA
pipe (cuBLAS "ffma" xmma kernels, CUTLASS "simt" and legacy "sgemm" kernels,
cuDNN FP32 engines), recognised by its name. From compute capability 8.0
(Ampere) the tensor cores multiply TF32 (FP32 range, 10-bit mantissa) at about
eight times the FFMA peak, with FP32 accumulation; allowing TF32 is one line and
keeps FP32 storage. Autocasting to bf16 halves the bytes as well. Volta and
Turing (7.x) tensor cores take FP16 only, which needs loss scaling and is more
than a switch: the rule is silent there, as it is below 7.0, where there are
no tensor cores. The estimated gain is an upper bound from the peaks, given on
the data-center parts (8.0, 9.0, 10.0) only: the kernel's compute share times
the time left when the kernel's FLOPs run on the tensor cores (TF32 peak 7.4 to
8 times FP32, of which cuBLAS reaches about 65%) and its unchanged memory
traffic bounds it. Measured on an H100 training step (fixtures/pytorch): TF32
made the FP32 GEMMs 82% faster, the rule estimates 82%.`,
	Before: `y = x @ w          # torch.float32 tensors: cuBLAS runs an FFMA kernel`,
	After: `torch.backends.cuda.matmul.allow_tf32 = True   # or:
torch.set_float32_matmul_precision("high")
torch.backends.cudnn.allow_tf32 = True          # convolutions (on by default)
with torch.autocast("cuda", dtype=torch.bfloat16):
    y = model(x)`,
	Severity: profan.Warning,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"duration"},
	Optional: join([]string{"compute_throughput_pct", "dram_utilization", "shared_load_requests", "inst_executed", "flop_count_tensor"}, usageReads),
	Check: func(p *Pass) {
		info := p.Kernel.Name
		if !info.FP32SIMT || (info.Kind != kernelname.GEMM && info.Kind != kernelname.Convolution) {
			if !halfAsTF32(p) {
				halfOnFFMA(p)
			}
			return
		}
		tc := tensorCores(p.Kernel)
		if !tc.Has("tf32") {
			return
		}
		cc := p.Kernel.Record.CC
		if cc == "" && p.Kernel.Spec != nil {
			cc = p.Kernel.Spec.CC
		}
		what := "GEMM"
		if info.Kind == kernelname.Convolution {
			what = "convolution"
		}
		gain := math.NaN()
		advice := framework(p.Kernel, "allow TF32 (torch.backends.cuda.matmul.allow_tf32 = True, or torch.set_float32_matmul_precision(\"high\"); torch.backends.cudnn.allow_tf32 for convolutions), or autocast to bf16 (torch.autocast(\"cuda\", dtype=torch.bfloat16)); in cuBLAS, cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH)",
			"allow TF32: in cuBLAS, cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH) (or cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32); in cuDNN, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION; or compute in bf16")
		// The FFMA kernel runs at c of the SM's peak; with TF32 the same
		// FLOPs run at tf32Efficiency of a peak ratio times higher, and
		// no faster than its unchanged DRAM traffic allows (m of peak,
		// DRAM's ceiling; the L1 and shared traffic of an FFMA GEMM's tiles
		// is not the tensor-core kernel's). TF32 tensor-core peak over FP32 FFMA peak: 8× on
		// A100 (156 vs 19.5 TFLOP/s), 7.4× on H100 SXM (495 vs 67);
		// consumer parts of 8.6/8.9 gain far less, so only the
		// data-center parts get an estimate.
		if ratio := tc.TF32Ratio(); ratio > 0 {
			if c, ok := p.Value("compute_throughput_pct"); ok {
				rest := c / 100 / (tf32Efficiency * ratio)
				if m, ok := p.Value("dram_utilization"); ok {
					rest = math.Max(rest, m/100/ceiling[analysis.LimitDRAM])
				}
				gain = clamp01(1 - rest)
			}
		}
		p.report(estimate(gain), Note{
			Message:  fmt.Sprintf("%s %s multiplies FP32 on the FFMA pipe (%s) on a GPU of compute capability %s, whose tensor cores sit idle", info.Library, what, info.Display, cc),
			Advice:   advice,
			Evidence: append(p.evidence("compute_throughput_pct", "duration"), "kernel="+info.Display),
		})
	},
}

// halfOnFFMA reports a hand-written GEMM that multiplies on the FFMA pipe
// from a shared-memory tile (shared loads), FFMAs a quarter of its
// instructions or more, the FP32 pipe its speed of light, with no tensor
// core instruction. On half or bf16 inputs converted to FP32 (HADD2.F32,
// F2F.F32.F16, F2F.F32.BF16 on the source page) the fp16 tensor cores take
// them as they are: fixtures/sol-check9's hgemmFma<4, 4>, a 4×4 register
// tile on FFMA, headroom 65 % on the FP32 pipe; its WMMA twin ran 0.54
// faster. On FP32 inputs the tensor cores take TF32 (FP32 range, a 10-bit
// mantissa, FP32 accumulation) where the GPU has it, a precision the
// caller chooses: the advice names the switch, not a source edit alone.
// The price: the FP32 pipe's ideal time moves to the tensor cores (the
// fp16 or TF32 peak over the FFMA peak, at tf32Efficiency), bounded by
// the headroom and by what the kernel's L2 and DRAM traffic, which stays,
// leave.
func halfOnFFMA(p *Pass) {
	h := p.Kernel.Limiter.Headroom
	tc := tensorCores(p.Kernel)
	if !h.Known() || h.Unit != "FP32 pipe" || !tc.Has("fp16") || len(p.Kernel.Record.Source) == 0 {
		return
	}
	if lds, _ := p.Value("shared_load_requests"); !(lds > 0) {
		return
	}
	var ffma, conv, other, lds float64 // other: FP32 multiplies and adds apart
	for _, s := range instructions(p.Kernel) {
		op := opcode(s.SASS)
		switch {
		case tensorOpcode(op):
			return // already on the tensor cores
		case op == "FFMA" || strings.HasPrefix(op, "FFMA."):
			ffma += instExecuted(s)
		case isHalfWidening(op, s.SASS):
			conv += instExecuted(s)
		case op == "FMUL" || op == "FADD" || strings.HasPrefix(op, "FMUL.") || strings.HasPrefix(op, "FADD."):
			other += instExecuted(s)
		case strings.HasPrefix(op, "LDS"):
			lds += instExecuted(s) * sharedWords(op)
		}
	}
	n, ok := p.Value("inst_executed")
	if !ok || !(ffma >= 0.25*n) {
		return
	}
	half := conv > 0
	// A product whose shared dimension fits one tile (K = 64: each
	// block's half operands loaded, widened and stored to shared memory
	// once, then one loop of FFMAs from the tiles) streams nothing
	// through its loop, yet is a GEMM the fp16 tensor cores take as it is
	// (fixtures/sol-check23's qkScore<0>, attention scores Q·Kᵀ of 64
	// dims: its WMMA twin ran 0.22 faster). A one-tile transform of FP32
	// data (sol-check16's dct32<32>) is not one.
	streams := streamsOperands(p.Kernel)
	if !streams && !half {
		return
	}
	rate := tc.Rates["fp16"]
	if !half {
		// A product's FP32 work is its multiply-adds, each fed from the
		// tile: FFMAs four times the separate multiplies and adds or
		// more, a 4-byte word loaded from shared memory for every ten
		// FFMAs or more (an 8×8 register tile: one per four; an LDS.128
		// loads four: fixtures/sol-check10's mm32_ieee, Triton's fp32
		// tl.dot at input_precision="ieee", one LDS.128 a 12.8 FFMAs,
		// 0.31 words an FFMA). An n-body step (rsqrt, FMUL and FADD
		// beside its FFMAs) or an iterated map (FMUL as often as FFMA,
		// no shared load in its loop) is no GEMM.
		if !tc.Has("tf32") || ffma < 4*other || lds < 0.1*ffma || uniformShared(p.Kernel) {
			return
		}
		rate = tc.TF32Ratio()
	}
	t, _ := p.Value("duration")
	gain := math.NaN()
	if rate > 0 && t > 0 {
		after := h.Ideal / (tf32Efficiency * rate)
		gain = math.Min(math.Min(clamp01(1-math.Max(after, launchFloor)/t), h.Share), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	}
	msg := fmt.Sprintf("a GEMM on half inputs converted to FP32 (%.3g conversions, %.3g FFMA per warp) multiplies on the FFMA pipe, with no tensor-core instruction; %.0f %% of its time is headroom on the FP32 pipe",
		conv, ffma, 100*h.Share)
	if held, ok := productLoopsHeld(p.Kernel); !streams && ok {
		// Staged once, the tiles' loads, conversions and shared stores
		// and the outputs' stores stay as they are: the tensor cores
		// take the FFMA loop's time alone, the warps' sampled share of
		// it (qkScore<0>: 27 % of its samples in the loop over the 64
		// dims, the rest staging the tiles and storing: 0.24 against 0.22).
		if rate > 0 {
			gain = math.Min(nzf(gain), held*(1-1/(tf32Efficiency*rate)))
		}
		msg += fmt.Sprintf(", %.0f %% of the warps' sampled time in its FFMA loop over tiles staged once (the staging and the stores stay)", 100*held)
	}
	advice := "multiply the half tiles on the tensor cores with FP32 accumulators: WMMA (nvcuda::wmma 16×16×16 fragments), mma.sync, or cuBLAS / CUTLASS (cublasGemmEx with CUDA_R_16F inputs, CUBLAS_COMPUTE_32F)"
	if !half {
		msg = fmt.Sprintf("an FP32 GEMM from a shared tile (%.3g warp-level FFMAs, %.0f %% of its instructions) multiplies on the FFMA pipe, with no tensor-core instruction, on a GPU whose tensor cores take TF32; %.0f %% of its time is headroom on the FP32 pipe",
			ffma, 100*ffma/n, 100*h.Share)
		advice = framework(p.Kernel,
			"where a 10-bit mantissa with FP32 range and accumulation is accurate enough (TF32), multiply on the tensor cores: torch.matmul with torch.backends.cuda.matmul.allow_tf32 = True (or torch.set_float32_matmul_precision(\"high\")) in place of this kernel, or in CUDA WMMA's TF32 fragments (nvcuda::wmma::precision::tf32, 16×16×8, FP32 accumulators); else keep FP32 and register-tile it",
			"where a 10-bit mantissa with FP32 range and accumulation is accurate enough (TF32), multiply on the tensor cores: cuBLAS with TF32 math (cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH), or cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32), or WMMA's TF32 fragments (nvcuda::wmma::precision::tf32, 16×16×8, FP32 accumulators); else keep FP32 and register-tile it")
		if _, _, triton := tritonKernel(p.Kernel.Record); triton {
			advice = `where a 10-bit mantissa with FP32 range and accumulation is accurate enough (TF32), let tl.dot multiply on the tensor cores: input_precision="tf32" (or "tf32x3", three TF32 products, for near-FP32 accuracy) in place of "ieee" (or allow_tf32=True in older Triton)`
		}
	}
	p.report(estimate(gain), Note{
		Message:  msg,
		Advice:   advice,
		Evidence: p.evidence("shared_load_requests", "inst_executed", "duration"),
		Locations: topLines(p, func(o string, _ profan.SourceRecord) bool {
			return o == "FFMA" || strings.HasPrefix(o, "FFMA.")
		}),
	})
}

// streamsOperands reports whether a kernel's FFMAs sit in a loop that
// also loads from global memory: a GEMM's loop over K, each step's tiles
// of its operands loaded and multiplied, what the tensor cores' MMAs
// replace. A kernel whose loops multiply from shared memory alone, its
// global loads before them, is a fixed transform of one tile, not a
// product streamed through one (fixtures/sol-check16's dct32<32>, a 2-D
// DCT of 32x32 tiles: its cospif coefficients and one tile of the image
// in shared memory, then eight loops of 16 FFMAs and no LDG, held by its
// shared-memory bank conflicts, L1/shared at 98 %, FP32 pipe at 28 %:
// its padded twin ran 0.65 faster). Where the page shows no loop (a
// product unrolled whole), true.
func streamsOperands(a *analysis.Kernel) bool {
	_, loops := sassLoops(a)
	if len(loops) == 0 {
		return true
	}
	for _, l := range loops {
		load, fma := loadsAndFMAs(l)
		if load && fma {
			return true
		}
	}
	return false
}

// halfAsTF32 reports a product of half or bf16 inputs widened to FP32
// (HADD2.F32, F2F.F32.F16, F2F.F32.BF16 on the source page, one or more a
// tensor-core instruction) and multiplied on the tensor cores as TF32
// (HMMA.1688.F32.TF32, every MMA a TF32 one), the tensor pipe the unit of
// its headroom: the fp16 (bf16) tensor cores, twice the TF32 rate, sit
// idle, and each m16n8k8 step takes its operands through the conversions.
// Triton lowers a product written as a broadcast multiply and tl.sum over
// the shared axis (tl.sum(a[:, :, None] * b[None, :, :], axis=1)) to such
// a dot when its operands were widened with .to(tl.float32)
// (fixtures/sol-check14's mm_fma: 32×32 tiles, BLOCK_K = 8, 8.4 M TF32
// HMMA under tl.sum's line and 84 M HADD2.F32 on the loads' lines, L1/shared at 80 %
// and the tensor pipe at 12 %; tl.dot on the fp16 tiles as loaded,
// 128×128×32, ran 0.93 faster). The price is halfOnFFMA's: the product's
// operations at the fp16 tensor-core peak at tf32Efficiency, bounded by
// the headroom and by what its DRAM traffic leaves. False where it
// does not apply (halfOnFFMA is tried then).
func halfAsTF32(p *Pass) bool {
	h := p.Kernel.Limiter.Headroom
	tc := tensorCores(p.Kernel)
	if !h.Known() || h.Unit != "tensor pipe" || !tc.Has("fp16") || len(p.Kernel.Record.Source) == 0 {
		return false
	}
	var tf32, mma, conv float64
	seen := map[string]bool{}
	for _, s := range p.Kernel.Record.Source {
		if s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		op := opcode(s.SASS)
		switch {
		case tensorOpcode(op):
			mma += instExecuted(s)
			if strings.HasPrefix(op, "HMMA.") && strings.Contains(op, ".TF32") {
				tf32 += instExecuted(s)
			}
		case isHalfWidening(op, s.SASS):
			conv += instExecuted(s)
		}
	}
	if !(tf32 > 0) || tf32 < mma || conv < tf32 {
		return false
	}
	flops, _ := analysis.SourceTensorFlops(p.Kernel.Record)
	if v, ok := p.Value("flop_count_tensor"); ok && v > 0 {
		flops = v
	}
	t, _ := p.Value("duration")
	peak := 0.0
	if p.Kernel.Spec != nil {
		peak = p.Kernel.Spec.PeakTensor("fp16")
	}
	gain := math.NaN()
	if flops > 0 && peak > 0 && t > 0 {
		// Bounded by DRAM's traffic, which stays, not L2's: a product's
		// L2 traffic is its tiles' re-reads of the operands (each read
		// once for each tile of the other), which the tiles advised cut
		// (mm_fma: 32×32 tiles, L2 at 32 %, which would bound the gain at
		// 0.65 where the fix ran 0.93 faster).
		after := flops / (tf32Efficiency * peak)
		gain = math.Min(math.Min(clamp01(1-math.Max(after, launchFloor)/t), h.Share), leftBy(p, analysis.LimitDRAM))
	}
	msg := fmt.Sprintf("a product of half inputs widened to FP32 (%.3g conversions) multiplies on the tensor cores as TF32 (%.3g TF32 MMAs per warp), at half the fp16 tensor-core rate, the fp16 tensor cores idle; %.0f %% of its time is headroom on the tensor pipe",
		conv, tf32, 100*h.Share)
	advice := framework(p.Kernel,
		"multiply the half tensors as they are: torch.matmul on the float16 (bfloat16) tensors, or autocast (torch.autocast(\"cuda\", dtype=torch.float16)), FP32 accumulation included; not .float() before the product",
		"multiply the half tiles as they are, FP32 accumulators: mma.sync m16n8k16 (or WMMA 16×16×16 half fragments) from the tiles as loaded, no conversion to float before the product; or cuBLAS / CUTLASS (cublasGemmEx with CUDA_R_16F inputs, CUBLAS_COMPUTE_32F)")
	if _, _, triton := tritonKernel(p.Kernel.Record); triton {
		advice = "call tl.dot on the fp16 (bf16) blocks as loaded, with an FP32 accumulator (acc = tl.dot(a, b, acc), acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)), not on operands widened with .to(tl.float32): Triton lowers a broadcast multiply and tl.sum over the shared axis (tl.sum(a[:, :, None] * b[None, :, :], axis=1)) to a dot of its operands as given, here TF32 MMAs at half the fp16 rate; and give the dot tiles of 128×128 with BLOCK_K of 32 or more, num_warps=8, num_stages=3 (or let @triton.autotune choose them)"
	}
	locs := topLines(p, func(o string, s profan.SourceRecord) bool { return isHalfWidening(o, s.SASS) })
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  p.evidence("flop_count_tensor", "duration"),
		Locations: locs,
	})
	return true
}

// isHalfWidening reports whether a SASS instruction (op its opcode)
// widens a half or bf16 value to FP32: HADD2.F32, F2F.F32.F16,
// F2F.F32.BF16, or a bf16's 16 bits moved to an FP32's high half by a
// multiply by 0x10000 (IMAD.U32 R9, R9, 0x10000, RZ; IMAD.SHL.U32 the
// same), as nvcc and Triton widen bf16 on sm_90 (fixtures/sol-check21's
// mm_bcast_sum: 43.6 M such IMAD.U32 beside 8.4 M TF32 HMMA, a bf16
// product written as a broadcast and tl.sum).
func isHalfWidening(op, sass string) bool {
	if strings.HasPrefix(op, "HADD2.F32") || strings.HasPrefix(op, "F2F.F32.F16") || strings.HasPrefix(op, "F2F.F32.BF16") {
		return true
	}
	if op != "IMAD.U32" && op != "IMAD.SHL.U32" {
		return false
	}
	f := sassOperands(sass)
	return len(f) == 4 && strings.HasPrefix(f[1], "R") && f[1] != "RZ" && f[2] == "0x10000" && f[3] == "RZ"
}

// sharedWords is the 4-byte words a shared load of opcode op reads a
// thread: LDS.64 two, LDS.128 four, LDS (and narrower) one.
func sharedWords(op string) float64 {
	switch {
	case strings.Contains(op, ".128"):
		return 4
	case strings.Contains(op, ".64"):
		return 2
	}
	return 1
}

// tensorOpcode reports whether a SASS opcode runs on the tensor cores
// (HMMA, IMMA, DMMA, BMMA and Hopper's warpgroup GMMAs); HFMA2.MMA is a
// move on the FMA pipe, not one.
func tensorOpcode(op string) bool {
	for _, x := range []string{"HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "BGMMA"} {
		if strings.HasPrefix(op, x) {
			return true
		}
	}
	return false
}

// productLoopsHeld is the share of a kernel's warp stall samples in its
// loops that multiply (an FFMA in the body) from shared memory alone, no
// global load in them: a one-tile product's time on the FFMA pipe. false
// where the page samples no stalls.
func productLoopsHeld(a *analysis.Kernel) (float64, bool) {
	recs, loops := sassLoops(a)
	var all float64
	sampledAny := false
	for _, s := range recs {
		if c, ok := sampled(s); ok {
			sampledAny = true
			all += c
		}
	}
	if !sampledAny || !(all > 0) {
		return 0, false
	}
	in := map[string]bool{}
	var held float64
	for _, l := range loops {
		load, fma := loadsAndFMAs(l)
		if load || !fma {
			continue
		}
		for _, b := range l.body {
			if !in[b.Address] {
				in[b.Address] = true
				held += stallSamples(b)
			}
		}
	}
	return held / all, held > 0
}

// loadsAndFMAs says whether loop l's body loads from global memory and
// whether it runs FFMAs.
func loadsAndFMAs(l sassLoop) (load, fma bool) {
	for _, b := range l.body {
		switch base, _, _ := strings.Cut(opcode(b.SASS), "."); base {
		case "LDG", "LD", "LDGSTS", "UTMALDG":
			load = true
		case "FFMA":
			fma = true
		}
	}
	return load, fma
}
