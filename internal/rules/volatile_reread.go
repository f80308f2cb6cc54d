package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// volatileReread reports a kernel that loads one global address again and
// again through a volatile pointer (or another strong load): each load is
// issued as written and goes past L1 to L2, where one load and a register
// would do.
var volatileReread = &Rule{
	ID:    "volatile-reread",
	Title: "A volatile load of one address repeated",
	Text: `A load through a volatile pointer (LDG.E.STRONG.SYS) is issued each time the
source writes it, and it bypasses L1: reading the same element sixteen times
through one costs sixteen round trips to L2 and sixteen load instructions where
one load kept in a register would do. volatile is for memory another agent
changes while the kernel runs (a flag polled in a loop); data the kernel only
reads needs an ordinary (or const __restrict__) pointer, loaded once. A volatile
__shared__ array read in a loop is loaded again at each step the same way, through
the LSU/MIO pipe: values the loop only reads belong in registers.`,
	Before: `const volatile float* vx = x;
for (int k = 0; k < 16; ++k)
    acc = fmaf(vx[i], w[k], acc);   // sixteen loads of x[i]`,
	After: `const float v = x[i];               // one load, kept in a register
for (int k = 0; k < 16; ++k)
    acc = fmaf(v, w[k], acc);`,
	Severity: profan.Warning,
	Cause:    CauseMemory,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: the repeated strong loads of one address.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    join(usageReads, []string{"inst_executed", "dram_read_bytes", "dram_bytes"}),
	Check:       checkVolatileReread,
}

// strongRepeats is what volatileReread reads from a source page, in warp
// instructions executed: the strong global loads, those that load an
// address a strong load before them loaded (its base register not written
// in between), and every global memory instruction.
type strongRepeats struct {
	loads, repeats, global float64
}

// rereads reads a kernel's strong global loads in program order.
func rereads(a *analysis.Kernel) (r strongRepeats) {
	if !sassHas(a, ".STRONG.") {
		return r
	}
	recs := programOrder(a)
	loaded := map[string]bool{} // address operands a strong load read
	for _, s := range recs {
		op := opcode(s.SASS)
		base, _, _ := strings.Cut(op, ".")
		n := instExecuted(s)
		f := strings.Fields(strings.ReplaceAll(s.SASS, ",", " "))
		if globalMemOp(base) {
			r.global += n
		}
		if (base == "LDG" || base == "LD") && strings.Contains(op, ".STRONG.") {
			r.loads += n
			if at := memOperand(f); at != "" {
				if loaded[at] {
					r.repeats += n
				}
				loaded[at] = true
			}
		}
		if dst := destination(f); dst != "" {
			for k := range loaded {
				if strings.Contains(k, "["+dst+".") || strings.Contains(k, "["+dst+"]") || strings.Contains(k, "["+dst+"+") {
					delete(loaded, k)
				}
			}
		}
	}
	return r
}

// memOperand is the address operand of a memory instruction's fields
// ("desc[UR4][R2.64]"), "" when none.
func memOperand(f []string) string {
	for _, x := range f {
		if strings.Contains(x, "[") && !strings.HasPrefix(x, "c[") {
			return x
		}
	}
	return ""
}

