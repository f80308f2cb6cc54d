package rules

import (
	"math"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
)

// TestEngineHost: a precision change charges the ops of the FP32
// convolutions and GEMMs it moves onto tensor cores by their kind, and
// nothing to any other kernel.
func TestEngineHost(t *testing.T) {
	conv := "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize128x128x8_stage3_warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn"
	gemm := "void gemmSN_TN_kernel<float, 128, 16, 2, 4, 8, 9, false, cublasGemvTensorStridedBatched<float const>>"
	add := "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>"
	var gs []*analysis.Group
	for _, n := range []string{conv, gemm, add} {
		gs = append(gs, &analysis.Group{Name: n, Info: kernelname.Classify(n)})
	}
	h := engineHost(gs)
	if h == nil {
		t.Fatal("no engine host for a convolution and a GEMM")
	}
	for n, want := range map[string]float64{conv: engineHostUnits[kernelname.Convolution], gemm: engineHostUnits[kernelname.GEMM], add: 0, "other": 0} {
		if got := h(n); got != want {
			t.Errorf("%s: %.1f launches' worth, want %.1f", n, got, want)
		}
	}
	if engineHost(gs[2:]) != nil {
		t.Error("an element-wise kernel alone has an engine host")
	}
}

// TestAutocastHost: bf16 autocast charges an FP32 convolution's op
// bf16's engine and its casts, in the forward and the backward (whose
// casts take the gradients back), a TF32 GEMM's the casts alone and a
// norm one cast.
func TestAutocastHost(t *testing.T) {
	conv := "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize128x128x8_stage3_warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn"
	dgrad := "sm80_xmma_dgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize128x128x8_stage3_warpsize2x2x1_g1_ffma_execute_kernel__5x_cudnn"
	gemm := "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
	norm := "void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float>(long, float, float const*, float*, float*)"
	group := func(n string) *analysis.Group { return &analysis.Group{Name: n, Info: kernelname.Classify(n)} }
	fp32 := []*analysis.Group{group(conv), group(dgrad)}
	tf32s := []*analysis.Group{group(gemm)}
	all := append(append([]*analysis.Group{group(norm)}, fp32...), tf32s...)
	h, c := autocastHost(fp32, tf32s, all)
	if h == nil || c == nil {
		t.Fatal("no autocast host")
	}
	for n, want := range map[string][2]float64{
		conv:  {autocastEngineUnits[kernelname.Convolution], autocastCasts[kernelname.Convolution]},
		dgrad: {autocastEngineUnits[kernelname.Convolution], autocastCasts[kernelname.Convolution]},
		gemm:  {0, autocastCasts[kernelname.GEMM]},
		norm:  {0, autocastNormCasts},
	} {
		if got := [2]float64{h(n), c(n)}; math.Abs(got[0]-want[0]) > 1e-12 || math.Abs(got[1]-want[1]) > 1e-12 {
			t.Errorf("%.40s: %.2f launches' worth and %.1f casts, want %.2f and %.1f", n, got[0], got[1], want[0], want[1])
		}
	}
}
