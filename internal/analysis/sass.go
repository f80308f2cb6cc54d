package analysis

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan/internal/sass"
)

// sassProgram is a kernel's SASS from the source page, in address order,
// each instruction once, split (the kernel's sass.Program, shared: not to
// be written): what a backward walk over the registers needs.
type sassProgram struct {
	*sass.Program
	// predicates has the backward walks follow predicate operands as
	// they follow registers: a SEL or FSEL whose choice is a predicate
	// depends on the FSETP or ISETP that set it, and on that compare's
	// operands (a search's next index chosen by comparing a loaded
	// value: Chased).
	predicates bool
}

// judging gives a the lists of its source page until the returned func
// is called: a dozen readers (Indirect, Chased, GridInvariant,
// WarpExchanges ...) and some thirty rules read them, and each made its
// own before.
func judging(a *Kernel) (done func()) {
	a.SASS = sass.New(a.Record.Source)
	return func() { a.SASS = nil }
}

// SASSOf is the lists of a's source page: those Analyze holds while it
// judges a, made afresh outside it (where a is not being judged, or its
// Record is not the page they were made of). Callers must not write them.
func SASSOf(a *Kernel) *sass.Code {
	if a.SASS.Of(a.Record.Source) {
		return a.SASS
	}
	return sass.New(a.Record.Source)
}

// programOf is a's SASS program (SASSOf's). Callers must not write it.
func programOf(a *Kernel) *sassProgram {
	return &sassProgram{Program: SASSOf(a).Program()}
}

// SASSFields splits an instruction into its operation and operands, the
// predicate guard dropped (read here and by the rules).
func SASSFields(s string) (op string, args []string) { return sass.Fields(s) }

// registers lists the general registers an operand names, both halves of
// a 64-bit pair ([R4.64] is R4 and R5).
func registers(operand string) []int {
	return appendRegs(nil, operand, "R", 0)
}

// appendRegs appends to out, offset by base, the number of each register
// operand names as prefix and digits standing alone as a word (R4 in
// "[R4+0x10]", not in "UR4" or "R4a"), and the next one for a 64-bit pair
// (R4.64): what `\bR(\d+)\b(\.64)?` would match, scanned by hand because
// the walks over a kernel's SASS ask it of every operand they pass, and the
// regular expression was a tenth of analyze's CPU on a source page.
func appendRegs(out []int, operand, prefix string, base int) []int {
	for i := 0; i < len(operand); {
		j := strings.Index(operand[i:], prefix)
		if j < 0 {
			break
		}
		j += i
		k := j + len(prefix)
		d := k
		for d < len(operand) && operand[d] >= '0' && operand[d] <= '9' {
			d++
		}
		if d == k || j > 0 && wordByte(operand[j-1]) || d < len(operand) && wordByte(operand[d]) {
			i = j + 1
			continue
		}
		pair := strings.HasPrefix(operand[d:], ".64")
		if n, err := strconv.Atoi(operand[k:d]); err == nil {
			out = append(out, base+n)
			if pair {
				out = append(out, base+n+1)
			}
		}
		i = d
		if pair {
			i += len(".64")
		}
	}
	return out
}

// wordByte reports whether c is a word character as \b reads one.
func wordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

// isLoad reports whether an operation loads data from memory (global,
// local, shared or generic), not a constant.
func isLoad(op string) bool {
	return strings.HasPrefix(op, "LDG") || strings.HasPrefix(op, "LDS") || strings.HasPrefix(op, "LDL") ||
		strings.HasPrefix(op, "LD.") || op == "LD"
}

// isGlobalLoad reports whether an operation loads global memory: LDG,
// or a generic LD, which the compiler emits where it cannot tell the
// space and which reads global memory in the kernels profan sees.
func isGlobalLoad(op string) bool {
	return strings.HasPrefix(op, "LDG") || strings.HasPrefix(op, "LD.") || op == "LD"
}

// addressOperand is the memory operand of a load, store or atomic: the
// one in brackets.
func addressOperand(args []string) string {
	for _, a := range args {
		if i := strings.LastIndexByte(a, '['); i >= 0 {
			return a[i:]
		}
	}
	return ""
}