// checkVolatileReread prices the loads the fix removes. Loaded once, the
// element stays in a register: the kernel keeps its DRAM bytes, and its
// L1 and L2 requests shrink to the global instructions left. A stream
// whose repeated round trips are gone binds DRAM at the latency line
// (streamLine of its ceiling: fixtures/sol-check6's fixed streams, 61 %
// and 59 % of peak), not at the ceiling. fixtures/sol-check10's
// volSum<0>, sixteen LDG.E.STRONG.SYS of x[i] an element and one store:
// 15 of 17 global instructions removed, DRAM at 19 % of peak: t'/t =
// 0.19/(0.6·0.85) = 0.38, 0.62 against 0.63 measured.
func checkVolatileReread(p *Pass) {
	if inLoop(p.Kernel, "shared", "load") && sharedVolatileReread(p) {
		return
	}
	r := rereads(p.Kernel)
	if !(r.repeats > 0) || !(r.global > 0) || r.repeats < 0.5*r.global {
		if !volatileTaps(p) {
			volatileAccumulator(p)
		}
		return
	}
	t, ok := p.Value("duration")
	us, okU := usageOf(p)
	if !ok || !(t > 0) || !okU {
		return
	}
	kept := (r.global - r.repeats) / r.global
	after := us.reloadAfter(0, kept, []analysis.Unit{analysis.LimitL2, analysis.LimitL1Shared, analysis.LimitMemory}, nil)
	if b := us.busiest(); b < 1 && b > 0 {
		// A kernel that saturates nothing: its time is the loads'
		// round trips, and the fix leaves the units' work above.
		after = math.Min(1, after)
	} else {
		after = math.Min(1, after/math.Max(b, 1e-9))
	}
	gain := wallGain(p, after, t)
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g strong (volatile) global loads, %.0f%% of them (%.3g) of an address a load before them read and nothing changed: each is issued again, past L1, to L2; %.0f%% of the kernel's global memory instructions go with them",
			r.loads, 100*r.repeats/r.loads, r.repeats, 100*r.repeats/r.global),
		Advice:    "load the value once into a register (drop volatile from a pointer to data only this kernel reads; const __restrict__ lets it come through the read-only path); keep volatile, or cuda::atomic_ref loads, for a flag another thread changes while the kernel runs",
		Evidence:  p.evidence("l2_sol_pct", "dram_sol_pct", "duration"),
		Locations: linesOf(p.Kernel, func(op string) bool { return strings.HasPrefix(op, "LDG") && strings.Contains(op, ".STRONG.") }),
	})
}

// strongRMW is what volatileAccumulator reads from a source page, in warp
// instructions executed: the strong global loads and stores a loop
// issues at one address it does not change (a sum accumulated in memory
// through a volatile pointer, *acc = *acc + t each step), the loops'
// entries, every global memory instruction, and the addresses of the
// loads and stores.
type strongRMW struct {
	loads, stores, entries, global float64
	at                             map[string]bool
}

// strongOp reports whether a SASS opcode is a strong (volatile) global
// load or store: LDG or STG (LD or ST on a generic address) with .STRONG.
func strongOp(op, base string) bool {
	switch base {
	case "LDG", "STG", "LD", "ST":
		return strings.Contains(op, ".STRONG.")
	}
	return false
}

// globalMemOp reports a global (or generic) memory instruction's base
// opcode: a load, store, atomic or reduction the kernel's global
// requests count.
func globalMemOp(base string) bool {
	switch base {
	case "LDG", "STG", "LD", "ST", "ATOMG", "ATOM", "RED", "REDG":
		return true
	}
	return false
}

// volatileRMWs reads the strong read-modify-writes of a kernel's loops.
func volatileRMWs(a *analysis.Kernel) (r strongRMW) {
	if !sassHas(a, ".STRONG.") {
		return r
	}
	recs, loops := sassLoops(a)
	for _, s := range recs {
		if base, _, _ := strings.Cut(opcode(s.SASS), "."); globalMemOp(base) {
			r.global += instExecuted(s)
		}
	}
	r.at = map[string]bool{}
	for _, l := range loops {
		stores := map[string][]profan.SourceRecord{} // address operand → the loop's strong stores to it
		for _, b := range l.body {
			op := opcode(b.SASS)
			base, _, _ := strings.Cut(op, ".")
			if (base == "STG" || base == "ST") && strongOp(op, base) && l.invariant(b.SASS) {
				at := memOperand(strings.Fields(strings.ReplaceAll(b.SASS, ",", " ")))
				stores[at] = append(stores[at], b)
			}
		}
		matched := map[string]bool{}
		for _, b := range l.body {
			op := opcode(b.SASS)
			base, _, _ := strings.Cut(op, ".")
			if (base != "LDG" && base != "LD") || !strongOp(op, base) || !l.invariant(b.SASS) || r.at[b.Address] {
				continue
			}
			at := memOperand(strings.Fields(strings.ReplaceAll(b.SASS, ",", " ")))
			if len(stores[at]) == 0 {
				continue
			}
			r.loads += instExecuted(b)
			r.at[b.Address] = true
			matched[at] = true
		}
		if len(matched) == 0 {
			continue
		}
		r.entries += l.entries
		for at := range matched {
			for _, b := range stores[at] {
				if !r.at[b.Address] {
					r.stores += instExecuted(b)
					r.at[b.Address] = true
				}
			}
		}
	}
	return r
}

