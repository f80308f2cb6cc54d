package kernelname

import (
	"regexp"
	"strings"
)

// Category is what a kernel's time is spent on, in the terms a framework
// user changes: the math on tensor cores or on FP32 pipes, attention,
// normalization, element-wise work, reductions and losses, dtype casts,
// layout conversions, the optimizer step, communication, and memory
// fills and copies.
type Category int

// Categories, in the order a summary lists them when times tie.
const (
	CatOther Category = iota
	CatTensorMath
	CatFP32Math
	CatAttention
	CatNorm
	CatElementwise
	CatReduction
	CatCast
	CatLayout
	CatOptimizer
	CatComm
	CatMemory
	numCategories
)

var catIDs = [...]string{"other", "gemm-conv-tensor", "gemm-conv-fp32", "attention", "normalization", "elementwise",
	"reduction-loss", "cast", "layout", "optimizer", "communication", "memory"}

var catLabels = [...]string{"other", "GEMM/conv on tensor cores", "GEMM/conv on FP32 pipes", "attention", "normalization",
	"element-wise/activation", "reduction/loss", "dtype cast", "layout conversion", "optimizer", "communication",
	"memset/fill/copy"}

// ID is the category's name in JSON.
func (c Category) ID() string {
	if c >= 0 && int(c) < len(catIDs) {
		return catIDs[c]
	}
	return "other"
}

// String is the category's name for people.
func (c Category) String() string {
	if c >= 0 && int(c) < len(catLabels) {
		return catLabels[c]
	}
	return "other"
}

// Family names of the table that recommendations look for.
const (
	FamForeachOptimizer = "aten.foreach-optimizer"
	FamFusedOptimizer   = "aten.fused-optimizer"
	FamCuDNNLayout      = "cudnn.layout"
	FamCuDNNBatchNormCH = "cudnn.batchnorm-nchw"
	FamCuDNNBatchNorm   = "cudnn.batchnorm"
	FamAtenCast         = "aten.cast"
	FamCuDNNDepthwise   = "cudnn.conv-depthwise"
	FamAtenDepthwise    = "aten.conv-depthwise"
	FamVisionNMS        = "torchvision.nms"
)

// family is one row of the table: kernels whose lowercased name (anonymous
// namespaces removed) matches re belong to lib and cat. kind, when set,
// overrides the kind read by the older name patterns; cat CatOther with
// math set means "tensor cores or FP32 by the name's data types".
type family struct {
	name string
	re   *regexp.Regexp
	lib  Library
	kind Kind
	cat  Category
	math bool
	// aten: the row names PyTorch ops, so it holds only for names in
	// PyTorch's namespaces (a user's "softmax" kernel stays the user's).
	aten bool
}

func row(name, re string, lib Library, kind Kind, cat Category) family {
	return family{name: name, re: regexp.MustCompile(re), lib: lib, kind: kind, cat: cat}
}

func atenRow(name, re string, kind Kind, cat Category) family {
	f := row(name, re, ATen, kind, cat)
	f.aten = true
	return f
}

func mathRow(name, re string, lib Library, kind Kind) family {
	f := row(name, re, lib, kind, CatOther)
	f.math = true
	return f
}