// indirect reports whether the address of the memory instruction at addr
// comes from data the kernel loaded (x[idx[i]]): a backward walk over the
// registers that compute it reaches a load. Thread and block indices,
// constants and parameters end the walk; so does a chain longer than the
// window, read as computed.
func (p *sassProgram) indirect(addr string) bool {
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	return p.loadFeeds(i, before(i))
}

// before is the indices of the 64 instructions before the i-th, latest
// first: how far back an address's registers are walked.
func before(i int) []int {
	const n = 64
	var order []int
	for j := i - 1; j >= 0 && j >= i-n; j-- {
		order = append(order, j)
	}
	return order
}

// loadFeeds walks the instructions at order (indices, latest first)
// backwards from the memory instruction at i, following the registers
// that compute its address: true when a load writes one of them.
func (p *sassProgram) loadFeeds(i int, order []int) bool {
	return p.feeds(i, order, func(op string, _ []string) bool { return isLoad(op) })
}

// feeds is loadFeeds for any instruction: true when an operation that
// is(op, operands) reports writes one of the address's registers.
func (p *sassProgram) feeds(i int, order []int, is func(op string, args []string) bool) bool {
	return p.feeder(i, order, is) >= 0
}

// feeder is feeds's instruction: the index of the first one, walking
// order, that is(op, operands) reports and writes one of the address's
// registers; -1 when none does.
func (p *sassProgram) feeder(i int, order []int, is func(op string, args []string) bool) int {
	_, args := p.Fields(i)
	want := map[int]bool{}
	for _, r := range registers(addressOperand(args)) {
		want[r] = true
	}
	wantP := map[string]bool{} // predicates, with p.predicates
	for _, j := range order {
		if len(want)+len(wantP) == 0 {
			return -1
		}
		op, as := p.Fields(j)
		if len(as) > 1 && as[0] == "PT" && (strings.HasPrefix(op, "ATOM") || strings.HasPrefix(op, "SHFL")) {
			as = as[1:] // ATOMG PT, R3, [...]: the register after the predicate
		}
		if len(as) == 0 || strings.Contains(as[0], "[") {
			continue // no register written (a store, a reduction)
		}
		hit := p.predicates && len(wantP) > 0 && p.predicateFeeds(as, wantP, want)
		dst := registers(as[0])
		if len(dst) == 0 && !hit {
			continue
		}
		switch {
		case len(dst) == 0:
		case strings.Contains(op, ".128"):
			// A vector load writes four registers (LDG.E.128 R16: R16 to
			// R19): Triton's gather loads a thread's indices four at a
			// time and addresses each gathered load from one of them
			// (fixtures/sol-check14's gather_rand: x[idx] from R17, R18,
			// R19 as well as R16).
			dst = append(dst, dst[0]+1, dst[0]+2, dst[0]+3)
		case strings.Contains(op, ".WIDE") || strings.Contains(op, ".64"):
			dst = append(dst, dst[0]+1)
		}
		for _, d := range dst {
			if want[d] {
				hit = true
				delete(want, d)
			}
		}
		if !hit {
			continue
		}
		if is(op, as) {
			return j
		}
		for k, a := range as[1:] {
			for _, r := range registers(a) {
				want[r] = true
			}
			// A predicate read (SEL R8, RZ, 0x1, !P0), not a carry
			// written beside the register (IADD3 R4, P0, ...).
			if pr := predicate(a); p.predicates && pr != "" && k > 0 {
				wantP[pr] = true
			}
		}
	}
	return -1
}

// predicateFeeds reports whether an instruction (its operands as) sets a
// predicate in wantP (FSETP.GE.AND P0, PT, R0, R3, PT: P0 and PT; IADD3
// R4, P0, ...: the carry P0), and then moves the predicates it sets from
// wantP to its operands: the registers into want, the predicates read
// into wantP.
func (p *sassProgram) predicateFeeds(as []string, wantP map[string]bool, want map[int]bool) bool {
	src := 1
	hit := false
	if pr := predicate(as[0]); pr != "" && wantP[pr] {
		hit = true
		delete(wantP, pr)
	}
	if len(as) > 1 && (predicate(as[1]) != "" || as[1] == "PT") {
		src = 2 // a second predicate written
		if pr := predicate(as[1]); wantP[pr] {
			hit = true
			delete(wantP, pr)
		}
	}
	if !hit {
		return false
	}
	for _, a := range as[src:] {
		for _, r := range registers(a) {
			want[r] = true
		}
		if pr := predicate(a); pr != "" {
			wantP[pr] = true
		}
	}
	return true
}