// volatileAccumulator prices a loop that accumulates into one global
// location through a volatile pointer: each step's strong load waits for
// the step before's strong store to reach L2 and come back, a round trip
// a step in one dependent chain (fixtures/sol-check17's volAcc<0>: a
// 32-term sum in y[i], four LDG.E.STRONG.SYS and four STG.E.STRONG.SYS a
// trip of eight, 95 % of its global instructions; L2 at 30 %, compute at
// 8 %: latency-bound). Summed in a register and stored once, the loads
// and all but one store a thread go, and the kernel issues the
// instructions left (volAcc<1>: 124 M against volAcc<0>'s 156 M less the
// 33 M removed; it ran at 86 % of its compute peak, 0.93 faster): the time
// after is the longest of those instructions at the attainable issue rate
// and the memory units' work kept, the DRAM at the stream's line.
func volatileAccumulator(p *Pass) {
	r := volatileRMWs(p.Kernel)
	removed := r.loads + r.stores - r.entries
	if !(r.loads > 0) || !(r.global > 0) || !(removed > 0) || removed < 0.5*r.global {
		volatilePoll(p)
		return
	}
	gain, left, ok := volatileGain(p, removed, r.global)
	if !ok {
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("a loop accumulates into one global location through a volatile pointer: %.3g strong (volatile) loads and %.3g strong stores of an address the loop does not change, %.0f%% of the kernel's global memory instructions; each step's load waits for the step before's store to reach L2 and come back. Summed in a register and stored once, the instructions left take %.0f%% of the kernel's time at the device's issue peak",
			r.loads, r.stores, 100*(r.loads+r.stores)/r.global, 100*left),
		Advice:    "accumulate in a register (float acc = 0; for (...) acc += ...;) and store the result once after the loop; drop volatile from a pointer to data only this thread writes, and keep volatile (or cuda::atomic_ref) for a location another thread reads while the kernel runs",
		Evidence:  p.evidence("l2_sol_pct", "inst_executed", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return r.at[s.Address] }),
	})
}

// loopRereads is what volatileReread reads of shared memory from a
// source page, in warp instructions executed: the shared loads, those a
// loop executes again at an address it does not change while nothing in
// it stores to shared memory or waits at a barrier (each step after the
// loop's first loads the value it already holds: a volatile pointer, or
// a load the compiler could not keep), every memory instruction, and
// the lines of the loads re-read.
type loopRereads struct {
	loads, repeats, memory float64
	removed                float64         // the loads the fix leaves out
	at                     map[string]bool // addresses of the loads re-read
}

// sassLoop is a loop of a kernel's SASS: the instructions from a
// backward branch's target to the branch, in address order, the times
// the loop was entered (the executions of the instruction before it)
// and the registers its body writes.
type sassLoop struct {
	body    []profan.SourceRecord // a window of the kernel's shared addressOrder: read-only
	entries float64
	written map[int]bool
	stores  bool // a store, atomic, barrier or call to shared or generic memory
}

// sassLoops reads a kernel's loops from its source page.
func sassLoops(a *analysis.Kernel) (recs []profan.SourceRecord, loops []sassLoop) {
	recs = addressOrder(a)
	for i, s := range recs {
		op := opcode(s.SASS)
		if op != "BRA" && !strings.HasPrefix(op, "BRA.") {
			continue
		}
		f := strings.Fields(s.SASS)
		target := address(f[len(f)-1])
		if target == 0 || target >= address(s.Address) {
			continue
		}
		start := -1
		for k := i - 1; k >= 0 && address(recs[k].Address) >= target; k-- {
			start = k
		}
		if start <= 0 {
			continue
		}
		l := sassLoop{body: recs[start : i+1], entries: instExecuted(recs[start-1]), written: map[int]bool{}}
		for _, b := range l.body {
			base, _, _ := strings.Cut(opcode(b.SASS), ".")
			switch base {
			case "STS", "ST", "ATOMS", "ATOM", "RED", "BAR", "MEMBAR", "CALL":
				l.stores = true
			}
			if d, ok := writtenReg(b.SASS); ok {
				l.written[d] = true
			}
		}
		if l.entries > 0 {
			loops = append(loops, l)
		}
	}
	return recs, loops
}

