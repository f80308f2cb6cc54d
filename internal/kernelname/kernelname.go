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
	TorchVision
)

var libNames = [...]string{"", "cuBLAS", "cuBLASLt", "cuDNN", "CUTLASS", "PyTorch ATen", "Triton", "NCCL", "FlashAttention", "CUB", "FlashInfer", "torchvision"}

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

// maxRead bounds the part of a name Classify and display read: the
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
	info := Info{Display: display(name)}
	n := reAnon.ReplaceAllString(strings.TrimSpace(name), "")
	lower := strings.ToLower(n)
	base := lower
	if i := strings.IndexByte(base, '('); i > 0 {
		base = base[:i]
	}
	if r := libraryOf(lower, base); r != nil {
		info.Library, info.Kind = r.lib, r.kind
		if r.kindOf != nil {
			info.Kind = r.kindOf(lower, base)
		}
	}
	if info.Kind == GEMM || info.Kind == Convolution {
		info.FP32SIMT = fp32SIMT(lower, info)
	}
	applyFamily(&info, lower)
	return info
}

// namePattern matches a kernel name, lowercased (lower) and cut before
// its parameter list (base), when lower starts with one of prefix or
// contains one of in, base contains one of inBase, or re matches lower or
// reBase base. Plain substrings where they do: a scan for a substring
// costs far less than a regular expression's match.
type namePattern struct {
	prefix, in, inBase []string
	re, reBase         *regexp.Regexp
}

func (p namePattern) matches(lower, base string) bool {
	return hasAnyPrefix(lower, p.prefix) || containsAny(lower, p.in) || containsAny(base, p.inBase) ||
		p.re != nil && p.re.MatchString(lower) || p.reBase != nil && p.reBase.MatchString(base)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// libraryRule names the library of the kernels whose name matches, and
// their kind: kind, or what kindOf reads from the name when set.
type libraryRule struct {
	lib Library
	namePattern
	kind   Kind
	kindOf func(lower, base string) Kind
}

// libraryRules is the table of libraries by name, first match wins
// (cuBLASLt before cuBLAS, whose name is part of its own). The family
// table refines what these read; a name it does not know keeps them.
var libraryRules = []libraryRule{
	{lib: NCCL, namePattern: namePattern{in: []string{"nccl"}}, kind: Communication},
	{lib: Triton, namePattern: namePattern{prefix: []string{"triton_"}, in: []string{" triton_"}}, kindOf: tritonKind},
	{lib: FlashAttention, namePattern: namePattern{in: []string{"flash_fwd", "flash_bwd", "fmha", "flash::"}}, kind: Attention},
	{lib: CUDNN, namePattern: namePattern{in: []string{"cudnn", "implicit_convolve"}, inBase: []string{"fprop", "dgrad", "wgrad"}}, kindOf: cudnnKind},
	{lib: CUBLASLt, namePattern: namePattern{in: []string{"cublaslt"}}, kind: GEMM},
	{lib: CUBLAS, namePattern: namePattern{prefix: []string{"nvjet_"}, in: []string{"cublas", "splitkreduce"}, re: reCublasPrefix, reBase: reGemv}, kind: GEMM},
	{lib: CUTLASS, namePattern: namePattern{in: []string{"cutlass"}}, kindOf: cutlassKind},
	// PyTorch's namespaces (at::, at_cuda_detail::, c10::, the legacy
	// THCUNN cunn_ kernels) and its kernel templates.
	{lib: ATen, namePattern: namePattern{
		prefix: []string{"void at::", "at::", "void at_cuda_detail::", "void c10::", "void cunn_", "cunn_"},
		in:     []string{"at::native::"},
		inBase: []string{" at::", "elementwise_kernel", "softmax_warp_"}}, kindOf: atenKind},
	{lib: CUB, namePattern: namePattern{in: []string{"cub::"}}, kindOf: cubKind},
	// torchvision's operators (nms, roi_align, deform_conv2d), in the
	// vision::ops namespace.
	{lib: TorchVision, namePattern: namePattern{prefix: []string{"vision::"}, in: []string{" vision::"}}, kind: Other},
}

// libraryOf returns the first rule of libraryRules the name matches, nil
// for a kernel of the application itself.
func libraryOf(lower, base string) *libraryRule {
	for i := range libraryRules {
		if libraryRules[i].matches(lower, base) {
			return &libraryRules[i]
		}
	}
	return nil
}

// tritonKind reads a torch.compile kernel's work from the prefix Inductor
// gives it: pointwise, reduction, persistent reduction, template (a GEMM
// when the template is a matrix multiply).
func tritonKind(lower, _ string) Kind {
	switch {
	case strings.HasPrefix(lower, "triton_poi"):
		return Elementwise
	case strings.HasPrefix(lower, "triton_red"), strings.HasPrefix(lower, "triton_per"):
		return Reduction
	case strings.HasPrefix(lower, "triton_tem") && (strings.Contains(lower, "mm") || strings.Contains(lower, "gemm")):
		return GEMM
	}
	return Other
}

// cudnnKind reads the work of a cuDNN kernel from its name.
func cudnnKind(lower, _ string) Kind {
	switch {
	case containsAny(lower, []string{"bn_fw", "bn_bw", "batch_norm", "batchnorm"}):
		return Normalization
	case containsAny(lower, []string{"nchwtonhwc", "nhwctonchw"}):
		return Copy
	case reConvName.MatchString(lower) || strings.Contains(lower, "gemm"):
		return Convolution
	}
	return Other
}

// cutlassKind reads the work of a CUTLASS kernel from its name.
func cutlassKind(lower, _ string) Kind {
	switch {
	case reConvName.MatchString(lower):
		return Convolution
	case strings.Contains(lower, "gemm"):
		return GEMM
	}
	return Other
}

// cubKind reads the work of a CUB kernel from its name.
func cubKind(lower, _ string) Kind {
	if strings.Contains(lower, "reduce") {
		return Reduction
	}
	return Other
}

// atenKinds reads the work of a PyTorch ATen kernel from its name, first
// match wins.
var atenKinds = []struct {
	namePattern
	kind Kind
}{
	{namePattern{in: []string{"multi_tensor_apply", "fused_adam", "fusedadam", "fused_sgd"}}, Optimizer},
	{namePattern{in: []string{"fillfunctor", "zero_kernel"}, inBase: []string{"fill_kernel"}}, Fill},
	{namePattern{in: []string{"layer_norm", "batch_norm", "group_norm", "gammabetabackward", "softmax", "rms_norm", "batchnorm"}}, Normalization},
	{namePattern{in: []string{"catarray", "copy_kernel", "copy<"}}, Copy},
	{namePattern{inBase: []string{"reduce_kernel", "cub::device", "radixsort", "scan", "topk"}}, Reduction},
	{namePattern{inBase: []string{"elementwise_kernel"}}, Elementwise},
}

// atenKind reads the work of a PyTorch ATen kernel from its name.
func atenKind(lower, base string) Kind {
	for _, k := range atenKinds {
		if k.matches(lower, base) {
			return k.kind
		}
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
