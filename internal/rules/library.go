package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
)

// A library kernel (cuBLAS, cuDNN, CUTLASS, PyTorch ATen, Triton, NCCL, ...)
// is not its caller's code: its grid, block size, registers and access
// patterns were chosen by the library for the shapes and types it was
// given. Advice about the kernel's source or launch ("launch more blocks",
// "stage a tile in shared memory") cannot be acted on; advice about what the
// caller controls can: data type and math mode, shapes and batching, fusion
// of element-wise chains, zeroing gradients, layout. forCaller rewrites a
// finding on a library kernel accordingly, or drops it.

// forCaller rewrites f, rule r's finding on the library kernel a, into
// advice its caller can act on; false drops it.
func forCaller(r *Rule, a *analysis.Kernel, f *profan.Finding) bool {
	switch r.Scope {
	case Caller:
		return true
	case Algorithm:
		// In a library kernel, register spills, contended atomics and
		// integer division are the library's code (cuDNN's fallback
		// weight-gradient algorithm accumulates with atomics, its
		// attention backward spills). The caller's lever is the choice of
		// kernel; what that saves is not measured, so the gain is left
		// unknown. The limiter still states them.
		adv := kernelChoiceAdvice(a.Name, pytorch(a))
		if benchmarked(a) && a.Name.Library == kernelname.CUDNN && a.Name.Kind == kernelname.Convolution {
			adv = benchmarkedChoice
		}
		if adv == "" {
			return false
		}
		f.Advice, f.Gain, f.Locations = adv, math.NaN(), nil
		return true
	case Source:
		// Registers, block size and access patterns are the library's
		// tuning, kept only where a rule's Library finds the caller's
		// share in them (a layout, a shape).
		return r.Library != nil && r.Library(a, f)
	}
	return false
}

// benchmarked reports a kernel of a PyTorch trace that records
// cudnn.benchmark on in every convolution (profan.Host.ConvBenchmark):
// its advice does not ask for what is in use.
func benchmarked(a *analysis.Kernel) bool {
	h := (*profan.Host)(nil)
	if a.Run != nil {
		h = a.Run.Host
	}
	return h != nil && h.ConvBenchmark > 0 && h.ConvHeuristic == 0
}

// benchmarkedChoice is kernelChoiceAdvice for a cuDNN convolution whose
// algorithm cuDNN chose by timing them (cudnn.benchmark on).
const benchmarkedChoice = "cuDNN chose this convolution algorithm, not your code, and cudnn.benchmark is on already (it timed its algorithms for these shapes and kept the fastest): the caller's levers left are the layout (channels_last) and the precision (TF32, bf16 autocast), which give it other algorithms to choose from"

// kernelChoiceAdvice is what the caller of a library kernel can do about
// its code: have another kernel chosen; "" when nothing can.
func kernelChoiceAdvice(info kernelname.Info, torch bool) string {
	switch {
	case info.Category == kernelname.CatAttention && !torch:
		return "the attention library's kernel does this, not your code: time the other fused attention kernels for these shapes (FlashAttention, cuDNN's fused attention) and keep the fastest; the flash kernels need fp16 or bf16 inputs"
	case info.Library == kernelname.CUDNN && info.Kind == kernelname.Convolution && !torch:
		return "cuDNN chose this convolution algorithm, not your code: cudnnFindConvolutionForwardAlgorithm (and its backward kin) times the algorithms for these shapes; keep the fastest for shapes that do not change"
	case info.Category == kernelname.CatAttention:
		return "the attention backend's kernel does this, not your code: time the other scaled_dot_product_attention backends for these shapes (with torch.nn.attention.sdpa_kernel([SDPBackend.FLASH_ATTENTION]), EFFICIENT_ATTENTION or CUDNN_ATTENTION) and keep the fastest; the flash kernels need fp16 or bf16 inputs"
	case info.Library == kernelname.CUDNN && info.Kind == kernelname.Convolution:
		return "cuDNN chose this convolution algorithm, not your code: torch.backends.cudnn.benchmark = True lets cuDNN time its algorithms for these shapes and keep the fastest (with input shapes that do not change from step to step)"
	}
	return ""
}

