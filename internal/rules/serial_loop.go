package rules

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// serialLoop reports a kernel whose time goes to a per-thread loop that
// touches no memory and whose trip count the data sets: each thread
// walks to its answer a step at a time (leap years counted year by year,
// an integer root by r = 0, 1, ... while (r + 1)³ <= n, a triangle's pair
// index by subtracting row lengths, a series summed term by term, a
// recurrence advanced one step at a time), the lanes of a warp each run
// their own count and the warp runs its longest. Such loops usually have
// a closed form (a series' sum, a triangular or integer root corrected
// in integers, y/4 − y/100 + y/400, Fibonacci by doubling, a power by
// squaring) or a table, and the kernel falls to its memory floor.
var serialLoop = &Rule{
	ID:    "serial-loop",
	Title: "A per-thread loop whose trip count the data sets",
	Text: `A loop with no memory access whose trip count comes from the data (a value
each thread loads, the thread's index) runs its steps one after the
other in each thread, and where the count differs from lane to lane the warp
runs until its longest lane is done, the others masked off. When such a loop
takes most of a kernel's instructions the kernel is compute-bound on work its
answer does not need: a count, a root, a sum or a position reached a step at a
time usually has a closed form. A series sums in one expression
(Σ γ^t = (1 − γ^T)/(1 − γ), an arithmetic or a power sum by its formula), a
triangular or pair index inverts by a square root corrected in integers, an
integer root by cbrtf or sqrtf corrected in integers, a digit count by a
logarithm or a table of powers, the leap years up to y are
y/4 − y/100 + y/400, a linear recurrence advanced n steps is its matrix's n-th
power by squaring (Fibonacci by fast doubling, an LCG by its affine map
squared), and a small domain fits a table. With no closed form, sort or bin
the work items by trip count so that a warp's lanes run alike. The SASS is
the judge: a backward branch whose body has no LD, ST, atomic, shuffle or
call, whose exit compare depends on a value each thread loads or on the
thread's index, or, for an integer recurrence (an LCG, a Fibonacci-like
sequence), on a kernel argument; or, whatever its count, a loop that sums a
series (s += d beside d *= v: a value only added to, each term from the
loop's other state, in float arithmetic). Not such a loop: another fixed
count (a counter set from immediates), a floating-point loop whose count every thread reads
alike (an argument: a number of steps), a state updated nonlinearly (v·v, a
transcendental of it, a hash's xor-shift and multiply: a chaotic map, an
iteration to convergence, whose steps are the work), a transcendental each
step (a rejection sampler), a loop over memory (a gather, a grid-stride or a
prefix loop, a CAS retry), a bit loop (bit-loop's), and loops under half the
kernel's instructions.`,
	Before:      `for (unsigned k = 1; k <= y; ++k) cnt += (k % 4 == 0 && (k % 100 != 0 || k % 400 == 0));`,
	After:       `cnt = y / 4 - y / 100 + y / 400;`,
	Severity:    profan.Warning,
	Cause:       CauseCompute,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	RemovesWork: true,
	Requires:    []string{"duration"},
	Optional:    join(usageReads, waveFloorReads),
	Check:       checkSerialLoop,
}

// serialLoopMinShare is the share of a kernel's executed instructions
// its data-dependent loops must hold to dominate it: a loop that is a
// smaller part of the kernel leaves it where it is. The loops fitted on
// hold 89 % or more; a short loop over a number's digits (ten trips at
// most) holds less: fixtures/sol-check27's revDec<1>, 76 %.
const serialLoopMinShare = 0.5

// The sources a loop's trip count may come from, as a bit set.
const (
	tripLoaded   = 1 << iota // a value loaded from memory
	tripIndex                // the thread's or block's index
	tripArgument             // a kernel argument (constant bank 0)
)

// serialLoops is what serialLoopsOf reads of a kernel's loops: their
// instructions (each address once; warp- and thread-level), the kernel's
// total, the trip count's sources, and the loops' addresses.
type serialLoops struct {
	inst, threads, total float64
	from                 int
	addrs                map[string]bool
	loops                int
}