// invariant reports whether a memory instruction's address is one the
// loop does not change: no register of it written in the body.
func (l sassLoop) invariant(sass string) bool {
	for _, reg := range analysis.AddressRegs(sass) {
		if l.written[reg] {
			return false
		}
	}
	return true
}

// sharedRereads reads a kernel's loops.
func sharedRereads(a *analysis.Kernel) (r loopRereads) {
	recs, loops := sassLoops(a)
	r.at = map[string]bool{}
	for _, s := range recs {
		switch op := opcode(s.SASS); {
		case op == "LDS" || strings.HasPrefix(op, "LDS."):
			r.loads += instExecuted(s)
			r.memory += instExecuted(s)
		case memoryOp(op):
			r.memory += instExecuted(s)
		}
	}
	for _, l := range loops {
		if l.stores {
			continue
		}
		var loaded, bytes float64
		for _, b := range l.body {
			bop := opcode(b.SASS)
			if (bop != "LDS" && !strings.HasPrefix(bop, "LDS.")) || r.at[b.Address] {
				continue
			}
			if n := instExecuted(b); l.invariant(b.SASS) && n > l.entries {
				r.repeats += n - l.entries
				r.at[b.Address] = true
				loaded += n
				bytes += 4 * sharedWords(bop)
			}
		}
		// Copied to registers once, the values come in 16-byte loads
		// (LDS.128: volCoef<1> loads its sixteen coefficients in four).
		r.removed += math.Max(0, loaded-l.entries*math.Ceil(bytes/16))
	}
	return r
}

// memoryOp reports whether a SASS opcode accesses memory through L1
// (global, local, shared, generic; loads, stores and atomics).
func memoryOp(op string) bool {
	base, _, _ := strings.Cut(op, ".")
	switch base {
	case "LDG", "STG", "LD", "ST", "LDS", "STS", "LDL", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDGSTS":
		return true
	}
	return false
}

// writtenReg is the register (general or uniform, as analysis.SASSRegs
// numbers it) an instruction writes first; false for a store, branch or
// barrier.
func writtenReg(sass string) (int, bool) {
	op, args := analysis.SASSFields(sass)
	if len(args) == 0 || memoryStore(op) || strings.Contains(args[0], "[") {
		return 0, false // a memory operand first: nothing written (LDGSTS)
	}
	if r := analysis.SASSRegs(args[0]); len(r) > 0 {
		return r[0], true
	}
	return 0, false
}

// memoryStore reports whether an opcode writes no register: a store or
// reduction, a branch, a barrier.
func memoryStore(op string) bool {
	base, _, _ := strings.Cut(op, ".")
	switch base {
	case "STG", "ST", "STS", "STL", "RED", "REDG", "BRA", "BAR", "EXIT", "RET", "CALL", "BSYNC", "BSSY", "MEMBAR", "NOP":
		return true
	}
	return false
}

// sharedVolatileReread reports shared loads a loop repeats at an address
// it does not change (fixtures/sol-check14's volCoef<0>: a degree-15
// polynomial's coefficients in a volatile __shared__ array, sixteen LDS
// [UR4+imm] a step of eight, 88 % of its memory instructions re-reads,
// the LSU pipe at 97 %; copied to registers once it ran 0.47 faster).
// The fix takes the re-reads out of the LSU/MIO pipe and out of the
// issue slots; what is left is the kernel's own work (its FFMAs), which
// issues no faster than it did: the time after is the longest of the
// shared pipe's work kept and the instructions kept at the kernel's
// issue rate (volCoef<0>: 59 % of its instructions kept, the values
// copied in four LDS.128; issue at 55 % of the peak before and 62 %
// after: 0.41 against 0.47). Reports whether it did.
func sharedVolatileReread(p *Pass) bool {
	r := sharedRereads(p.Kernel)
	if !(r.repeats > 0) || !(r.memory > 0) || r.repeats < 0.5*r.memory {
		return false
	}
	t, ok := p.Value("duration")
	n, okN := p.Value("inst_executed")
	us, okU := usageOf(p)
	if !ok || !(t > 0) || !okN || !(n > r.removed) || !okU {
		return false
	}
	after := 1 - r.removed/n
	den := math.Max(us.busiest(), 1e-9)
	if den > 1 {
		den = 1
	}
	for _, u := range []analysis.Unit{analysis.LimitL1Shared, analysis.LimitMemory} {
		if v, ok := us[u]; ok {
			after = math.Max(after, v*(r.memory-r.removed)/r.memory/ceiling[u]/den)
		}
	}
	gain := clamp01((1 - math.Max(math.Min(1, after), math.Min(1, launchFloor/t))) * variableShare(p))
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g shared loads, %.0f%% of them (%.3g) re-read an address their loop does not change, with no shared store or barrier in the loop (a volatile pointer): each step loads the same value again through the LSU/MIO pipe; copying the values to registers once removes %.0f%% of the kernel's instructions",
			r.loads, 100*r.repeats/r.loads, r.repeats, 100*r.removed/n),
		Advice:    "copy the values to registers once, before the loop (float c[16]; for (k...) c[k] = cs[k];), or drop volatile from the pointer to shared data the loop only reads; keep volatile for a flag another thread changes while the loop runs",
		Evidence:  p.evidence("l1_sol_pct", "inst_executed", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return r.at[s.Address] }),
	})
	return true
}