// stridedViews is uncoalesced-global's Library: an element-wise, copy,
// reduction or fill kernel of a library reads the tensors it is given, so
// scattered sectors there are the caller's strided views. A dtype cast
// reads and writes contiguous tensors (autocast's weight casts): its
// sectors are the vector width's, not a view's.
func stridedViews(a *analysis.Kernel, f *profan.Finding) bool {
	info := a.Name
	if info.Category == kernelname.CatCast || (info.Kind != kernelname.Elementwise && info.Kind != kernelname.Copy &&
		info.Kind != kernelname.Reduction && info.Kind != kernelname.Fill) {
		return false
	}
	f.Advice = framework(a, "the tensors reach this "+info.Library.String()+" kernel as strided views (a transpose, permute or slice): make them contiguous once (.contiguous()) where they are produced, or pick the layout the following ops read in order (channels_last for convolutions)",
		"the arrays reach this "+info.Library.String()+" kernel strided (a transpose or a slice): lay them out contiguously once where they are produced, or pick the layout the following kernels read in order (NHWC for convolutions)")
	f.Locations = nil
	return true
}

// moreWork is small-grid's and latency-bound's Library: the library sized
// the grid from the shapes it was given; the caller can give it more work.
func moreWork(a *analysis.Kernel, f *profan.Finding) bool {
	info := a.Name
	f.Advice = shapeAdvice(info, pytorch(a))
	if info.Kind == kernelname.Convolution && benchmarked(a) {
		f.Advice = strings.Replace(f.Advice, ", channels_last memory format and torch.backends.cudnn.benchmark = True give", " and channels_last memory format give", 1) + " (cudnn.benchmark is on already: cuDNN timed its algorithms for these shapes)"
	}
	if info.Kind == kernelname.GEMM && batched(a) {
		f.Advice = strings.Replace(f.Advice, "batch small products into one call (torch.bmm, a larger batch or sequence)", "a larger batch or sequence", 1)
		f.Advice = strings.Replace(f.Advice, "batch small products into one call (cublasGemmStridedBatched, a larger batch)", "a larger batch", 1)
	}
	return true
}

// fewerBytes is memory-bound's Library: what the caller can do about a
// library kernel that streams its tensors through memory.
func fewerBytes(a *analysis.Kernel, f *profan.Finding) bool {
	info := a.Name
	switch info.Kind {
	case kernelname.GEMM, kernelname.Convolution:
		f.Advice = "a memory-bound " + info.Kind.String() + " has a thin operand (one small dimension): batch the products into one call (" + framework(a, "torch.bmm", "cublasGemmStridedBatched") + ", a larger batch) so each weight is read once for more rows"
		if batched(a) {
			// Already one call over a batch (attention's products):
			// what is left is fewer bytes, or keeping them on chip.
			f.Advice = fmt.Sprintf("a memory-bound batched %s (%d products in one call) has a thin operand: in attention, %s keeps the scores on chip", info.Kind, a.Record.Grid[2],
				framework(a, "scaled_dot_product_attention", "a fused attention kernel (FlashAttention, cuDNN's)"))
		}
		if lower := lowerPrecision(a); lower != "" {
			f.Advice += ", or use " + lower + " to cut the bytes"
		}
	case kernelname.Fill, kernelname.Optimizer, kernelname.Communication:
		f.Advice = shapeAdvice(info, pytorch(a))
	default:
		f.Advice = framework(a, fmt.Sprintf("a %s %s kernel streams its tensors through memory once per operation: fusing the chain of element-wise ops around it (torch.compile, or a fused module) reads and writes them once, and a 16-bit type (bf16 autocast) halves the bytes", info.Library, info.Kind),
			fmt.Sprintf("a %s %s kernel streams its arrays through memory once per operation: fusing the chain of element-wise operations around it into one kernel reads and writes them once, and a 16-bit type (__nv_bfloat16, __half) halves the bytes", info.Library, info.Kind))
	}
	return true
}

// fewerFLOPs is compute-bound's Library: a library kernel at its math
// roof; on FP32 SIMT math where tensor cores take TF32, dropped, as
// tensor-cores-unused says what to do.
func fewerFLOPs(a *analysis.Kernel, f *profan.Finding) bool {
	info := a.Name
	if info.FP32SIMT && hasTensorCores(a) {
		return false
	} else if info.Kind == kernelname.GEMM || info.Kind == kernelname.Convolution {
		f.Advice = "already at the math roof of its data type: fewer FLOPs (smaller or pruned layers) is what is left"
		if lower := lowerPrecision(a); lower != "" {
			f.Advice = "already at the math roof of its data type: " + lower + " or fewer FLOPs (smaller or pruned layers) is what is left"
		}
	} else {
		f.Advice = fusionAdvice(info, pytorch(a))
	}
	return true
}

