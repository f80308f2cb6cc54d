package kernelname

import (
	"strings"
	"testing"
)

// The names are real: from fixtures/pytorch/train.full.details.csv.gz (an
// FP32 PyTorch training step on an H100) and the public samples under
// ingest/testdata.
func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		name    string
		lib     Library
		kind    Kind
		simt    bool
		display string
	}{
		{"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas",
			CUBLAS, GEMM, true, "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_cublas"},
		{"sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma_aligna4_alignc4_execute_split_k_kernel__5x_cublas",
			CUBLAS, GEMM, true, "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma_split_k_cublas"},
		{"void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>(T1::Params)",
			CUTLASS, GEMM, true, "cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>"},
		{"void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x4_nn_align8>(T1::Params)",
			CUTLASS, GEMM, false, "cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x4_nn_align8>"},
		{"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, 0, float, float, float, 1, 0, 0, 0>(cublasLt::cublasSplitKParams<T6>, const T4 *, const T10 *, T9 *, T5 *, const T6 *, const T6 *, const T11 *, const T4 *, T11 *, void *, long, T6 *, int *, T6 *, T6 *, const T6 *, const T6 *, const T6 *, const T6 *, const T6 *)",
			CUBLASLt, GEMM, false, "cublasLt::splitKreduce_kernel<…>"},
		{"volta_sgemm_128x64_nt", CUBLAS, GEMM, true, "volta_sgemm_128x64_nt"},
		// torchvision's NMS kernels (fixtures/host18 det.default's trace).
		{"vision::ops::(anonymous namespace)::gather_keep_from_mask(bool*, unsigned long long const*, int)", TorchVision, Other, false, "vision::gather_keep_from_mask"},
		{"void vision::ops::(anonymous namespace)::nms_kernel_impl<float>(int, double, float const*, unsigned long long*)", TorchVision, Other, false, "vision::nms_kernel_impl<float>"},
		// cuBLAS 12 on Hopper names its GEMMs nvjet_*.
		{"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT", CUBLAS, GEMM, false, ""},
		{"sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x32x64_stage5_warpsize2x2x1_g1_tensor16x8x16_t1r3s3_execute_kernel__5x_cudnn",
			CUDNN, Convolution, false, ""},
		{"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(cudnn::winograd_nonfused::WinogradDataParams<float, float>)",
			CUDNN, Convolution, true, "cudnn::winogradForwardData4x4<float, float>"},
		// cuDNN's FFT convolution (fixtures/host8/unet.fp32): FP32 work.
		{"void DSE::regular_fft_pad<0, 1, 128, 16, 32, 1, float, float, float2>(float2*, float*, int, int3, int3, int, int3, int3, int, int, int, int, int, bool)",
			CUDNN, Convolution, true, ""},
		{"void pointwise_mult_and_sum_complex<float2, 8, 4>(float2*, float2*, float2*, int, int, int, int, int, float2)",
			CUDNN, Convolution, true, ""},
		{"volta_scudnn_128x64_relu_small_nn_v1", CUDNN, Convolution, true, "volta_scudnn_128x64_relu_small_nn_v1"},
		{"void at::vectorized_elementwise_kernel<4, at::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)",
			ATen, Fill, false, "at::vectorized_elementwise_kernel<FillFunctor, …>"},
		{"void at::vectorized_elementwise_kernel<4, at::GeluCUDAKernelImpl(at::TensorIteratorBase &, at::GeluType)::[lambda() (instance 2)]::operator ()() const::[lambda() (instance 2)]::operator ()() const::[lambda(float) (instance 1)], std::array<char *, 2>>(int, T2, T3)",
			ATen, Elementwise, false, "at::vectorized_elementwise_kernel<GeluCUDAKernelImpl, …>"},
		{"void at::elementwise_kernel<128, 2, void at::gpu_kernel_impl_nocast<at::mse_backward_cuda_kernel(at::TensorIterator &, const c10::Scalar &)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 2)]::operator ()() const::[lambda(float, float, float) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
			ATen, Elementwise, false, "at::elementwise_kernel<mse_backward_cuda_kernel, …>"},
		{"void at::reduce_kernel<128, 4, at::ReduceOp<float, at::func_wrapper_t<float, at::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, 4, 4>>(T3)",
			ATen, Reduction, false, "at::reduce_kernel<sum_functor, …>"},
		{"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
			ATen, Reduction, false, "at::reduce_kernel<sum_functor, …>"},
		{"void at::<unnamed>::vectorized_layer_norm_kernel<float, float, 0>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
			ATen, Normalization, false, "at::vectorized_layer_norm_kernel<float, float, 0>"},
		{"void at::<unnamed>::GammaBetaBackwardCUDAKernelTemplate<float, float, 32, 32, 256, 0, 1, 0>(long, long, const T1 *, const T1 *, const T2 *, const T2 *, T1 *, T1 *)",
			ATen, Normalization, false, "at::GammaBetaBackwardCUDAKernelTemplate<…>"},
		// Group norm's statistics and its fused scale and shift.
		{"void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float>(long, float, float const*, float*, float*)",
			ATen, Normalization, false, "at::RowwiseMomentsCUDAKernel<float>"},
		{"void at::<unnamed>::multi_tensor_apply_kernel<at::<unnamed>::TensorListMetadata<2>, at::<unnamed>::TernaryOpScalarFunctor<float, 2, 2, 0>, at::LerpFunctor<float>, float>(T1, T2, T3...)",
			ATen, Optimizer, false, "at::multi_tensor_apply_kernel<TernaryOpScalarFunctor, LerpFunctor, …>"},
		{"void at::native::<unnamed>::CatArrayBatchedCopy<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)2, (int)64, (int)64>(T1 *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)",
			ATen, Copy, false, "at::CatArrayBatchedCopy<…>"},
		{"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true>(float*, float const*, int, int, int)",
			ATen, Normalization, false, "softmax_warp_forward<float, float, float, 10, true>"},
		{"void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)64, (int)128, (int)128, (int)4, (bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)64, (int)128, (int)128, (int)4, cutlass::bfloat16_t>>, (bool)0>(Flash_fwd_params)",
			FlashAttention, Attention, false, "pytorch_flash::flash_fwd_kernel<…>"},
		{"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096>)", NCCL, Communication, false, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"},
		{"triton_poi_fused_add_gelu_0", Triton, Elementwise, false, "triton_poi_fused_add_gelu_0"},
		{"triton_red_fused_native_layer_norm_1", Triton, Reduction, false, "triton_red_fused_native_layer_norm_1"},
		// User kernels stay the user's.
		{"transposeNaive(float *, const float *)", User, Other, false, "transposeNaive"},
		{"void gemm_v0<float>(T1 *, T1 *, T1 *, int, int, int)", User, Other, false, "gemm_v0<float>"},
		{"void strideCopy<32>(const float *, float *, int)", User, Other, false, "strideCopy<32>"},
		{"void matrixMulCUDA<32>(float *, float *, float *, int, int)", User, Other, false, "matrixMulCUDA<32>"},
		{"_Z6vecAddIfEvPT_S1_S1_i", User, Other, false, "_Z6vecAddIfEvPT_S1_S1_i"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.name)
			if got.Library != tt.lib || got.Kind != tt.kind || got.FP32SIMT != tt.simt {
				t.Errorf("Classify(%.60q) = %v %v simt=%v, want %v %v simt=%v", tt.name, got.Library, got.Kind, got.FP32SIMT, tt.lib, tt.kind, tt.simt)
			}
			if tt.display != "" && got.Display != tt.display {
				t.Errorf("Display(%.60q) = %q, want %q", tt.name, got.Display, tt.display)
			}
			if len(got.Display) > maxDisplay+len("…") {
				t.Errorf("Display(%.60q) is %d bytes long", tt.name, len(got.Display))
			}
		})
	}
}