// slReg matches the registers and predicates an operand names (R4, UR4,
// P0, UP1), a 64-bit pair's second half added by slRegs.
var slReg = regexp.MustCompile(`\b(U?R[0-9]+|U?P[0-6])\b(\.64)?`)

// slParam matches an operand of constant bank 0 at an immediate offset:
// the kernel's launch shape, stack pointer and arguments.
var slParam = regexp.MustCompile(`c\[0x0\]\[(0x[0-9a-f]+)\]`)

// slArgBase is the lowest offset of bank 0 that holds a kernel argument
// on sm_70 and later (0x160; 0x210 on sm_90): below are the launch shape
// (blockDim, gridDim) and the stack pointer, set by the launch, not by
// the data.
const slArgBase = 0x160

// slRegs are the registers and predicates an operand names.
func slRegs(arg string) []string {
	var out []string
	for _, m := range slReg.FindAllStringSubmatch(arg, -1) {
		out = append(out, m[1])
		if m[2] != "" {
			if n, err := strconv.Atoi(strings.TrimLeft(m[1], "UR")); err == nil {
				out = append(out, strings.TrimRight(m[1], "0123456789")+strconv.Itoa(n+1))
			}
		}
	}
	return out
}

// slInst is one instruction as the trace reads it.
type slInst struct {
	op, base    string
	guarded     bool
	guard       string
	dsts, srcs  []string
	factors     [2][]string // a multiply's two multiplicands' registers (multiplies)
	from        int         // the trip-count sources it is itself (a load, an index, an argument)
	memory      bool        // a load, store, atomic, texture or table access
	cooperative bool        // a warp's or block's lanes together: a shuffle, vote, barrier; or a call
}

// slParse reads one instruction for the trace.
func slParse(op string, args []string, sass string) slInst {
	base, _, _ := strings.Cut(op, ".")
	in := slInst{op: op, base: base, guard: sassGuard(sass)}
	if base == "BRA" && len(args) > 1 && len(slRegs(args[0])) == 1 && strings.Contains(args[0], "P") {
		in.guard = strings.TrimPrefix(args[0], "!") // BRA.U !UP0, target
	}
	in.guarded = in.guard != "" && in.guard != "PT"
	in.memory, in.cooperative = slMemoryOp(base), slCooperativeOp(base)
	switch base {
	case "LDG", "LD", "LDS", "LDL", "LDSM", "ATOM", "ATOMG", "ATOMS", "TEX", "TLD", "SULD", "SHFL":
		in.from |= tripLoaded
	case "S2R", "S2UR", "CS2R":
		if strings.Contains(sass, "SR_TID") || strings.Contains(sass, "SR_CTAID") || strings.Contains(sass, "SR_LANEID") {
			in.from |= tripIndex
		}
	case "LDC", "ULDC":
		// A table in __constant__ (a bank past 0, or bank 0 at a
		// register offset) is data; bank 0 at an immediate offset is an
		// argument or the launch's shape (slParam below).
		if !slParam.MatchString(sass) && !strings.Contains(sass, "c[0x0][RZ]") {
			in.from |= tripLoaded
			in.memory = true
		}
	}
	for _, m := range slParam.FindAllStringSubmatch(sass, -1) {
		if v, err := strconv.ParseUint(m[1][2:], 16, 32); err == nil && v >= slArgBase {
			in.from |= tripArgument
		}
	}
	if memoryStore(op) {
		for _, a := range args {
			in.srcs = append(in.srcs, slRegs(a)...)
		}
		return in
	}
	// The first operand is written; a predicate beside it too (ISETP P0,
	// PT, ...; LEA R2, P0, ...; LOP3.LUT P0, R2, ...), and both halves of
	// a wide result.
	nd := 1
	if len(args) > 1 {
		a0, a1 := args[0], args[1]
		p := func(x string) bool { return x == "PT" || strings.HasPrefix(x, "P") || strings.HasPrefix(x, "UP") }
		if p(a1) && len(slRegs(a0)) > 0 || base == "LOP3" && p(a0) && strings.HasPrefix(a1, "R") || base == "PLOP3" {
			nd = 2
		}
	}
	for i, a := range args {
		rs := slRegs(a)
		if k := i - nd; k >= 0 && k < 2 {
			in.factors[k] = rs
		}
		if i < nd && !strings.Contains(a, "[") {
			if i == 0 && strings.Contains(op, ".WIDE") && len(rs) == 1 {
				if n, err := strconv.Atoi(strings.TrimLeft(rs[0], "UR")); err == nil {
					rs = append(rs, strings.TrimRight(rs[0], "0123456789")+strconv.Itoa(n+1))
				}
			}
			in.dsts = append(in.dsts, rs...)
			continue
		}
		in.srcs = append(in.srcs, rs...)
	}
	return in
}

