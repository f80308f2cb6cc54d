package kernelname

import (
	"iter"
	"regexp"
	"strings"
)

// maxDisplay is the longest display name display returns, in bytes.
const maxDisplay = 120

var (
	reAnon       = regexp.MustCompile(`\(anonymous namespace\)::|<unnamed>::|` + "`anonymous namespace'::")
	reCast       = regexp.MustCompile(`\((int|bool|unsigned int|unsigned long|long|char|unsigned char|short)\)`)
	reIdent      = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	reXmmaNoise  = regexp.MustCompile(`^(execute|kernel|aligna\d+|alignc\d+|align\d+|5x|)$`)
	reGenericArg = regexp.MustCompile(`^T\d+$`)
)

// noise are identifiers that never tell two kernels apart: types, wrappers,
// iterator plumbing and lambda syntax.
var noise = map[string]bool{
	"float": true, "double": true, "int": true, "long": true, "unsigned": true, "char": true, "bool": true,
	"short": true, "const": true, "void": true, "half": true, "Half": true, "BFloat16": true, "__nv_bfloat16": true,
	"__half": true, "bfloat16_t": true, "half_t": true, "signed": true, "true": true, "false": true, "size_t": true,
	"int64_t": true, "int32_t": true, "uint32_t": true, "uint64_t": true, "Float8_e4m3fn": true,
	"operator": true, "lambda": true, "instance": true, "type": true, "enable_if": true,
	"BinaryFunctor": true, "AUnaryFunctor": true, "BUnaryFunctor": true, "gpu_kernel_impl": true,
	"gpu_kernel_impl_nocast": true, "func_wrapper_t": true, "ReduceOp": true, "TensorListMetadata": true,
	"TensorListScalarListMetadata": true, "OpaqueType": true, "array": true, "Array": true,
	"TensorIteratorBase": true, "TensorIterator": true, "TensorBase": true, "Tensor": true, "Scalar": true,
	"OffsetCalculator": true, "TrivialOffsetCalculator": true, "LoadWithoutCast": true, "StoreWithoutCast": true,
	"LoadWithCast": true, "StoreWithCast": true, "GeluType": true, "ArrayRef": true, "TensorInfo": true,
	"IntDivider": true, "GenericPackedTensorAccessor": true, "DefaultPtrTraits": true, "Params": true,
	"Policy900": true, "Policy800": true, "Policy700": true, "NullType": true, "Flash_kernel_traits": true,
	"Flash_fwd_kernel_traits": true, "PhiloxCudaState": true, "OpType": true,
}

// display shortens a C++ kernel name for people: the return type and the
// parameter list go, namespaces that say nothing (native, detail, anonymous)
// go, and the template arguments are reduced to the functors and lambdas'
// enclosing functions that tell instantiations apart
// ("at::vectorized_elementwise_kernel<FillFunctor, …>"); when none does,
// "<…>" stands for them. Plain C names are kept; generated library names
// (cuBLAS xmma) lose their alignment and launch suffixes.
func display(name string) string {
	s := strings.Join(strings.Fields(Head(name)), " ")
	s = reAnon.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "operator ()", "operator()")
	s = reCast.ReplaceAllString(s, "")
	// Drop the trailing parameter list: the last top-level (...) that ends
	// the name.
	if strings.HasSuffix(s, ")") {
		if open := matchingOpen(s, len(s)-1); open > 0 {
			s = strings.TrimSpace(s[:open])
		}
	}
	// The return type ends at the last top-level space.
	if i := lastTopLevel(s, ' '); i >= 0 {
		s = s[i+1:]
	}
	lt := firstTopLevel(s, '<')
	if lt < 0 {
		if !strings.ContainsAny(s, ":<>(") && (strings.Contains(s, "xmma") || strings.Contains(s, "__5x")) {
			var keep []string
			for _, t := range strings.Split(s, "_") {
				if !reXmmaNoise.MatchString(t) {
					keep = append(keep, t)
				}
			}
			s = strings.Join(keep, "_")
		}
		return clip(shortNamespace(s))
	}
	base := shortNamespace(s[:lt])
	end := matchingClose(s, lt)
	if end < 0 {
		return clip(base + "<…>")
	}
	// Short plain arguments (numbers, types) are kept whole: they are what
	// tells strideCopy<1> from strideCopy<32>.
	if inner := strings.TrimSpace(s[lt+1 : end]); len(inner) <= 32 && !strings.ContainsAny(inner, "<>()[]{}:") {
		return clip(base + "<" + inner + ">")
	}
	args := splitTopLevel(s[lt+1:end], ',')
	var hints []string
	seen := map[string]bool{}
	dropped := false
	for _, a := range args {
		h := hint(a)
		if h == "" || seen[h] {
			dropped = true
			continue
		}
		if len(hints) == 2 {
			dropped = true
			continue
		}
		seen[h] = true
		hints = append(hints, h)
	}
	switch {
	case len(hints) == 0:
		return clip(base + "<…>")
	case dropped:
		return clip(base + "<" + strings.Join(hints, ", ") + ", …>")
	}
	return clip(base + "<" + strings.Join(hints, ", ") + ">")
}