// inLoop reports whether one of the kernel's memory instructions of the
// space and operation given executes more than once a warp launched (it
// sits in a loop): the cheap test, from the model, before a rule reads
// the loops of the source page.
func inLoop(a *analysis.Kernel, space, op string) bool {
	for _, in := range a.Model.Instructions {
		if in.Space == space && in.Operation == op && in.Executions > 1 {
			return true
		}
	}
	return false
}

// strongPolls is what volatilePoll reads from a source page, in warp
// instructions executed: the strong global loads a loop issues at an
// address it does not change and never stores to (a flag polled each
// step), the loops' entries, every global memory instruction, and the
// addresses of the loads.
type strongPolls struct {
	loads, entries, global float64
	at                     map[string]bool
}

// volatilePolls reads the strong loads of loop-invariant addresses a
// kernel's loops issue with no strong store to them in the loop.
func volatilePolls(a *analysis.Kernel) (r strongPolls) {
	if !sassHas(a, ".STRONG.") {
		return r
	}
	recs, loops := sassLoops(a)
	for _, s := range recs {
		if base, _, _ := strings.Cut(opcode(s.SASS), "."); globalMemOp(base) {
			r.global += instExecuted(s)
		}
	}
	r.at = map[string]bool{}
	for _, l := range loops {
		stored := map[string]bool{} // address operands the loop stores to
		for _, b := range l.body {
			switch base, _, _ := strings.Cut(opcode(b.SASS), "."); base {
			case "STG", "ST", "ATOMG", "ATOM", "RED", "REDG":
				stored[memOperand(strings.Fields(strings.ReplaceAll(b.SASS, ",", " ")))] = true
			}
		}
		found := false
		for _, b := range l.body {
			op := opcode(b.SASS)
			base, _, _ := strings.Cut(op, ".")
			if (base != "LDG" && base != "LD") || !strongOp(op, base) || !l.invariant(b.SASS) || r.at[b.Address] {
				continue
			}
			if stored[memOperand(strings.Fields(strings.ReplaceAll(b.SASS, ",", " ")))] {
				continue
			}
			if n := instExecuted(b); n > l.entries {
				r.loads += n
				r.at[b.Address] = true
				found = true
			}
		}
		if found {
			r.entries += l.entries
		}
	}
	return r
}

// volatilePoll prices a loop that polls one global location through a
// volatile pointer each step (fixtures/sol-check18's volStop<1>: a
// 64-step iteration whose rolled loop issues one LDG.E.STRONG.SYS of the
// stop flag a trip, 97 % of its global instructions; each step's branch
// waits for the load's round trip to L2: latency-bound). Read once before
// the loop (or every so many steps), the loads but one a loop entry go,
// and with them the round trips the steps wait on: the time after is the
// longest of the instructions left at the attainable issue rate, the
// memory units' work kept and DRAM at the stream's line.
func volatilePoll(p *Pass) {
	r := volatilePolls(p.Kernel)
	removed := r.loads - r.entries
	if !(r.loads > 0) || !(r.global > 0) || !(removed > 0) || removed < 0.5*r.global {
		warpExchange(p)
		return
	}
	gain, left, ok := volatileGain(p, removed, r.global)
	if !ok {
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("a loop polls one global location through a volatile pointer: %.3g strong (volatile) loads of an address the loop does not change, %.0f%% of the kernel's global memory instructions; each step waits for its load's round trip to L2. Read once before the loop, the instructions left take %.0f%% of the kernel's time at the device's issue peak",
			r.loads, 100*r.loads/r.global, 100*left),
		Advice:    "read a location only this kernel's launch sets once, into a register, before the loop; to poll a flag another agent sets, poll it every so many steps (if (k % 32 == 0 && *stop)), or use cuda::atomic_ref with memory_order_relaxed",
		Evidence:  p.evidence("l2_sol_pct", "inst_executed", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return r.at[s.Address] }),
	})
}

