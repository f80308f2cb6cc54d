package analysis

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// InvariantWork is the work every thread of a grid does alike: integer,
// floating-point, conversion, compare and branch instructions whose
// operands are only constants, immediates and the kernel's arguments (and
// what is computed from them alone, a loop's counter among them, and
// the words loaded from addresses of those alone), never a thread's or a
// block's index and never data loaded at an address of one. A rolled loop of
// a constant trip count is its counter, compare and branch and the
// conversions of the counter to float (fixtures/sol-check17's
// loopOvh<0>: seven of the eight instructions of its inner loop's body);
// coefficients every thread derives from the arguments are their
// recurrence (coefSetup<0>: sixteen rsqrtf and __expf a thread); a ring
// indexed by a loop's counter is a compare a slot (sol-check18's
// movMax<0>). Unrolling, hoisting to the host (or __constant__) and
// constant indices remove it: the compiler folds what it can see.
type InvariantWork struct {
	// Inst is the warp-level instructions executed that compute values
	// the same in every thread of the grid, All the kernel's.
	Inst, All float64
	// Control is the counters, compares and branches among them, Conv
	// the integer/float conversions, Math the floating-point arithmetic
	// (MUFU included), by warp-level instructions executed.
	Control, Conv, Math float64
	// Flops is the FP32 operations among them (an FFMA two, per thread
	// executed with its predicate on), MUFU the transcendentals: work
	// that is not necessary.
	Flops, MUFU float64
	// Entries is the kernel's warps launched (its first instruction's
	// executions).
	Entries float64
	// Addrs are the instructions counted (by address), Values those of
	// them that compute values (conversions and floating-point math), not
	// control. Loads are the kernel's global loads of one address in
	// every thread, where the values read a word of one of them (a
	// struct of parameters through a pointer: fixtures/sol-check22's
	// paramScale<0>); nil where none does.
	Addrs, Values, Loads map[string]bool
	// Held is the share of the warps' stall samples (every reason) at
	// the counted instructions, HeldValues at those of Values: the share
	// of the warps' time spent on them. NaN where the page samples no
	// stalls.
	Held, HeldValues float64
}

// Worth reports invariant work a finding is about, and the headroom
// leaves out: conversions and floating-point math a quarter of the
// executed instructions or more (fixtures/sol-check17's loopOvh<0> 42 %,
// coefSetup<0> 76 %; a rolled loop's counter and branch alone, or a
// run-time divisor's reciprocal, are 14 % or less in every set), or a
// fifth where the warps spend a tenth of their sampled time or more on
// them (IssueHeld says which), four or more a warp.
// fixtures/sol-check21's gaussRow<0>, whose threads each compute the 17
// Gaussian weights of its taps from σ (9 __expf after nvcc folds the
// symmetric taps), 24 % of its instructions and 12 % of its samples;
// in __constant__ they ran 0.16 faster. The no-rule pairs' kernels with
// samples on such values (sol-check19's keplerE<0>, 8 % of its
// instructions; sol-check21's diskCount<0>, 0.5 %) stay under a fifth.
func (w InvariantWork) Worth() bool {
	if !(w.All > 0) || w.Inst < 4*w.Entries {
		return false
	}
	return w.IssueHeld() || w.Conv+w.Math >= 0.2*w.All && w.HeldValues >= 0.1
}

// IssueHeld reports invariant values a quarter of the executed
// instructions or more: work the kernel's issue slots carry, its time
// falling with its instructions (Share). Below that, where Worth holds,
// the warps' time at them (Held) is their price: a kernel its loads'
// latency holds, not its issue, spends less of its time on them than
// their share of the instructions (gaussRow<0>: 28 % of the
// instructions, 16 % of the samples, 0.16 measured).
func (w InvariantWork) IssueHeld() bool {
	return w.All > 0 && w.Conv+w.Math >= 0.25*w.All
}

// Share is the invariant instructions' share of those executed.
func (w InvariantWork) Share() float64 {
	if !(w.All > 0) {
		return 0
	}
	return w.Inst / w.All
}

// uniformRE names a uniform register (UR4) or uniform predicate (UP0).
var uniformRE = regexp.MustCompile(`\bU(R|P)(\d+)\b`)

// uniformBase and uniformPredBase number the uniform registers and
// predicates apart from the general ones and their predicates.
const (
	uniformBase     = 1 << 21
	uniformPredBase = 1 << 22
)

// uniformOperands are the uniform registers and predicates an operand
// names, numbered from uniformBase and uniformPredBase (URZ and UPT are
// constants, not registers).
func uniformOperands(x string) []int {
	var out []int
	for _, m := range uniformRE.FindAllStringSubmatch(x, -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			continue
		}
		if m[1] == "P" {
			out = append(out, uniformPredBase+n)
		} else {
			out = append(out, uniformBase+n)
		}
	}
	return out
}

