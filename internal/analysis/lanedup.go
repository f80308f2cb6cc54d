package analysis

import (
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// LaneWork is the work a kernel's lanes repeat alike: floating-point
// instructions whose operands are the same in every lane of a warp
// because they come from a load all 32 lanes make of one address (a
// broadcast: seed[row] where a warp is one row), and the loops that
// compute nothing else. Every lane
// computes the same values; one lane could compute them for the warp (or
// each lane one row's, exchanged by __shfl_sync).
type LaneWork struct {
	// Inst is the warp-level instructions executed that repeat across
	// lanes, All the kernel's.
	Inst, All float64
	// Flops is their FP32 operations (an FFMA two, per thread executed
	// with its predicate on): 31 of each 32 are not necessary work.
	Flops float64
	// Entries is the kernel's warps launched (its first instruction's
	// executions).
	Entries float64
	// Loads are the broadcast loads they start from, Chain the
	// instructions that repeat (by address).
	Loads, Chain map[string]bool
}

// laneKind is what a register holds across a warp's lanes.
type laneKind int

const (
	laneSame    laneKind = iota // constants, arguments, the block's index
	laneLoaded                  // the same in every lane, from a broadcast load
	laneVarying                 // each lane its own
)

// LaneRedundant reads the source page for work every lane of a warp
// computes alike from a broadcast load (fixtures/sol-check16's
// warpDup<0>: y = x·g(seed[row]) with rows of 32, the 256-step chain g
// of seed[g >> 5] run by all 32 lanes of the row's warp; its twin, one
// lane a row's g and __shfl_sync, ran 0.83 faster). false without the
// source page or such work.
func LaneRedundant(a *Kernel) (w LaneWork, ok bool) {
	if len(a.Record.Source) == 0 {
		return w, false
	}
	broadcast := map[string]bool{}
	for _, in := range a.Model.Instructions {
		if in.Space == "global" && in.Operation == "load" && in.Pattern.Kind == gpumodel.Broadcast && !in.Indirect {
			broadcast[in.Address] = true
		}
	}
	if len(broadcast) == 0 {
		return w, false
	}
	p := programOf(a)
	// A broadcast at an address of constants and arguments alone (a
	// struct of parameters through a pointer) is the same word in every
	// warp of the grid, not a row's: its value is an argument's, the
	// same in every lane, and the work on it GridInvariant's
	// (fixtures/sol-check22's paramScale<0>, p->base and p->expo
	// reloaded for each element's powf).
	uniform := gridUniformLoads(p, manyWarps(a.Record))
	for addr := range uniform {
		delete(broadcast, addr)
	}
	if len(broadcast) == 0 {
		return w, false
	}
	class := make([]laneKind, len(p.Recs))
	regs := map[int]laneKind{}
	// Three passes: a loop's carried registers reach its head from the
	// pass before.
	for pass := 0; pass < 3; pass++ {
		for i, s := range p.Recs {
			class[i] = laneOf(s, regs, broadcast, uniform)
		}
	}
	w.Loads, w.Chain = map[string]bool{}, map[string]bool{}
	counted := make([]bool, len(p.Recs))
	count := func(i int) {
		if counted[i] {
			return
		}
		counted[i] = true
		s := p.Recs[i]
		w.Inst += sourceInst(s)
		w.Chain[s.Address] = true
		base, _, _ := strings.Cut(Opcode(s.SASS), ".")
		switch base {
		case "FFMA":
			w.Flops += 2 * threadPredOn(s)
		case "FADD", "FMUL":
			w.Flops += threadPredOn(s)
		}
	}
	for i, s := range p.Recs {
		w.All += sourceInst(s)
		if i == 0 {
			w.Entries = sourceInst(s)
		}
		if broadcast[s.Address] {
			w.Loads[s.Address] = true
		}
		if class[i] == laneLoaded && !broadcast[s.Address] && floatOp(s.SASS) {
			count(i)
		}
	}
	// A loop that computes nothing a lane has of its own, and something
	// from a broadcast load, is repeated whole: its counter and branch
	// too.
	for b := range p.Recs {
		op, args := p.Fields(b)
		if op != "BRA" || len(args) == 0 {
			continue
		}
		h, ok := p.At[strings.ToLower(args[len(args)-1])]
		if !ok {
			h, ok = p.At[args[len(args)-1]]
		}
		if !ok || h > b {
			continue
		}
		loaded, varying := false, false
		for j := h; j <= b; j++ {
			loaded = loaded || class[j] == laneLoaded && floatOp(p.Recs[j].SASS)
			varying = varying || class[j] == laneVarying
		}
		if loaded && !varying {
			for j := h; j <= b; j++ {
				count(j)
			}
		}
	}
	return w, w.Inst > 0
}

// floatOp reports a floating-point computation (FP32, FP16, FP64, the
// XU's transcendentals, conversions): the values a lane computes, not its
// loop's counter or trip test, which every lane keeps alike whatever it
// computes.
func floatOp(sass string) bool {
	base, _, _ := strings.Cut(Opcode(sass), ".")
	switch base {
	case "FFMA", "FADD", "FMUL", "FMNMX", "MUFU", "HFMA2", "HADD2", "HMUL2", "DFMA", "DADD", "DMUL", "F2F", "F2FP", "FRND":
		return true
	}
	return false
}

// laneOf classifies one instruction by its sources (and sets its
// destinations in regs): a lane's own value where any source is one, or
// where it reads the thread's index, a load other than a broadcast, a
// shuffle or a vote; loaded where a source is a broadcast load's value;
// else the same in every lane, a load of one address in every thread of
// the grid (uniform) among them.
func laneOf(s profan.SourceRecord, regs map[int]laneKind, broadcast, uniform map[string]bool) laneKind {
	op, args := SASSFields(s.SASS)
	base, _, _ := strings.Cut(op, ".")
	dsts, srcs := laneOperands(s.SASS, op, args)
	c := laneSame
	switch {
	case base == "S2R":
		if len(args) > 1 && !strings.HasPrefix(args[1], "SR_CTAID") && !strings.HasPrefix(args[1], "SR_NCTAID") {
			c = laneVarying
		}
	case broadcast[s.Address]:
		c = laneLoaded
	case uniform[s.Address]:
		c = laneSame
	case base == "LDC" || base == "ULDC" || base == "S2UR" || strings.HasPrefix(base, "U"):
		c = laneSame
	case strings.HasPrefix(base, "LD") || strings.HasPrefix(base, "ATOM") || base == "SHFL" || base == "VOTE" || base == "MATCH" || base == "RED" || base == "S2UR":
		c = laneVarying
	}
	if c == laneSame || base == "LDC" {
		for _, r := range srcs {
			c = max(c, regs[r])
		}
	}
	for _, d := range dsts {
		regs[d] = c
	}
	return c
}

// laneOperands are the registers (general, and predicates numbered from
// predicateBase) an instruction writes and reads: its first operand (and
// for a comparison its second, a predicate) written, the others and its
// guard read; a store writes nothing. A 64-bit or 128-bit destination
// writes two or four registers.
func laneOperands(sass, op string, args []string) (dsts, srcs []int) {
	if g := strings.Fields(strings.TrimSpace(sass)); len(g) > 0 && strings.HasPrefix(g[0], "@") {
		srcs = append(srcs, predicates(g[0])...)
	}
	base, _, _ := strings.Cut(op, ".")
	first := 0
	switch {
	case len(args) == 0:
		return nil, srcs
	case strings.HasPrefix(base, "ST") || base == "RED" || base == "BRA" || base == "BAR" || base == "EXIT" || base == "RET" || base == "CALL" || base == "BSSY" || base == "BSYNC":
		first = 0
	case strings.HasSuffix(base, "SETP") || base == "PLOP3":
		dsts = append(dsts, predicates(args[0])...)
		first = 1
		if len(args) > 1 && len(predicates(args[1])) > 0 && !strings.HasPrefix(args[1], "!") {
			dsts = append(dsts, predicates(args[1])...)
			first = 2
		}
	default:
		if r := registers(args[0]); len(r) > 0 && !strings.Contains(args[0], "[") {
			n := 1
			switch {
			case strings.Contains(op, ".128"):
				n = 4
			case strings.Contains(op, ".64") || strings.Contains(op, ".WIDE"):
				n = 2
			}
			for k := 0; k < n; k++ {
				dsts = append(dsts, r[0]+k)
			}
			first = 1
		}
	}
	for _, x := range args[first:] {
		srcs = append(srcs, registers(x)...)
		srcs = append(srcs, predicates(x)...)
	}
	return dsts, srcs
}

// predicateBase numbers the predicate registers P0..P6 apart from the
// general ones.
const predicateBase = 1 << 20

// predicates are the predicate registers an operand names ("!P0", "@P1").
func predicates(x string) []int {
	x = strings.TrimLeft(x, "@!")
	if len(x) == 2 && x[0] == 'P' && x[1] >= '0' && x[1] <= '6' {
		return []int{predicateBase + int(x[1]-'0')}
	}
	return nil
}

// threadPredOn is a source record's thread-level instructions executed
// with their predicate on, 32 a warp-level one without the counter.
func threadPredOn(s profan.SourceRecord) float64 {
	for _, c := range s.Counter {
		if c.Name == "thread_inst_executed_pred_on" && !math.IsNaN(c.Value) {
			return c.Value
		}
	}
	return 32 * sourceInst(s)
}
