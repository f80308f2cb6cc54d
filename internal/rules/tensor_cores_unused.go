package rules

import (
	"fmt"
	"math"

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
	Optional: []string{"compute_throughput_pct", "dram_utilization"},
	Check: func(p *Pass) {
		info := p.Kernel.Name
		if !info.FP32SIMT || (info.Kind != kernelname.GEMM && info.Kind != kernelname.Convolution) {
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
