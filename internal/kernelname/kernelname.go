// Package kernelname reads kernel names: it recognises the kernels of
// libraries (cuBLAS, cuBLASLt, cuDNN, CUTLASS, PyTorch ATen, Triton, NCCL,
// FlashAttention, CUB) by the names their builds give them, says what kind of
// work they do (GEMM, convolution, element-wise, reduction, normalization,
// fill, optimizer step, communication), whether a GEMM or convolution runs
// on the FP32 FFMA (SIMT) pipe rather than on tensor cores, and shortens
// C++ names for display (at::reduce_kernel<sum_functor, …>).
//
// A library kernel's caller controls its data types, math mode, shapes,
// batching and fusion, never its source or launch configuration: the rules
// use Info to give advice the caller can act on.
package kernelname

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Library is the library a kernel belongs to.
type Library int

// Libraries recognised by name. User is a kernel of the application itself.
const (
	User Library = iota
	CUBLAS
	CUBLASLt
	CUDNN
	CUTLASS
	ATen
	Triton
	NCCL
	FlashAttention
	CUB
	FlashInfer
)

var libNames = [...]string{"", "cuBLAS", "cuBLASLt", "cuDNN", "CUTLASS", "PyTorch ATen", "Triton", "NCCL", "FlashAttention", "CUB", "FlashInfer"}

func (l Library) String() string {
	if int(l) < len(libNames) {
		return libNames[l]
	}
	return "?"
}

// Kind is the work a library kernel does.
type Kind int

// Kinds of kernel work.
const (
	Other Kind = iota
	GEMM
	Convolution
	Elementwise
	Reduction
	Normalization
	Fill
	Optimizer
	Communication
	Copy
	Attention
)