// predicate is the predicate register an operand names (P0 to P6, "!P0"
// read negated), "" for none or PT.
func predicate(operand string) string {
	s := strings.TrimPrefix(strings.TrimSpace(operand), "!")
	if len(s) == 2 && s[0] == 'P' && s[1] >= '0' && s[1] <= '6' {
		return s
	}
	return ""
}

// atomicTarget reports whether a global RED or ATOM instruction of the
// kernel addresses through the same base register as the instruction at
// addr: a load of the word an atomic then updates (a compare-and-swap
// loop's read), whose traffic is the atomic's.
func (p *sassProgram) atomicTarget(addr string) bool {
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	_, args := p.Fields(i)
	base := registers(addressOperand(args))
	if len(base) == 0 {
		return false
	}
	// The atomic must address the word the load read: after it, with
	// the base register unwritten from the load on (the load itself may
	// overwrite it: fixtures/sol-check2's casAdd loads its key through
	// R2, LDG.E.CONSTANT R2, [R2.64], and addresses the bin by R2 anew).
	for j := i + 1; j < len(p.Recs); j++ {
		op, as := p.Fields(j)
		if (strings.HasPrefix(op, "RED") || strings.HasPrefix(op, "ATOM")) && !strings.HasPrefix(op, "ATOMS") && !strings.HasPrefix(op, "REDUX") {
			if r := registers(addressOperand(as)); len(r) > 0 && r[0] == base[0] && !p.writesBetween(base[0], i, j) {
				return true
			}
		}
	}
	return false
}

// writesBetween reports whether an instruction from i up to j (not j)
// writes register r: its first operand (after an atomic's or a
// shuffle's predicate) a register, a pair's or a vector's included.
func (p *sassProgram) writesBetween(r, i, j int) bool {
	for k := i; k < j; k++ {
		op, as := p.Fields(k)
		if len(as) > 1 && as[0] == "PT" && (strings.HasPrefix(op, "ATOM") || strings.HasPrefix(op, "SHFL")) {
			as = as[1:]
		}
		if len(as) == 0 || strings.Contains(as[0], "[") {
			continue
		}
		dst := registers(as[0])
		if len(dst) == 0 {
			continue
		}
		n := 1
		switch {
		case strings.Contains(op, ".128"):
			n = 4
		case strings.Contains(op, ".WIDE") || strings.Contains(op, ".64"):
			n = 2
		}
		if r >= dst[0] && r < dst[0]+n || slices.Contains(dst, r) {
			return true
		}
	}
	return false
}

// atomicSlot reports whether the address of the memory instruction at
// addr comes from a global atomic's result (a slot claimed from a
// counter: y[atomicAdd(&n, 1)], the compiler's aggregation shuffling the
// warp's base from its leader).
func (p *sassProgram) atomicSlot(addr string) bool {
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	return p.feeds(i, before(i), func(op string, _ []string) bool {
		return strings.HasPrefix(op, "ATOMG") || op == "ATOM" || strings.HasPrefix(op, "ATOM.")
	})
}

var offsetRE = regexp.MustCompile(`\+(-?)0x([0-9a-fA-F]+)\]`)

// offset is a memory operand's immediate offset ([R2.64+0x8]: 8).
func offset(operand string) int64 {
	m := offsetRE.FindStringSubmatch(operand)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseInt(m[2], 16, 64)
	if err != nil {
		return 0
	}
	if m[1] == "-" {
		v = -v
	}
	return v
}

// step is the smallest distance between the immediate offsets of the
// loads an unrolled loop made of one source line through one base
// register (a thread's consecutive iterations): the access size when a
// thread walks consecutive elements, a row's length when it walks down a
// column; 0 when the line has one such load.
func (p *sassProgram) step(addr string) int64 {
	i, ok := p.At[addr]
	if !ok {
		return 0
	}
	op0, args := p.Fields(i)
	base := registers(addressOperand(args))
	if len(base) == 0 {
		return 0
	}
	var offs []int64
	for _, s := range p.Recs {
		if s.File != p.Recs[i].File || s.Line != p.Recs[i].Line {
			continue
		}
		op, as := SASSFields(s.SASS)
		if op != op0 {
			continue
		}
		a := addressOperand(as)
		if r := registers(a); len(r) == 0 || r[0] != base[0] {
			continue
		}
		offs = append(offs, offset(a))
	}
	var best int64
	for x := range offs {
		for y := range offs {
			d := offs[x] - offs[y]
			if d > 0 && (best == 0 || d < best) {
				best = d
			}
		}
	}
	return best
}