// families is the table, first match wins. Names are matched in any
// namespace spelling ncu prints: "void at::", "at::native::", "native::",
// templates demangled or not.
var families = []family{
	row("nccl", `nccl`, NCCL, Communication, CatComm),
	// PyTorch's helper that unpacks the dropout seeds for cuDNN: ATen's,
	// whatever its name says.
	row("aten.philox", `philox::unpack`, ATen, Fill, CatMemory),
	// The CUDA runtime's copies and sets, as nsys and nvprof list them.
	row("cuda.memcpy", `^\[cuda mem(cpy|set)`, User, Copy, CatMemory),
	// Attention: FlashAttention, cuDNN's fused SDPA and its helpers,
	// PyTorch's memory-efficient (CUTLASS fmha) kernels. Before the
	// convolution rows: cuDNN's SDPA names say "fprop" and "bprop".
	row("flash", `flash_fwd|flash_bwd|flash::|pytorch_flash`, FlashAttention, Attention, CatAttention),
	row("cudnn.sdpa", `cudnn.*sdpa|sdpa.*cudnn|cudnn_generated_fort_native_sdpa|compute_dot_do_o_specialized|convert_dq_to_16bits`, CUDNN, Attention, CatAttention),
	row("aten.mem-efficient-attention", `fmha_cutlass|pytorchmemeffattention|mem_efficient_attention`, ATen, Attention, CatAttention),
	row("fmha", `fmha`, FlashAttention, Attention, CatAttention),
	row("flashinfer", `flashinfer|batchdecodewithpagedkvcache|batchprefillwith|singledecodewithkvcache|singleprefillwith|variablelengthmergestates|mergestateskernel`, FlashInfer, Attention, CatAttention),
	// cuDNN's layout conversions around NCHW convolutions.
	// cuDNN pads the channels of an NHWC input to a multiple of 8 for
	// its tensor cores: in either layout, no conversion.
	row("cudnn.padding", `nhwcaddpadding`, CUDNN, Copy, CatMemory),
	row(FamCuDNNLayout, `nchwtonhwc|nhwctonchw|(engines_precompiled|cudnn)::converttensor|nchw2nhwc|nhwc2nchw`, CUDNN, Copy, CatLayout),
	row("cudnn.workspace", `init_device_workspace_kernel|cask_cudnn::computeoffsets`, CUDNN, Fill, CatMemory),
	// cuDNN's other precompiled engines (scaling a packed tensor by alpha).
	row("cudnn.scale", `engines_precompiled::.*scale`, CUDNN, Elementwise, CatElementwise),
	// cuDNN batch norm: the NCHW (1C11: one channel, spatial) kernels run
	// one block per channel.
	row(FamCuDNNBatchNorm, `cudnn::(bn_|batchnorm_).*nhwc`, CUDNN, Normalization, CatNorm),
	row(FamCuDNNBatchNormCH, `cudnn::bn_(fw|bw)`, CUDNN, Normalization, CatNorm),
	row(FamCuDNNBatchNorm, `cudnn::batchnorm_`, CUDNN, Normalization, CatNorm),
	// Depthwise convolutions (one channel per group: "c1_k1") run on the
	// FP32 pipes whatever the dtype: no tensor-core path to move them to.
	row(FamCuDNNDepthwise, `xmma_depthwise|depthwise_convolution|^(void )?(conv2d|dgrad2d|wgrad2d)_c1_k1`, CUDNN, Convolution, CatFP32Math),
	// cuDNN's FFT convolution engine (the DSE:: transforms, the product
	// in the frequency domain), which it picks for FP32 convolutions with
	// TF32 off: FP32 work, on the FMA pipe.
	mathRow("cudnn.fft-conv", `dse::(regular_fft|vector_fft)|pointwise_mult_and_sum_complex|fft2d_(r2c|c2r)_|flip_filter`, CUDNN, Convolution),
	// Convolutions: cuDNN's xmma, CUTLASS-in-cuDNN, direct and Winograd
	// engines.
	mathRow("cudnn.conv", `xmma_(fprop|dgrad|wgrad)|_5x_cudnn.*(fprop|dgrad|wgrad|conv)|implicit_convolve|convolve_common_engine|wgrad_alg|dgrad_engine|dgrad2d|scudnn|winograd|conv2d_grouped|cudnn::(ops|detail)::.*conv`, CUDNN, Convolution),
	row("cudnn.splitk-reduce", `cutlass__5x_cudnn::kernel<reduction::reducesplitk`, CUDNN, Reduction, CatFP32Math),
	// GEMMs: cuBLAS (nvjet on Hopper, xmma, the legacy sgemm/gemv
	// families), cuBLASLt's split-K reduction and epilogues, CUTLASS.
	row("cublas.nvjet", `^(void )?nvjet_`, CUBLAS, GEMM, CatTensorMath),
	mathRow("cublas.xmma", `^(void )?sm\d+_xmma_gemm|^(void )?xmma_gemm|_cublas$`, CUBLAS, GEMM),
	row("cublas.gemv", `cublasgemv|internal::gemvx::|gemv2[nt]_kernel|gemvnsp_kernel`, CUBLAS, GEMM, CatFP32Math),
	mathRow("cublas.legacy", `^(void )?((ampere|volta|turing|maxwell|kepler|pascal|hopper|ada|sm\d+)_[a-z0-9_]*gemm|[sdczh]gemm_(large|\d+x\d+)|gemv2[nt]_kernel|gemvnsp_kernel|gemmk1_kernel|gemmsn_[a-z]+_kernel)|internal::gemvx::`, CUBLAS, GEMM),
	// The split-K reduction of a GEMM goes with its GEMM: 16-bit data
	// types say that ran on tensor cores.
	row("cublaslt.splitk-reduce", `splitkreduce_kernel<.*(bfloat16|__half)`, CUBLASLt, GEMM, CatTensorMath),
	row("cublaslt.splitk-reduce", `splitkreduce_kernel`, CUBLASLt, GEMM, CatFP32Math),
	row("cublaslt.epilogue", `(cublaslt|epilogue|impl)::globalkernel`, CUBLASLt, Elementwise, CatElementwise),
	row("cublas.scal", `^(void )?scal_kernel`, CUBLAS, Elementwise, CatElementwise),
	mathRow("cutlass", `cutlass`, CUTLASS, GEMM),
	// PyTorch optimizers: foreach (one kernel per operation over a list
	// of tensors) and fused (one kernel for the whole update).
	row(FamFusedOptimizer, `fused(adam|adamw|sgd|adagrad)mathfunctor|fused_adam|fused_sgd|fusedadam`, ATen, Optimizer, CatOptimizer),
	row("aten.amp-scaler", `amp_foreach_non_finite|amp_update_scale`, ATen, Optimizer, CatOptimizer),
	row(FamForeachOptimizer, `multi_tensor_apply_kernel`, ATen, Optimizer, CatOptimizer),
	// Triton kernels of torch.compile: the name lists the fused ops.
	mathRow("triton.gemm", `^(void )?triton_tem_fused_.*(mm|bmm|addmm|convolution)`, Triton, GEMM),
	row("triton.cast", `^(void )?triton_poi_fused__to_copy(_view)?_\d+$`, Triton, Elementwise, CatCast),
	row("triton.norm", `^(void )?triton_(red|per|poi)_fused_.*(layer_norm|batch_norm|rms_norm|group_norm|_softmax)`, Triton, Reduction, CatNorm),
	row("triton.reduction", `^(void )?triton_(red|per)_`, Triton, Reduction, CatReduction),
	row("triton.elementwise", `^(void )?triton_`, Triton, Elementwise, CatElementwise),
	// CUB's device algorithms (PyTorch's embedding backward sorts and
	// scans with them); ncu's base names drop the cub:: namespace.
	row("cub", `cub::|\b(radix_sort|scan|unique_by_key|reduce|select|histogram|merge_sort|segmented_sort)::device`, CUB, Reduction, CatReduction),
	// torchvision's NMS: the overlap mask of the boxes (nms_kernel_impl),
	// then one block that walks it in score order (gather_keep_from_mask).
	row(FamVisionNMS, `^(void )?vision::.*(nms_kernel|gather_keep_from_mask)`, TorchVision, Other, CatOther),
	// PyTorch ATen.
	atenRow(FamAtenDepthwise, `conv_depthwise`, Convolution, CatFP32Math),
	atenRow("aten.norm", `batch_norm|layer_norm|group_norm|rms_norm|gammabetabackward|rowwisemoments|computefusedparams|softmax|batchnorm|welford`, Normalization, CatNorm),
	row("torch.fuser-cast", `^fused__.*(autocast_to|_to_copy)`, ATen, Elementwise, CatCast),
	atenRow("aten.loss", `classnllcriterion|nll_loss|cross_entropy|mse_kernel|mse_backward|smooth_l1|bce|binary_cross|kl_div|huber`, Other, CatReduction),
	atenRow(FamAtenCast, `bfloat16_copy_kernel|float16_copy_kernel|float8_copy_kernel|_to_copy`, Elementwise, CatCast),
	// masked_fill writes a value where a mask holds (attention's causal
	// mask): element-wise work on its tensor, not a fill of it.
	atenRow("aten.masked-fill", `masked_fill`, Elementwise, CatElementwise),
	atenRow("aten.fill", `fillfunctor|fill_kernel|zero_kernel|memset`, Fill, CatMemory),
	atenRow("aten.copy", `catarray|direct_copy_kernel|copy_kernel|gather_kernel|index_select|indexselect|scatter|index_put|embedding`, Copy, CatMemory),
	atenRow("aten.reduce", `reduce_kernel|cub::|sort|scan_kernel|topk|argmax|cumsum|pool_|_pool|average_pool|reduce_`, Reduction, CatReduction),
	atenRow("aten.elementwise", `elementwise_kernel|at::.*functor|at::native::|^(void )?at::|^(void )?native::`, Elementwise, CatElementwise),
}