var kindNames = [...]string{"", "GEMM", "convolution", "element-wise", "reduction", "normalization", "fill",
	"optimizer", "communication", "copy", "attention"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Info is what a kernel's name tells.
type Info struct {
	Library Library
	Kind    Kind
	// FP32SIMT reports a GEMM or convolution that multiplies FP32 on the
	// FFMA pipe (cuBLAS xmma "ffma", CUTLASS "simt", legacy "sgemm"), not
	// on tensor cores.
	FP32SIMT bool
	// Family is the row of the family table that named the kernel ("" when
	// none did), Category what its time is spent on.
	Family   string
	Category Category
	// Display is the name shortened for people: no return type or
	// parameter list, template arguments reduced to the functors that tell
	// kernels apart.
	Display string
}

// IsLibrary reports whether the kernel belongs to a library, so that its
// caller cannot edit its source or launch configuration.
func (i Info) IsLibrary() bool { return i.Library != User }

var (
	reCublasPrefix = regexp.MustCompile(`^(sm\d+_xmma_gemm|sm\d+_gemm|xmma_gemm|(ampere|volta|turing|maxwell|kepler|pascal|hopper|ada|sm\d+)_[a-z0-9]*gemm|(s|d|c|z|h)gemm_(large|\d+x\d+))`)
	reGemv         = regexp.MustCompile(`^(void )?(gemv2[nt]_kernel|gemvnsp_kernel|gemmk1_kernel|gemmsn_[a-z]+_kernel)|internal::gemvx::`)
	reTensorCore   = regexp.MustCompile(`tensorop|s1688|s16816|h1688|h884|s884|i8816|hmma|imma|tf32|bf16|f16|fp16|e4m3|e5m2|wmma|_tensor\d|tensor16x`)
	reConvName     = regexp.MustCompile(`fprop|dgrad|wgrad|conv|winograd|implicit_gemm|scudnn|_nchw|_nhwc`)
)

// maxRead bounds the part of a name Classify and Display read: the
// longest real kernel name of the corpus is 3.5 kB, what tells a library,
// a kind or a family comes first, and the family table's patterns cost a
// few µs per byte, which a hostile megabyte-long name would make seconds.
const maxRead = 8 << 10

// Head returns name cut to the 8 kB that tell what a kernel is, at a UTF-8
// boundary: what reads a name with patterns reads its Head, whose cost is
// bounded.
func Head(name string) string {
	if len(name) <= maxRead {
		return name
	}
	i := maxRead
	for i > 0 && !utf8.RuneStart(name[i]) {
		i--
	}
	return name[:i]
}

// Classify reads a kernel's name (demangled when the export demangled it);
// a name past 8 kB is read from its first 8 kB.
func Classify(name string) Info {
	name = Head(name)
	info := Info{Display: Display(name)}
	n := reAnon.ReplaceAllString(strings.TrimSpace(name), "")
	lower := strings.ToLower(n)
	base := lower
	if i := strings.IndexByte(base, '('); i > 0 {
		base = base[:i]
	}
	switch {
	case strings.Contains(lower, "nccl"):
		info.Library, info.Kind = NCCL, Communication
	case strings.HasPrefix(lower, "triton_") || strings.Contains(lower, " triton_"):
		info.Library = Triton
		switch {
		case strings.HasPrefix(lower, "triton_poi"):
			info.Kind = Elementwise
		case strings.HasPrefix(lower, "triton_red"), strings.HasPrefix(lower, "triton_per"):
			info.Kind = Reduction
		case strings.HasPrefix(lower, "triton_tem") && (strings.Contains(lower, "mm") || strings.Contains(lower, "gemm")):
			info.Kind = GEMM
		}
	case strings.Contains(lower, "flash_fwd") || strings.Contains(lower, "flash_bwd") || strings.Contains(lower, "fmha") ||
		strings.Contains(lower, "flash::"):
		info.Library, info.Kind = FlashAttention, Attention
	case strings.Contains(lower, "cudnn") || strings.Contains(lower, "implicit_convolve") || strings.Contains(base, "fprop") ||
		strings.Contains(base, "dgrad") || strings.Contains(base, "wgrad"):
		info.Library = CUDNN
		switch {
		case strings.Contains(lower, "bn_fw") || strings.Contains(lower, "bn_bw") || strings.Contains(lower, "batch_norm") ||
			strings.Contains(lower, "batchnorm"):
			info.Kind = Normalization
		case strings.Contains(lower, "nchwtonhwc") || strings.Contains(lower, "nhwctonchw"):
			info.Kind = Copy
		case reConvName.MatchString(lower) || strings.Contains(lower, "gemm"):
			info.Kind = Convolution
		}
	case strings.Contains(lower, "cublaslt"):
		info.Library = CUBLASLt
		info.Kind = GEMM
	case strings.Contains(lower, "cublas") || strings.HasPrefix(lower, "nvjet_") || reCublasPrefix.MatchString(lower) || reGemv.MatchString(base) ||
		strings.Contains(lower, "splitkreduce"):
		info.Library, info.Kind = CUBLAS, GEMM
	case strings.Contains(lower, "cutlass"):
		info.Library = CUTLASS
		switch {
		case reConvName.MatchString(lower):
			info.Kind = Convolution
		case strings.Contains(lower, "gemm"):
			info.Kind = GEMM
		}
	case strings.HasPrefix(base, "void at::") || strings.HasPrefix(base, "at::") || strings.Contains(base, " at::") ||
		strings.HasPrefix(base, "void at_cuda_detail::") || strings.Contains(lower, "at::native::") ||
		strings.HasPrefix(base, "void c10::") || strings.Contains(base, "elementwise_kernel") ||
		strings.Contains(base, "softmax_warp_") || strings.HasPrefix(base, "void cunn_") || strings.HasPrefix(base, "cunn_"):
		info.Library, info.Kind = ATen, atenKind(lower, base)
	case strings.Contains(lower, "cub::"):
		info.Library = CUB
		if strings.Contains(lower, "reduce") {
			info.Kind = Reduction
		}
	}
	if info.Kind == GEMM || info.Kind == Convolution {
		info.FP32SIMT = fp32SIMT(lower, info)
	}
	applyFamily(&info, lower)
	return info
}

// atenKind reads the work of a PyTorch ATen kernel from its name.
func atenKind(lower, base string) Kind {
	switch {
	case strings.Contains(lower, "multi_tensor_apply") || strings.Contains(lower, "fused_adam") ||
		strings.Contains(lower, "fusedadam") || strings.Contains(lower, "fused_sgd"):
		return Optimizer
	case strings.Contains(lower, "fillfunctor") || strings.Contains(base, "fill_kernel") || strings.Contains(lower, "zero_kernel"):
		return Fill
	case strings.Contains(lower, "layer_norm") || strings.Contains(lower, "batch_norm") || strings.Contains(lower, "group_norm") ||
		strings.Contains(lower, "gammabetabackward") || strings.Contains(lower, "softmax") || strings.Contains(lower, "rms_norm") ||
		strings.Contains(lower, "batchnorm"):
		return Normalization
	case strings.Contains(lower, "catarray") || strings.Contains(lower, "copy_kernel") || strings.Contains(lower, "copy<"):
		return Copy
	case strings.Contains(base, "reduce_kernel") || strings.Contains(base, "cub::device") || strings.Contains(base, "radixsort") ||
		strings.Contains(base, "scan") || strings.Contains(base, "topk"):
		return Reduction
	case strings.Contains(base, "elementwise_kernel"):
		return Elementwise
	}
	return Other
}

// fp32SIMT reports an FP32 GEMM or convolution that runs on the FFMA pipe.
func fp32SIMT(lower string, info Info) bool {
	if reTensorCore.MatchString(lower) {
		return false
	}
	switch {
	case strings.Contains(lower, "ffma"), strings.Contains(lower, "simt_sgemm"), strings.Contains(lower, "_simt_s"),
		strings.Contains(lower, "implicit_convolve_sgemm"), strings.Contains(lower, "scudnn"):
		return true
	case strings.Contains(lower, "f32f32_f32f32_f32"):
		return true
	case reCublasPrefix.MatchString(lower) && strings.Contains(lower, "sgemm"):
		return true
	case info.Library == CUDNN && info.Kind == Convolution && strings.Contains(lower, "<float, float"):
		// cuDNN's FP32 Winograd and direct engines run on FFMA.
		return true
	}
	return false
}