// slMemoryOp reports whether an opcode (its base) accesses memory: a
// load, store, atomic, texture or surface access.
func slMemoryOp(base string) bool {
	switch base {
	case "LDG", "LD", "LDS", "LDL", "LDSM", "LDGSTS", "ST", "STG", "STS", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG",
		"TEX", "TLD", "TLD4", "TXQ", "SULD", "SUST", "SURED", "SUATOM", "LDGDEPBAR", "UBLKCP", "UTMALDG", "UTMASTG":
		return true
	}
	return false
}

// slCooperativeOp reports whether an opcode (its base) works with the
// other lanes or threads (a shuffle, vote, barrier, fence) or calls.
func slCooperativeOp(base string) bool {
	switch base {
	case "SHFL", "VOTE", "VOTEU", "MATCH", "BAR", "REDUX", "CALL", "RET", "WARPSYNC", "NANOSLEEP", "YIELD", "MEMBAR", "FENCE", "ERRBAR", "CCTL":
		return true
	}
	return false
}

// writes reports whether in writes reg.
func (in *slInst) writes(reg string) bool {
	for _, d := range in.dsts {
		if d == reg {
			return true
		}
	}
	return false
}

// slTrace follows a register read at an instruction back to what sets
// it over the kernel's control flow (its SASS in address order cut into
// blocks at branches and their targets): on each path back, the nearest
// writer that is not guarded ends the walk, a guarded one does not; a
// writer never executed is no writer (a path the kernel did not take:
// fixtures/sol-check16's nTail<0> loads into the register its rounds
// argument later fills, on a branch no warp ran). It returns the
// trip-count sources reached (tripLoaded, tripIndex, tripArgument):
// none for a value built from immediates alone.
type slTrace struct {
	prog   []slInst
	ran    []bool
	block  []int   // each instruction's block
	starts []int   // each block's first instruction
	preds  [][]int // each block's predecessors
	seen   map[[2]int]bool
	regs   map[string]int
	budget int
}

// newSLTrace cuts prog into blocks at branches (targets: each
// instruction's branch target's index, -1 for none) and their targets.
func newSLTrace(prog []slInst, ran []bool, targets []int) *slTrace {
	n := len(prog)
	t := &slTrace{prog: prog, ran: ran, block: make([]int, n), seen: map[[2]int]bool{}, regs: map[string]int{}, budget: 8192}
	leader := make([]bool, n)
	for i := range n {
		if i == 0 {
			leader[i] = true
		}
		if targets[i] >= 0 && targets[i] < n {
			leader[targets[i]] = true
		}
		if i > 0 && (prog[i-1].base == "BRA" || prog[i-1].base == "EXIT" || prog[i-1].base == "RET") {
			leader[i] = true
		}
	}
	for i := range n {
		if leader[i] {
			t.starts = append(t.starts, i)
		}
		t.block[i] = len(t.starts) - 1
	}
	t.preds = make([][]int, len(t.starts))
	for b := range t.starts {
		end := n - 1
		if b+1 < len(t.starts) {
			end = t.starts[b+1] - 1
		}
		last := prog[end]
		through := true
		switch last.base {
		case "BRA":
			if k := targets[end]; k >= 0 && k < n {
				t.preds[t.block[k]] = append(t.preds[t.block[k]], b)
			}
			through = last.guarded
		case "EXIT", "RET":
			through = last.guarded
		}
		if through && end+1 < n {
			t.preds[b+1] = append(t.preds[b+1], b)
		}
	}
	return t
}