// volatileGain prices removing removed of a kernel's global memory
// instructions (global in all): the time after is the longest of the
// instructions left at the attainable issue rate, the memory units' work
// kept and DRAM at the stream's line; left is the first of these as a
// share of the kernel's time.
func volatileGain(p *Pass, removed, global float64) (gain, left float64, ok bool) {
	t, issue, ok := issueWindow(p)
	n, okN := p.Value("inst_executed")
	us, okU := usageOf(p)
	if !ok || !okN || !(n > removed) || !okU {
		return 0, 0, false
	}
	left = (n - removed) / issue / t
	after := us.reloadAfter(left, (global-removed)/global, []analysis.Unit{analysis.LimitL2, analysis.LimitL1Shared, analysis.LimitMemory}, nil)
	return wallGain(p, after, t), left, true
}

// warpExchange prices a warp's exchange of values through shared memory
// (analysis.WarpExchanges: the warp-synchronous tree through a volatile
// __shared__ array, each step storing a lane's value and loading its
// partner's, no barrier): fixtures/sol-check19's segStats<0>, four
// statistics over five steps, 46 M of its 48 M memory instructions the
// exchange's, L1/shared at 91 %; its __shfl_xor_sync twin ran 0.41
// faster. Shuffled, each load becomes one SHFL and the stores go. The LSU
// pipe serves a shuffle as it serves a shared access, one request each
// (segStats<1>'s 23 M requests, its shuffles and global accesses, took
// L1/shared to 71 % of its 125 µs, as segStats<0>'s 48 M took it to 91 %
// of 212 µs: 3.9 and 4.0 µs of L1's time a million), so L1/shared keeps
// the requests left; the time after is the longest of those, the
// instructions left at the attainable issue rate, L2's work (unchanged)
// and DRAM at the stream's line.
func warpExchange(p *Pass) {
	x := analysis.WarpExchanges(p.Kernel)
	if !(x.Loads > 0) || !(x.Stores > 0) || !(x.Memory > 0) || x.Loads+x.Stores < 0.5*x.Memory {
		if !volatileTable(p) {
			volatileUniform(p)
		}
		return
	}
	t, issue, ok := issueWindow(p)
	n, okN := p.Value("inst_executed")
	us, okU := usageOf(p)
	if !ok || !okN || !(n > x.Stores) || !okU {
		return
	}
	kept := (x.Memory - x.Stores) / x.Memory
	after := us.reloadAfter((n-x.Stores)/issue/t, kept, []analysis.Unit{analysis.LimitL1Shared, analysis.LimitMemory}, []analysis.Unit{analysis.LimitL2})
	gain := wallGain(p, after, t)
	lines := map[int]bool{}
	for _, l := range x.Lines {
		lines[l] = true
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("a warp exchanges values through shared memory with no barrier (a volatile __shared__ array, warp-synchronous): %.3g shared loads of a word another lane of the warp stored and %.3g shared stores, %.0f%% of the kernel's memory instructions; each step's load waits for the store before it. Shuffled, the stores go and each load becomes one SHFL: L1/shared keeps %.0f%% of its requests",
			x.Loads, x.Stores, 100*(x.Loads+x.Stores)/x.Memory, 100*kept),
		Advice:    "exchange the values register to register with __shfl_xor_sync (or __shfl_down_sync) in place of the volatile shared-memory steps; cooperative_groups' reduce does it for a warp or a tile",
		Evidence:  p.evidence("l1_sol_pct", "inst_executed", "duration"),
		Locations: topLines(p, func(op string, s profan.SourceRecord) bool { return lines[s.Line] && strings.HasPrefix(op, "LDS") }),
	})
}