// GridInvariant reads the source page for work every thread of the grid
// does alike (InvariantWork); false without the source page or such
// work. A kernel whose conversions and floating-point math, whatever
// their operands, are under a quarter of its instructions cannot be
// worth a finding and is not walked.
func GridInvariant(a *Kernel) (w InvariantWork, ok bool) {
	if len(a.Record.Source) == 0 || !invariantCandidate(a.Record) {
		return w, false
	}
	p := programOf(a)
	ins, varying, _ := gridVarying(p, manyWarps(a.Record))
	w.Addrs, w.Values = map[string]bool{}, map[string]bool{}
	// Whether an invariant value reads a uniform load's word: the last
	// writer of a register a counted value reads, in program order.
	writer := map[int]int{}
	feeds := false
	var samples, held, heldValues float64
	sampled := false
	for i, s := range p.Recs {
		n := sourceInst(s)
		w.All += n
		c, ok := sourceSamples(s)
		if ok {
			sampled = true
			samples += c
		}
		if i == 0 {
			w.Entries = n
		}
		if !varying[i] && n > 0 && (ins[i].kind == "conv" || ins[i].kind == "math") {
			for _, r := range ins[i].srcs {
				j, ok := writer[r]
				feeds = feeds || ok && ins[j].load
			}
		}
		for _, d := range ins[i].dsts {
			writer[d] = i
		}
		if varying[i] || !(n > 0) || ins[i].kind == "" {
			continue
		}
		w.Inst += n
		w.Addrs[s.Address] = true
		held += c
		if k := ins[i].kind; k == "conv" || k == "math" {
			heldValues += c
		}
		op := ins[i].op
		base, _, _ := strings.Cut(op, ".")
		switch ins[i].kind {
		case "control":
			w.Control += n
		case "conv":
			w.Conv += n
			w.Values[s.Address] = true
		case "math":
			w.Math += n
			w.Values[s.Address] = true
			switch base {
			case "FFMA":
				w.Flops += 2 * threadPredOn(s)
			case "FADD", "FMUL":
				w.Flops += threadPredOn(s)
			case "MUFU":
				if !strings.HasSuffix(op, "64H") {
					w.MUFU += threadPredOn(s)
				}
			}
		}
	}
	if feeds {
		w.Loads = uniformAddrs(p, ins, varying)
	}
	w.Held, w.HeldValues = math.NaN(), math.NaN()
	if sampled && samples > 0 {
		w.Held, w.HeldValues = held/samples, heldValues/samples
	}
	return w, w.Inst > 0
}

// gridVarying walks a kernel's program (three passes: a loop's carried
// registers reach its head from the pass before) for the instructions
// whose values differ between the threads of the grid: those that read a
// thread's or a block's index, memory that differs between threads, a
// shuffle or a vote, and what is computed from them. A plain global load
// varies with its address alone where the grid has more than a warp
// (many); in a grid of one warp a word every thread loads is loaded once
// a request, no work repeated (fixtures/calib's oneThread, one thread
// summing in[k]). reads marks the instructions that read a varying
// register (a load's: its address varies), whatever they do themselves.
func gridVarying(p *sassProgram, many bool) (ins []invInst, varying, reads []bool) {
	ins = make([]invInst, len(p.Recs))
	for i, s := range p.Recs {
		ins[i] = parseInvInst(s)
		if !many && ins[i].load {
			ins[i].own, ins[i].load = true, false
		}
	}
	varying, reads = make([]bool, len(p.Recs)), make([]bool, len(p.Recs))
	regs := map[int]bool{}
	for pass := 0; pass < 3; pass++ {
		for i := range ins {
			in := &ins[i]
			r := false
			for _, x := range in.srcs {
				r = r || regs[x]
			}
			v := in.own || r
			for _, d := range in.dsts {
				regs[d] = v
			}
			varying[i], reads[i] = v, r
		}
	}
	return ins, varying, reads
}