func (t *slTrace) reg(r string) int {
	if n, ok := t.regs[r]; ok {
		return n
	}
	n := len(t.regs)
	t.regs[r] = n
	return n
}

// writers are the instructions whose value of r may reach instruction i.
func (t *slTrace) writers(i int, r string) []int {
	var ws []int
	// scan walks back from j to block b's start; true when a writer
	// not guarded ends the path.
	scan := func(b, j int) bool {
		for ; j >= t.starts[b]; j-- {
			if t.ran[j] && t.prog[j].writes(r) {
				ws = append(ws, j)
				if !t.prog[j].guarded {
					return true
				}
			}
		}
		return false
	}
	b0 := t.block[i]
	if scan(b0, i-1) {
		return ws
	}
	seen := map[int]bool{}
	stack := append([]int(nil), t.preds[b0]...)
	for len(stack) > 0 && len(ws) < 64 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		end := len(t.prog) - 1
		if b+1 < len(t.starts) {
			end = t.starts[b+1] - 1
		}
		if !scan(b, end) {
			stack = append(stack, t.preds[b]...)
		}
	}
	return ws
}

func (t *slTrace) from(i int, r string) int {
	key := [2]int{i, t.reg(r)}
	if t.seen[key] || t.budget <= 0 {
		return 0
	}
	t.seen[key] = true
	t.budget--
	out := 0
	for _, j := range t.writers(i, r) {
		x := t.prog[j]
		out |= x.from &^ tripLoaded
		addr := 0
		for _, s := range x.srcs {
			addr |= t.from(j, s)
		}
		switch {
		case x.from&tripLoaded == 0:
			out |= addr
		case addr&(tripIndex|tripLoaded) != 0:
			out |= tripLoaded // a value loaded a thread
		default:
			// One address for every thread (a count read through a
			// pointer argument, fixtures/sol-check16's volBound<1>):
			// the value is the same in every thread, as an
			// argument's is; its address is not its value.
			out |= tripArgument
		}
	}
	return out
}