// lowerPrecision names the lower-precision type left to a GEMM or
// convolution, from the type its tensor cores ran (the raw page's per-type
// operation counters) or, without them, its name; "" when it already runs
// the lowest one worth offering (FP8, integers).
func lowerPrecision(a *analysis.Kernel) string {
	t, _ := analysis.TensorType(a)
	if t == "" {
		n := strings.ToLower(a.Record.DisplayName())
		switch {
		case strings.Contains(n, "e4m3") || strings.Contains(n, "e5m2") || strings.Contains(n, "fp8") || strings.Contains(n, "int8") || strings.Contains(n, "i8816"):
			t = "fp8"
		case strings.Contains(n, "bf16") || strings.Contains(n, "f16") || strings.Contains(n, "fp16") || strings.Contains(n, "half") ||
			strings.HasPrefix(n, "nvjet_") && !strings.Contains(n, "_sss_"):
			t = "fp16"
		case strings.Contains(n, "tf32"):
			t = "tf32"
		}
	}
	switch {
	case strings.HasPrefix(t, "fp8"), strings.HasPrefix(t, "int"), strings.HasPrefix(t, "fp4"):
		return ""
	case strings.HasPrefix(t, "bf16"), strings.HasPrefix(t, "fp16"):
		return "FP8 (Transformer Engine, on Hopper)"
	}
	return framework(a, "a 16-bit type (bf16 autocast)", "a 16-bit type (bf16)")
}

// shapeAdvice is what a caller can do about a library kernel that leaves
// the GPU idle: give it more work per call, in PyTorch's terms where the
// kernel runs under PyTorch and in CUDA's where it does not.
func shapeAdvice(info kernelname.Info, torch bool) string {
	if a, ok := familyShapeAdvice[info.Family]; ok {
		return a
	}
	switch info.Kind {
	case kernelname.Elementwise, kernelname.Reduction, kernelname.Normalization, kernelname.Copy:
		return fusionAdvice(info, torch)
	}
	a, ok := shapeAdvices[info.Kind]
	if !ok {
		a = shapeAdviceOther
	}
	text := a.cuda
	if torch {
		text = a.torch
	}
	if strings.Contains(text, "%s") {
		return fmt.Sprintf(text, info.Library.String())
	}
	return text
}

// shapeAdvices is shapeAdvice's text per kernel kind: under PyTorch and
// without it; "%s" is the library.
var shapeAdvices = map[kernelname.Kind]struct{ torch, cuda string }{
	kernelname.GEMM: {
		"%s sized this grid from the matrix shapes: batch small products into one call (torch.bmm, a larger batch or sequence), keep dimensions multiples of 16, or capture the step in a CUDA graph (torch.cuda.graphs) so the launch gaps disappear",
		"%s sized this grid from the matrix shapes: batch small products into one call (cublasGemmStridedBatched, a larger batch), keep dimensions multiples of 16, or capture the launches in a CUDA graph (cudaStreamBeginCapture ... cudaGraphLaunch) so the launch gaps disappear"},
	kernelname.Convolution: {
		"%s sized this grid from the tensor shapes: a larger batch, channel counts that are multiples of 8, channels_last memory format and torch.backends.cudnn.benchmark = True give it more work per launch",
		"%s sized this grid from the tensor shapes: a larger batch, channel counts that are multiples of 8, the NHWC layout and cudnnFindConvolutionForwardAlgorithm give it more work per launch"},
	// A fill kernel under PyTorch is torch.zeros, fill_ or zero_:
	// zero_grad's only where the step still passes set_to_none=False (the
	// default since PyTorch 2.0 sets them to None), which its name cannot
	// tell.
	kernelname.Fill: {
		"a fill: where it zeroes gradients (optimizer.zero_grad(set_to_none=False)), set_to_none=True drops them and the kernel with them; where it fills a tensor that is overwritten next (torch.zeros, fill_), torch.empty needs no kernel",
		"a fill: where the buffer is overwritten next, the fill is not needed; where it clears an accumulator, fold the clear into the kernel that writes it first"},
	kernelname.Optimizer: {
		"the optimizer updates the parameters in several small kernels per step: a fused optimizer (torch.optim.AdamW(..., fused=True)) does it in one, and a CUDA graph removes the launch gaps",
		"the optimizer updates the parameters in several small kernels per step: one fused kernel over all parameters does it in one launch, and a CUDA graph removes the launch gaps"},
	kernelname.Communication: {
		"fewer, larger messages (larger gradient buckets, DDP bucket_cap_mb) and overlap with the backward pass keep the links busy",
		"fewer, larger messages (NCCL calls grouped with ncclGroupStart/ncclGroupEnd, larger buffers) and overlap with compute keep the links busy"},
}