// reMathTensor reads a GEMM or convolution name's data types: any 16-bit,
// 8-bit or TF32 operand, or a tensor-core instruction shape, puts it on
// tensor cores.
var reMathTensor = regexp.MustCompile(`tf32|bf16|bfloat16|__half|f16|fp16|e4m3|e5m2|int8|i8816|tensorop|tensor\d|tensor16x|hmma|imma|gmma|wgmma|s1688|s16816|h1688|h884|s884|s161616|wmma|nvjet`)

// reAtenNamespace recognises PyTorch's kernels by namespace.
var reAtenNamespace = regexp.MustCompile(`at::|native::|c10::|softmax_warp_|cunn_|at_cuda_detail|elementwise_kernel|pytorch`)

// familyOf finds name's row; lower is the lowercased name without
// anonymous namespaces.
func familyOf(lower string) *family {
	for i := range families {
		if families[i].re.MatchString(lower) && (!families[i].aten || reAtenNamespace.MatchString(lower)) {
			return &families[i]
		}
	}
	return nil
}

// applyFamily completes info from the family table. A name no row knows
// keeps the library and kind the older patterns read, and its category
// follows from them.
func applyFamily(info *Info, lower string) {
	f := familyOf(lower)
	if f == nil {
		info.Category = categoryOfKind(*info)
		return
	}
	info.Family = f.name
	info.Library = f.lib
	if f.kind != Other {
		info.Kind = f.kind
	}
	info.Category = f.cat
	if f.math {
		info.Category = CatFP32Math
		if reMathTensor.MatchString(lower) && !strings.Contains(lower, "ffma") && !strings.Contains(lower, "simt") {
			info.Category = CatTensorMath
		}
	}
	if info.Kind == GEMM || info.Kind == Convolution {
		info.FP32SIMT = info.Category == CatFP32Math && f.cat != CatFP32Math && !strings.Contains(lower, "__half") &&
			!strings.Contains(lower, "bfloat16")
	} else {
		info.FP32SIMT = false
	}
}