// serialLoopsOf reads a kernel's loops from its source page: each
// backward branch's body (its target to the branch, in address order)
// that has no memory access and no lane-cooperative instruction, whose
// exits (the back edge's guard, a guarded branch out of the body, a
// guarded EXIT) depend on a loaded value, the thread's index or a
// kernel argument. A fixed-count loop (its counter and bound from
// immediates, fixtures/sol-check20's jacobi4<96>), a loop over memory (a
// gather, a grid-stride loop, a prefix loop), a CAS retry loop (an
// atomic) and a warp's ballot loop are none. The bit loops bit-loop
// prices (bitLines, shiftWalks, shiftFolds) are left to it.
func serialLoopsOf(a *analysis.Kernel) (w serialLoops) {
	prog := analysis.SASSOf(a).Program()
	n := len(prog.Recs)
	addrs := make([]uint64, n)
	for i, s := range prog.Recs {
		addrs[i] = address(s.Address)
		w.total += instExecuted(s)
	}
	base := func(i int) string { b, _, _ := strings.Cut(prog.Ops[i], "."); return b }
	// The loops that ran, their bodies free of memory, lanes' work
	// together and transcendentals by opcode, each [lo, e]: only a
	// kernel with one is parsed for the trace.
	var cands [][2]int
	for e := range n {
		if base(e) != "BRA" {
			continue
		}
		_, args := prog.Fields(e)
		if len(args) == 0 {
			continue
		}
		target := address(args[len(args)-1])
		if target == 0 || target >= addrs[e] {
			continue
		}
		lo := e
		for lo > 0 && addrs[lo-1] >= target {
			lo--
		}
		if lo == 0 || !(instExecuted(prog.Recs[e]) > instExecuted(prog.Recs[lo-1])) {
			continue // entered once a pass: no loop that ran
		}
		// A transcendental a step is a search whose steps are the
		// work (a rejection sampler's candidates, fixtures/
		// sol-check18's rejSample<0>: __tanf and __expf a draw), not a
		// count or a sum walked.
		free := true
		for j := lo; j <= e && free; j++ {
			b := base(j)
			free = !slMemoryOp(b) && !slCooperativeOp(b) && b != "MUFU"
		}
		if free {
			cands = append(cands, [2]int{lo, e})
		}
	}
	if len(cands) == 0 {
		return w
	}
	ins := make([]slInst, n)
	at := make(map[uint64]int, n)
	targets := make([]int, n)
	ran := make([]bool, n)
	for i, s := range prog.Recs {
		op, args := prog.Fields(i)
		ins[i] = slParse(op, args, s.SASS)
		at[addrs[i]] = i
	}
	for i := range n {
		targets[i] = -1
		ran[i] = instExecuted(prog.Recs[i]) > 0
		if ins[i].base == "BRA" {
			if _, args := prog.Fields(i); len(args) > 0 {
				if k, ok := at[address(args[len(args)-1])]; ok {
					targets[i] = k
				}
			}
		}
	}
	var tr *slTrace
	in := make([]bool, n)
	var bits map[string]bool
	for _, c := range cands {
		lo, e := c[0], c[1]
		// The exits' predicates.
		type exit struct {
			at   int
			pred string
		}
		var exits []exit
		ok := true
		for j := lo; j <= e && ok; j++ {
			x := ins[j]
			ok = !x.memory // a table in __constant__ too
			if !x.guarded {
				continue
			}
			switch x.base {
			case "EXIT":
				exits = append(exits, exit{j, x.guard})
			case "BRA":
				_, a := prog.Fields(j)
				if t := address(a[len(a)-1]); j == e || t < addrs[lo] || t > addrs[e] {
					exits = append(exits, exit{j, x.guard})
				}
			}
		}
		if !ok || len(exits) == 0 {
			continue
		}
		if tr == nil {
			tr = newSLTrace(ins, ran, targets)
		}
		from := 0
		for _, x := range exits {
			from |= tr.from(x.at, x.pred)
		}
		// A count the kernel's arguments alone set is the same in
		// every thread: a number of steps. An integer recurrence so
		// advanced has its power by squaring (fixtures/sol-check25's
		// lcgAhead<0>, sol-check26's fibSeq<0>); a floating-point one
		// is a map iterated (sol-check27's lorenzGrid<0>, chaotic; the
		// FMA chains of the tail sets), its steps the work.
		if slNonlinear(ins, lo, e) {
			continue
		}
		// A fixed count (from immediates) is a number of steps, the
		// loop's work, unless the loop sums a series (slSeries).
		if from == 0 && !slSeries(ins, lo, e) || from != 0 && from&(tripLoaded|tripIndex) == 0 && !slInteger(ins, lo, e) {
			continue
		}
		if bits == nil {
			bits = bitLoopLines(a)
		}
		bit := false
		for j := lo; j <= e && !bit; j++ {
			s := prog.Recs[j]
			bit = bits[fmt.Sprintf("%s:%d", s.File, s.Line)]
		}
		if bit {
			continue
		}
		w.from |= from
		w.loops++
		for j := lo; j <= e; j++ {
			in[j] = true
		}
	}
	w.addrs = map[string]bool{}
	for i, s := range prog.Recs {
		if in[i] {
			w.inst += instExecuted(s)
			w.threads += threadExecuted(s)
			w.addrs[s.Address] = true
		}
	}
	return w
}

// bitLoopLines are the source lines (file:line) bit-loop reads as bit
// loops: its findings, not this rule's.
func bitLoopLines(a *analysis.Kernel) map[string]bool {
	out := map[string]bool{}
	lines, _, _, _ := bitLines(a)
	for _, l := range append(append(lines, shiftWalks(a)...), shiftFolds(a)...) {
		out[fmt.Sprintf("%s:%d", l.loc.File, l.loc.Line)] = true
	}
	return out
}