// UniformStrongLoads is the addresses of a kernel's strong (volatile)
// global loads (LDG or LD with .STRONG.) whose address is the same in
// every thread of the grid (gridVarying: constants and arguments, no
// thread's or block's index, no loaded value): each warp asks L2 for the
// one word again, where a plain load would find it in L1. nil without
// the source page, or for a grid of one warp.
func UniformStrongLoads(a *Kernel) map[string]bool {
	if len(a.Record.Source) == 0 || !manyWarps(a.Record) {
		return nil
	}
	p := programOf(a)
	ins, _, reads := gridVarying(p, true)
	var out map[string]bool
	for i, in := range ins {
		base, _, _ := strings.Cut(in.op, ".")
		if (base != "LDG" && base != "LD") || !strings.Contains(in.op, ".STRONG.") || reads[i] {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[p.Recs[i].Address] = true
	}
	return out
}

// gridUniformLoads is the addresses of a kernel's uniform loads (invInst's
// load): global loads of one address in every thread of the grid.
func gridUniformLoads(p *sassProgram, many bool) map[string]bool {
	ins, varying, _ := gridVarying(p, many)
	return uniformAddrs(p, ins, varying)
}

// uniformAddrs is gridUniformLoads of a program gridVarying has walked.
func uniformAddrs(p *sassProgram, ins []invInst, varying []bool) map[string]bool {
	out := map[string]bool{}
	for i, in := range ins {
		if in.load && !varying[i] {
			out[p.Recs[i].Address] = true
		}
	}
	return out
}

// manyWarps reports whether a kernel's grid runs more than one warp;
// true where its launch is not known.
func manyWarps(k *profan.Kernel) bool {
	b, g := k.Block.Size(), k.Grid.Size()
	return b <= 0 || g <= 0 || g*((b+31)/32) > 1
}

// invariantCandidate reports whether a kernel's conversions and
// floating-point math, of any operands, are a quarter of its executed
// instructions or more: the most invariant values can be.
func invariantCandidate(k *profan.Kernel) bool {
	var all, values float64
	seen := map[string]bool{}
	for _, s := range k.Source {
		if s.SASS == "" || s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		n := sourceInst(s)
		all += n
		switch invariantKind(Opcode(s.SASS)) {
		case "conv", "math":
			values += n
		}
	}
	return all > 0 && values >= 0.25*all
}

// invInst is one instruction as GridInvariant walks it: the registers it
// writes and reads (general, predicates, uniform), whether it varies by
// itself (an index, a load, a shuffle), and what it counts as.
type invInst struct {
	op         string
	dsts, srcs []int
	own        bool
	kind       string
	// load is a plain global load (LDG, not volatile: no .STRONG),
	// which varies with its address alone: at an address of constants
	// and arguments (a struct of parameters through a pointer, p->base)
	// every thread reads the same word.
	load bool
}

// parseInvInst reads one instruction for GridInvariant: varying by
// itself where it reads a thread's or a block's index, the clock, memory
// (but a constant bank at a constant offset, and a plain global load,
// which varies with its address), a shuffle or a vote; a uniform
// instruction writes its first operand.
func parseInvInst(s profan.SourceRecord) invInst {
	op, args := SASSFields(s.SASS)
	base, _, _ := strings.Cut(op, ".")
	dsts, srcs := laneOperands(s.SASS, op, args)
	in := invInst{op: op, kind: invariantKind(op)}
	switch {
	case base == "S2R" || base == "S2UR" || base == "CS2R":
		in.own = !(len(args) > 1 && strings.HasPrefix(args[1], "SRZ"))
	case base == "LDC" || base == "ULDC":
		// c[0x0][0x210]: an argument; c[0x3][R5]: indexed by a register,
		// which srcs holds.
	case base == "LDG" && !strings.Contains(op, ".STRONG"):
		in.load = true
	case strings.HasPrefix(base, "LD") || strings.HasPrefix(base, "ATOM") || base == "SHFL" || base == "VOTE" ||
		base == "VOTEU" || base == "MATCH" || base == "RED" || base == "REDUX" || base == "TLD" || base == "TEX" ||
		base == "SUATOM" || base == "SULD" || base == "LDSM" || base == "LDGSTS" || base == "ELECT":
		in.own = true
	}
	uniformOp := strings.HasPrefix(base, "U") || base == "S2UR" || base == "R2UR"
	uDst := -1
	for k, x := range args {
		if !strings.Contains(x, "UR") && !strings.Contains(x, "UP") {
			continue
		}
		for _, r := range uniformOperands(x) {
			if k == 0 && uniformOp {
				if uDst < 0 {
					uDst = r
				}
				continue
			}
			srcs = append(srcs, r)
		}
	}
	if g := strings.TrimSpace(s.SASS); strings.HasPrefix(g, "@U") || strings.HasPrefix(g, "@!U") {
		if f := strings.Fields(g); len(f) > 0 {
			srcs = append(srcs, uniformOperands(f[0])...)
		}
	}
	if uDst >= 0 {
		// The general-register parse read the uniform destination as
		// nothing, or as a source.
		dsts = []int{uDst}
	}
	in.dsts, in.srcs = dsts, srcs
	return in
}

// invariantKind is what an instruction of invariant operands counts as:
// "control" (integer arithmetic, moves, compares, branches: a counter
// and its test), "conv" (conversions between integers and floats),
// "math" (floating-point arithmetic), or "" for what is not computation
// (memory, barriers, exits, calls, no-ops).
func invariantKind(op string) string {
	base, _, _ := strings.Cut(op, ".")
	base = strings.TrimPrefix(base, "U")
	switch base {
	case "I2F", "I2FP", "F2I", "F2IP", "I2I", "F2F", "FRND":
		return "conv"
	case "FFMA", "FADD", "FMUL", "FMNMX", "FSEL", "FSETP", "MUFU", "FCHK", "FSWZADD":
		if base == "FSETP" {
			return "control"
		}
		return "math"
	case "IADD3", "IADD", "VIADD", "IMAD", "IMUL", "LOP3", "LOP", "SHF", "SHL", "SHR", "LEA", "MOV", "SEL", "ISETP",
		"PLOP3", "P2R", "R2P", "IMNMX", "VIMNMX", "BRA", "HFMA2", "IABS", "POPC", "FLO", "BREV", "PRMT", "BMSK", "SGXT":
		return "control"
	}
	return ""
}