// hint is the identifier that tells one template argument from another:
// the first name that is not a type, a wrapper or a namespace.
func hint(arg string) string {
	for _, loc := range reIdent.FindAllStringIndex(arg, -1) {
		id := arg[loc[0]:loc[1]]
		if noise[id] || reGenericArg.MatchString(id) {
			continue
		}
		if strings.HasPrefix(arg[loc[1]:], "::") {
			continue // a namespace or class qualifier
		}
		return id
	}
	return ""
}

// shortNamespace keeps the first namespace and the name:
// at::native::reduce_kernel becomes at::reduce_kernel.
func shortNamespace(s string) string {
	parts := strings.Split(s, "::")
	var keep []string
	for _, p := range parts {
		switch p {
		case "native", "detail", "internal", "at_cuda_detail", "cuda", "":
			continue
		}
		keep = append(keep, p)
	}
	if len(keep) > 2 {
		keep = []string{keep[0], keep[len(keep)-1]}
	}
	if len(keep) == 0 {
		return s
	}
	return strings.Join(keep, "::")
}

func clip(s string) string {
	if len(s) <= maxDisplay {
		return s
	}
	cut := maxDisplay - len("…")
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// depth-aware scanning over <>, (), [] and {}.

func opens(c byte) bool  { return c == '<' || c == '(' || c == '[' || c == '{' }
func closes(c byte) bool { return c == '>' || c == ')' || c == ']' || c == '}' }

// depthAfter is the bracket depth after byte c at depth d; a closing
// bracket with none open leaves it at 0.
func depthAfter(d int, c byte) int {
	switch {
	case opens(c):
		return d + 1
	case closes(c) && d > 0:
		return d - 1
	}
	return d
}

// topLevel yields the indexes of c in s outside any bracket (an opening
// bracket c counts at the depth before it).
func topLevel(s string, c byte) iter.Seq[int] {
	return func(yield func(int) bool) {
		d := 0
		for i := 0; i < len(s); i++ {
			if s[i] == c && d == 0 && !yield(i) {
				return
			}
			d = depthAfter(d, s[i])
		}
	}
}

func lastTopLevel(s string, c byte) int {
	last := -1
	for i := range topLevel(s, c) {
		last = i
	}
	return last
}

func firstTopLevel(s string, c byte) int {
	for i := range topLevel(s, c) {
		return i
	}
	return -1
}

// matchingClose returns the index of the bracket closing the one at i.
func matchingClose(s string, i int) int { return matchingBracket(s, i, 1, opens, closes) }

// matchingOpen returns the index of the bracket opening the one at i.
func matchingOpen(s string, i int) int { return matchingBracket(s, i, -1, closes, opens) }

// matchingBracket walks s from the bracket at i by step until the depth
// it counts (up at an inward bracket, down at an outward one) is back to
// zero; -1 when s ends first.
func matchingBracket(s string, i, step int, inward, outward func(byte) bool) int {
	d := 0
	for j := i; j >= 0 && j < len(s); j += step {
		switch {
		case inward(s[j]):
			d++
		case outward(s[j]):
			d--
			if d == 0 {
				return j
			}
		}
	}
	return -1
}

func splitTopLevel(s string, sep byte) []string {
	var out []string
	start := 0
	for i := range topLevel(s, sep) {
		out = append(out, strings.TrimSpace(s[start:i]))
		start = i + 1
	}
	return append(out, strings.TrimSpace(s[start:]))
}
