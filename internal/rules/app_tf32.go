package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
)

// tf32 advises TensorFloat-32 for FP32 GEMMs and convolutions that run on
// the FMA pipe: the one-line change, weights and activations staying FP32.
var tf32 = &Rule{
	ID:    "tf32",
	Title: "FP32 GEMMs on the FMA pipe: allow TF32",
	Text: `The step's FP32 matrix multiplies and convolutions run on the FP32 FMA pipe
(cuBLAS "ffma"/sgemm, cuDNN FP32 engines, gemv). From compute capability 8.0
the tensor cores multiply TF32 (FP32 range, 10-bit mantissa, FP32 accumulation)
at 7.4 (H100) to 8 (A100) times the FMA rate: one line, and weights,
activations and the optimizer stay FP32. It is the first change to try on an
FP32 step bound by its GEMMs; bf16 autocast (bf16-autocast) does the same work
at twice the TF32 rate and replaces it where both apply.

The gain is the FP32 GEMMs' time × (1 − the time left at the TF32 rate): the
kernel's share of the FMA peak (compute_throughput_pct, or 1 when the export
lacks it: an upper bound) over the TF32 rate as cuBLAS reaches it (65% of the
peak ratio), bounded below by the kernel's unchanged DRAM traffic. Where the
trace holds the host's side, the step is replayed with those kernels shrunk
and the host's cost of the TF32 engines added to the ops that launch them
(docs/replay.md: cuDNN's layout transforms around each convolution, cuBLASLt's
kernel choice for each GEMM, measured on a UNet): on a step the host bounds,
TF32 can make it slower. Where the step's work is a loop whose count the host
decides from its results (a read Python tests, recurring after the same kernels
inside the model's forward: an adaptive solver's step and accept tests) and most
of these kernels run in it, the rounding moves the values the loop tests, and it
may run more times: the rule names the read, gives the price at the traced count
only and does not price the change (fixtures/host29b: the solver took 7.92 steps
under TF32 against 3.92, 64.6% slower).`,
	Before: `loss = model(x).sum()        # FP32 weights: cuBLAS runs FFMA kernels`,
	After: `torch.backends.cuda.matmul.allow_tf32 = True   # or torch.set_float32_matmul_precision("high")
torch.backends.cudnn.allow_tf32 = True         # convolutions (PyTorch's default)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"fp32-gemm|tf32-gemm"},
	Optional: []string{"compute_throughput_pct", "dram_utilization", "timeline"},
	CheckApp: func(p *AppPass) {
		fp32, tf32 := p.kernels("fp32-gemm"), p.kernels("tf32-gemm")
		if len(fp32) == 0 {
			p.InUse("already TF32: %d GEMM/convolution kernels run TF32 tensor-core kernels (%s of the time)", len(tf32), pct(timeOf(tf32)/p.total()))
			return
		}
		ratio, _ := p.tensorRates()
		if ratio == 0 {
			return
		}
		saves := map[*analysis.Group]float64{}
		for _, g := range fp32 {
			saves[g] = 1 - p.mathRest(g, ratio, 1)
		}
		gain := gainOf(saves, p.total())
		msg := fmt.Sprintf("%d FP32 GEMM/convolution kernels run on the FMA pipe, not tensor cores (%d launches, %s of the time)", len(fp32), launchesOf(fp32), pct(timeOf(fp32)/p.total()))
		if len(tf32) > 0 {
			// TF32 is on for some products already (cuDNN allows it by
			// default): say so, the rest are the ones still on the FMA pipe.
			msg += fmt.Sprintf("; %d others already run TF32 tensor-core kernels (%s of the time), so TF32 is allowed for them: the FMA ones are matmuls with allow_tf32 off or engines cuDNN chose without it", len(tf32), pct(timeOf(tf32)/p.total()))
		}
		p.recommendRounding(analysis.Recommendation{
			Message: msg,
			Fix:     tf32Fix(fp32),
			Groups:  fp32, Gain: gain, Saves: saves,
			// The tensor-core engines' host work, in the replay.
			Lever:    &analysis.Lever{Host: engineHost(fp32)},
			Basis:    fmt.Sprintf("TF32 tensor cores at %.1f× the FP32 FMA rate, %.0f%% of it reached, bounded by each kernel's DRAM traffic", ratio, 100*tf32Efficiency),
			Composes: "with every change but bf16 autocast or bf16 weights, which replace it on these kernels",
		}, "TF32's rounding (a 10-bit mantissa)")
	},
}

// tf32Fix is tf32's fix for the FMA kernels gs: the matmul flag for
// cuBLAS's, cuDNN's for its convolutions (PyTorch's default, named only
// where one of them runs on the FMA pipe).
func tf32Fix(gs []*analysis.Group) string {
	conv, mm := false, false
	for _, g := range gs {
		if g.Info.Library == kernelname.CUDNN {
			conv = true
		} else {
			mm = true
		}
	}
	const (
		matmul = `torch.backends.cuda.matmul.allow_tf32 = True (or torch.set_float32_matmul_precision("high"))`
		cudnn  = "torch.backends.cudnn.allow_tf32 = True for convolutions"
		same   = ": the same FP32 tensors, multiplied on TF32 tensor cores"
	)
	switch {
	case conv && !mm:
		return cudnn + same
	case mm && !conv:
		return matmul + same
	}
	return matmul + ", and " + cudnn + same
}