// familyShapeAdvice is shapeAdvice's text for the families whose launch
// shape no call of theirs changes, by what the caller can change instead.
// torchvision's NMS keeps the boxes in one block of 16 threads that walks
// the overlap mask in score order (fixtures/host18 det.default: 32
// launches of vision::gather_keep_from_mask, one block each, 44 % of the
// kernel time): a serial step whose time grows with the square of the
// boxes given, which batching the calls (batched_nms over the images)
// lengthens, not shortens.
var familyShapeAdvice = map[string]string{
	kernelname.FamVisionNMS: "torchvision's NMS (torchvision.ops.nms, batched_nms) keeps the boxes in a single block that walks their overlap mask in score order: no call widens that launch, and its time grows with the square of the boxes; give it fewer boxes (a higher score threshold, a smaller pre-NMS top-k per image), or suppress in parallel with fixed shapes (Fast NMS: the IoU matrix of each image's top-k boxes, a box dropped where a higher-scoring one of its class overlaps it), which also drops NMS's host read",
}

// shapeAdviceOther is shapeAdvice's text for a kind shapeAdvices lacks.
var shapeAdviceOther = struct{ torch, cuda string }{
	"%s chose this launch for the shapes it was given: give it more work per call (larger or batched tensors), or capture the sequence in a CUDA graph to remove launch gaps",
	"%s chose this launch for the shapes it was given: give it more work per call (larger or batched arrays), or capture the sequence in a CUDA graph to remove launch gaps",
}

// fusionAdvice is for the small kernels of a framework: one operation each,
// each reading and writing its tensors from memory.
func fusionAdvice(info kernelname.Info, torch bool) string {
	if !torch {
		return fmt.Sprintf("a %s %s kernel does one operation per launch on data too small to fill the GPU: fuse the chain of element-wise operations into one kernel, batch small arrays into one launch, or capture the sequence in a CUDA graph (cudaStreamBeginCapture ... cudaGraphLaunch)", info.Library, info.Kind)
	}
	if info.Library == kernelname.Triton {
		return "a Triton kernel generated by torch.compile: larger fusion groups (mode=\"max-autotune\") or batching the tensors gives it more work per launch"
	}
	return fmt.Sprintf("a %s %s kernel does one operation per launch on tensors too small to fill the GPU: fuse the chain of element-wise ops (torch.compile, or a fused module), batch small tensors, or capture the step in a CUDA graph", info.Library, info.Kind)
}

// pytorch reports a kernel of a capture that shows PyTorch
// (analysis.PyTorch): its advice is in PyTorch's terms, else in CUDA's, as
// AppPass.framework does for the application rules.
func pytorch(a *analysis.Kernel) bool { return analysis.PyTorch(a) }

// framework is torch on a capture that shows PyTorch, else cuda.
func framework(a *analysis.Kernel, torch, cuda string) string {
	if pytorch(a) {
		return torch
	}
	return cuda
}

// batched reports a GEMM launched over a batch of products (grid z > 1:
// cuBLAS's batched and strided-batched calls; a split-K kernel, which
// splits one product along z, says so in its name).
func batched(a *analysis.Kernel) bool {
	return a.Record.Grid.Known() && a.Record.Grid[2] > 1 && !strings.Contains(strings.ToLower(a.Record.Name), "splitk")
}

// hasTensorCores reports a GPU whose tensor cores take TF32, where
// tensor-cores-unused speaks.
func hasTensorCores(a *analysis.Kernel) bool { return tensorCores(a).Has("tf32") }