// Indirect reports whether the global access of a at the source page's
// address addr takes its address from a value the kernel loaded from
// memory (a gather or scatter through an index array); false without the
// source page.
func Indirect(a *Kernel, addr string) bool {
	if len(a.Record.Source) == 0 {
		return false
	}
	return programOf(a).indirect(addr)
}

// Indirects is Indirect for several addresses of one kernel, its SASS
// read once: those of addrs whose access takes its address from a value
// the kernel loaded. Empty without the source page.
func Indirects(a *Kernel, addrs []string) map[string]bool {
	out := map[string]bool{}
	if len(a.Record.Source) == 0 || len(addrs) == 0 {
		return out
	}
	p := programOf(a)
	for _, addr := range addrs {
		if p.indirect(addr) {
			out[addr] = true
		}
	}
	return out
}

// IndirectAccess reports whether a's memory instruction in takes its
// address from memory: marked so where its sectors were above their ideal
// (in.Indirect), or so in the SASS (Indirect) whatever its sectors.
func IndirectAccess(a *Kernel, in *Instruction) bool {
	return in.Indirect || Indirect(a, in.Address)
}

// BitReversed reports whether the address of a's memory instruction at
// the source page's address addr is computed through a bit reversal (a
// BREV on the registers that compute it, __brev: y[i] = x[rev(i)], an
// FFT's reordering): a permutation of the thread's index, not data the
// kernel loaded. False without the source page.
func BitReversed(a *Kernel, addr string) bool {
	if len(a.Record.Source) == 0 {
		return false
	}
	p := programOf(a)
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	return p.feeds(i, before(i), func(op string, _ []string) bool { return op == "BREV" || strings.HasPrefix(op, "BREV.") })
}

// mathCall matches a call of a CUDA math-library function on a source
// line (sin, sinf, std::cos, pow, ...).
var mathCall = regexp.MustCompile(`\b(?:sin|cos|tan|sincos|sinpi|cospi|sincospi|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|exp|exp2|exp10|expm1|log|log2|log10|log1p|pow|erf|erfc|erfinv|erfcinv|lgamma|tgamma|j0|j1|jn|y0|y1|yn|cbrt|rcbrt|hypot|rhypot|fmod|remainder|remquo)f?\s*\(`)

// LibraryTable reports whether a's global load at the source page's
// address addr reads a table of the CUDA math library: its address is a
// module symbol's (a walk over the registers that compute it reaches an
// LDC from constant bank 4, where the loader puts the addresses of
// __device__ variables) and its source line calls a math function, which
// inlines the table read (double sin's and cos's coefficients,
// __cudart_sin_cos_coeffs, LDG.E.128.CONSTANT indexed by the quadrant's
// parity: fixtures/sol-check15's haversine<double>). The kernel's source
// neither names nor places that table. False without the source page.
func LibraryTable(a *Kernel, addr string) bool {
	if len(a.Record.Source) == 0 {
		return false
	}
	p := programOf(a)
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	in := p.Recs[i]
	called := false
	for _, s := range a.Record.Source {
		if s.Address == "" && s.Line == in.Line && s.File == in.File && mathCall.MatchString(s.Source) {
			called = true
			break
		}
	}
	return called && p.feeds(i, before(i), func(op string, args []string) bool {
		return strings.HasPrefix(op, "LDC") && len(args) > 1 && strings.HasPrefix(args[1], "c[0x4]")
	})
}

// MemAddress is a memory instruction's base register and immediate
// offset ([R2.64+-0x1]: R2, −1); ok is false where its SASS names no
// register address.
func MemAddress(sass string) (base int, off int64, ok bool) {
	_, args := SASSFields(sass)
	a := addressOperand(args)
	r := registers(a)
	if len(r) == 0 {
		return 0, 0, false
	}
	return r[0], offset(a), true
}