// categoryOfKind places a kernel the table does not name.
func categoryOfKind(info Info) Category {
	switch info.Kind {
	case GEMM, Convolution:
		if info.FP32SIMT {
			return CatFP32Math
		}
		if info.Library == User {
			return CatOther
		}
		return CatTensorMath
	case Elementwise:
		return CatElementwise
	case Reduction:
		return CatReduction
	case Normalization:
		return CatNorm
	case Fill, Copy:
		return CatMemory
	case Optimizer:
		return CatOptimizer
	case Communication:
		return CatComm
	case Attention:
		return CatAttention
	}
	return CatOther
}

// WithTensorPipe refines i by a counter where the name is silent: a
// kernel that keeps the tensor pipe busy (pct, 0–100, of its peak) is
// matrix math on tensor cores whatever it is called; a GEMM or
// convolution named as FP32 that does not is on FP32 pipes.
func (i Info) WithTensorPipe(pct float64) Info {
	if !(pct >= 0) {
		return i
	}
	switch {
	case pct >= 5 && i.Category != CatAttention:
		i.Category = CatTensorMath
		i.FP32SIMT = false
	case pct < 0.5 && i.Category == CatTensorMath && (i.Kind == GEMM || i.Kind == Convolution):
		i.Category = CatFP32Math
	}
	return i
}

// WithSourceLines says what a source page with lines in a CUDA source
// file tells of a kernel whose name reads as a library's: the libraries
// that ship compiled (cuDNN, cuBLAS, cuBLASLt, NCCL) carry no line
// information, so such a kernel was compiled from the application's own
// source and only its name resembles theirs (fixtures/sol-check6's
// nchwToNhwcNaive, at sol_check6.cu:362, named like cuDNN's layout
// kernels). Its work and category stay what the name says.
func (i Info) WithSourceLines(cudaLines bool) Info {
	switch i.Library {
	case CUDNN, CUBLAS, CUBLASLt, NCCL:
		if cudaLines {
			i.Library = User
		}
	}
	return i
}