// checkSerialLoop prices the loops' removal: the kernel keeps its other
// instructions (their share of its time) and its stream, so the time
// after is the larger of the time its instructions outside the loops
// take and its memory floor (the ideal sectors at the rate their width
// reaches, streamFloor; a launch); the grid and the bytes stay, so does
// the wave floor, and the work of DRAM and L2 stays (leftBy).
func checkSerialLoop(p *Pass) {
	a := p.Kernel
	t, _, ok := issueWindow(p)
	if !ok {
		return
	}
	w := serialLoopsOf(a)
	if w.loops == 0 || !(w.total > 0) {
		return
	}
	share := w.inst / w.total
	if share < serialLoopMinShare {
		return
	}
	after := math.Max(t*(1-share), math.Max(streamFloor(p), launchFloor))
	gain := math.Min(clamp01(1-after/t), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if dram, ok := p.Value("dram_bytes"); ok {
		gain = math.Min(gain, waveFloorBound(p, dram))
	}
	if gain < 0.05 {
		return
	}
	lanes := 32.0
	if w.inst > 0 {
		lanes = math.Min(32, w.threads/w.inst)
	}
	var src []string
	for _, s := range []struct {
		bit  int
		what string
	}{{tripLoaded, "a loaded value"}, {tripIndex, "the thread's index"}, {tripArgument, "a kernel argument"}} {
		if w.from&s.bit != 0 {
			src = append(src, s.what)
		}
	}
	if len(src) == 0 {
		src = append(src, "a constant: the loop sums a series, which has a closed form at any count")
	}
	diverge := fmt.Sprintf("a warp's lanes run nearly the same count (%.1f of 32 active)", lanes)
	if lanes < 0.9*32 {
		diverge = fmt.Sprintf("the lanes' counts differ, %.1f of 32 active on average: the warp runs its longest lane's", lanes)
	}
	locs := topLines(p, func(_ string, s profan.SourceRecord) bool {
		return w.addrs[s.Address] && !toolkitHeader(s.File)
	})
	var where []string
	for _, l := range locs {
		where = append(where, fmt.Sprintf("%s:%d", filepath.Base(l.File), l.Line))
	}
	advice := "replace the loop by its closed form (a series' sum in one expression, Σ γ^t = (1 − γ^T)/(1 − γ); a triangular or pair index inverted by sqrtf and corrected in integers; an integer root by cbrtf or sqrtf, corrected; a digit count by a table of powers; leap years y/4 − y/100 + y/400; a linear recurrence advanced n steps by its matrix's power by squaring, Fibonacci by fast doubling) or a table"
	if lanes < 0.9*32 {
		advice += "; where none exists, sort or bin the work items by trip count so that a warp's lanes run alike"
	}
	// The headroom's ideal holds the loop's arithmetic as necessary
	// work; its closed form does not do it (RemovesWork), so the gain
	// may pass the headroom, and says why.
	beyond := ""
	if h := a.Limiter.Headroom; h.Known() && gain > h.Share+0.005 {
		beyond = fmt.Sprintf(": a gain of %.0f%%, more than its %.0f%% headroom on %s, whose ideal counts the loop's arithmetic as necessary work that its closed form does not do", 100*gain, 100*h.Share, h.Unit)
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the executed instructions (%.3g warp-level) sit in a loop with no memory access on %s whose trip count comes from %s; %s. Without the loop the kernel's other instructions and its memory floor take %.0f%% of its time%s",
			100*share, w.inst, strings.Join(where, ", "), strings.Join(src, " and "), diverge, 100*after/t, beyond),
		Advice:    advice,
		Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("serial_loop_inst_share=%.3f", share), fmt.Sprintf("serial_loop_lanes=%.1f", lanes)),
		Locations: locs,
	})
}

// slInteger reports whether a loop's body has no floating-point
// instruction (HFMA2.MMA Rd, -RZ, RZ, ... is the compiler's move of a
// constant, no arithmetic).
func slInteger(prog []slInst, lo, hi int) bool {
	for j := lo; j <= hi; j++ {
		x := prog[j]
		switch b := x.base; {
		case b == "HFMA2" && len(x.srcs) == 0:
		case strings.HasPrefix(b, "F") && b != "FLO", strings.HasPrefix(b, "D"), strings.HasPrefix(b, "H"), b == "MUFU", b == "I2F", b == "F2I":
			return false
		}
	}
	return true
}