func TestDisplayOddNames(t *testing.T) {
	for _, s := range []string{"", "<", ">", "()", "a<b", "f(", "x>>(y)", "void", "  ", "operator()<>"} {
		_ = display(s) // must not panic
		_ = Classify(s)
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		"void at::reduce_kernel<128, 4, at::ReduceOp<float, at::func_wrapper_t<float, at::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, 4, 4>>(T3)",
		"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas",
		"std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int>(cublasGemvParamsEx<int>)",
		"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true>(float*, float const*, int, int, int)",
		"transposeNaive(float *, const float *)", "a<<b>>(c)", "))((", "<>", "`anonymous namespace'::x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		info := Classify(name)
		if len(info.Display) > maxDisplay+len("…") {
			t.Errorf("Display(%q) is %d bytes", name, len(info.Display))
		}
		if info.FP32SIMT && info.Kind != GEMM && info.Kind != Convolution {
			t.Errorf("Classify(%q): FP32 SIMT on a %v", name, info.Kind)
		}
	})
}

// TestHugeNames checks that a name past maxRead is read from its head: a
// hostile megabyte of nested templates costs what 8 kB do, and a real
// name (the corpus's longest is 3.5 kB) is read whole.
func TestHugeNames(t *testing.T) {
	real := "void cutlass::Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::threadblock::MmaPipelined<float>>>(Params)"
	huge := real[:len(real)-len("(Params)")] + strings.Repeat("<A", 1<<19) + strings.Repeat(">", 1<<19) + "(Params)"
	got, want := Classify(huge), Classify(huge[:maxRead])
	if got != want {
		t.Errorf("Classify of a 1.5 MB name = %+v, want that of its first 8 kB, %+v", got, want)
	}
	if c := Classify(real); c.Library != CUTLASS || c.Kind != GEMM {
		t.Errorf("Classify(%q) = %+v", real, c)
	}
	if d := display(huge); len(d) > maxDisplay || !strings.HasPrefix(d, "cutlass::Kernel") {
		t.Errorf("display of a 1.5 MB name = %q", d)
	}
}

// TestWithSourceLines: a name that reads as a precompiled library's is
// the application's own when the source page gives it CUDA lines; the
// libraries compiled into the application (CUTLASS, ATen, Triton) keep
// theirs, and without lines nothing changes.
func TestWithSourceLines(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines bool
		want  Library
	}{
		{"nchwToNhwcNaive(float *, const float *, int)", true, User},
		{"nchwToNhwcNaive(float *, const float *, int)", false, CUDNN},
		{"void cutlass::Kernel<cutlass_80_tensorop_s16816gemm_f16_128x128_32x3_nn_align8>(Params)", true, CUTLASS},
		{"triton_poi_fused_add_0", true, Triton},
	} {
		if got := Classify(c.name).WithSourceLines(c.lines).Library; got != c.want {
			t.Errorf("%s (lines %v): library %v, want %v", c.name, c.lines, got, c.want)
		}
	}
}
