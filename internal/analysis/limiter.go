package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/metrics"
)

// limiterOf decides the one limiter of a kernel. ncu's speed-of-light
// breakdown decides when present: the busiest unit of DRAM, L2, L1/shared
// and the SM's pipes, unless all stay under bound percent (latency). A
// grid of fewer blocks than SMs is limited by its launch. Without ncu's
// percentages, the instruction:byte ratio against the device balance
// picks a side (the usual reading of nvprof's metrics).
func limiterOf(a *Kernel, bound float64) Limiter {
	g := gridOf(a)
	mem, okM := a.Value("memory_throughput_pct")
	comp, okC := a.Value("compute_throughput_pct")
	switch {
	case okM && okC:
		return speedOfLight(a, bound, g, mem, comp)
	case g.short:
		return Limiter{Unit: LimitLaunch, Percent: math.NaN(), Evidence: g.String()}
	}
	return balanceLimiter(a, bound)
}

// grid is a launch's blocks against the GPU's SMs; short when there are
// fewer blocks than SMs, so that the launch cannot fill the GPU.
type grid struct {
	blocks, sms float64
	short       bool
}

func gridOf(a *Kernel) grid {
	blocks := float64(a.Record.Grid.Size())
	sms, ok := a.Value("sm_count")
	return grid{blocks: blocks, sms: sms, short: ok && blocks > 0 && blocks < sms}
}

func (g grid) String() string {
	return metrics.Count(g.blocks, "block") + " for " + metrics.Count(g.sms, "SM")
}

// memUnit is one memory unit's throughput, in percent of its peak.
type memUnit struct {
	u   Unit
	pct float64
}

// memoryUnits is ncu's breakdown of the memory total by unit, busiest
// first; the units the export leaves out are absent.
func memoryUnits(a *Kernel) []memUnit {
	var cs []memUnit
	for _, c := range []struct {
		u    Unit
		name string
	}{{LimitDRAM, "dram_sol_pct"}, {LimitL2, "l2_sol_pct"}, {LimitL1Shared, "l1_sol_pct"}} {
		if v, ok := a.Value(c.name); ok {
			cs = append(cs, memUnit{c.u, v})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].pct > cs[j].pct })
	return cs
}

// pipeReading is what the SM's pipes tell of a kernel: the busiest pipe
// (named when the export names one), and the tensor pipe's activity when
// the kernel runs tensor-core math.
type pipeReading struct {
	name       string
	pct        float64
	named      bool
	tensor     float64
	tensorMath bool
	// busiest names the busiest pipe, and the tensor pipe beside
	// another; pipes is it for a tensor-core kernel, which states its
	// pipes whatever limits it.
	busiest, pipes string
}

func readPipes(a *Kernel) pipeReading {
	var p pipeReading
	tensor, okT := metrics.Read(a.Record, "tensor_pipe_pct")
	p.name, p.pct, p.named = metrics.BusiestPipe(a.Record)
	tf, _ := a.Value("flop_count_tensor")
	p.tensor = tensor
	p.tensorMath = okT && tensor > 0 && (tf > 0 || p.named && p.name == "TENSOR")
	if p.named {
		p.busiest = fmt.Sprintf("; busiest pipe %s at %.0f%%", p.name, p.pct)
		if p.tensorMath && p.name != "TENSOR" {
			p.busiest += fmt.Sprintf(" · tensor pipe %.0f%%", tensor)
		}
		if p.tensorMath {
			p.pipes = p.busiest
		}
	}
	return p
}

// speedOfLight is ncu's own speed-of-light verdict: memory against
// compute, both under bound is latency (its SOLBottleneck rule). The
// breakdown then names the memory unit.
func speedOfLight(a *Kernel, bound float64, g grid, mem, comp float64) Limiter {
	units := memoryUnits(a)
	var parts []string
	for _, c := range units {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", c.u, c.pct))
	}
	ev := fmt.Sprintf("memory %.0f%%", mem)
	if len(parts) > 0 {
		ev += " (" + strings.Join(parts, ", ") + ")"
	}
	ev += fmt.Sprintf(", compute %.0f%% of peak", comp)
	// A kernel that runs tensor-core math is weighed by its pipes like
	// for like (each by its cycles active where ncu counts them, else by
	// its instructions, one issue cycle each: an MMA holds the tensor
	// pipe for several), since ncu's compute total counts the tensor pipe
	// short (a bf16 GEMM: compute 54%, tensor pipe 67%). Its busiest pipe
	// limits it when at the bound and memory does not lead; otherwise
	// ncu's verdict stands (memory, or latency when everything is under
	// the bound: a GEMM whose tensor pipe is at 15% is not limited by
	// it). The tensor pipe's activity shows beside any other limiter.
	p := readPipes(a)
	if p.named && p.tensorMath && p.pct >= bound && (comp >= mem || mem < bound) {
		if g.short {
			ev = g.String() + "; " + ev
		}
		return Limiter{Unit: LimitPipe, Pipe: p.name, Percent: p.pct, Evidence: ev + p.busiest}
	}
	switch {
	case g.short && mem < bound && comp < bound:
		return Limiter{Unit: LimitLaunch, Percent: math.Max(mem, comp), Evidence: g.String() + "; " + ev + p.pipes}
	case mem < bound && comp < bound:
		busy := ev
		ev = fmt.Sprintf("%s, both under %.0f%%%s", ev, bound, p.pipes)
		if share, why, ok := atomicSerial(a); ok {
			return Limiter{Unit: LimitAtomics, Percent: 100 * share, Evidence: why + "; " + ev}
		}
		// ncu's memory total can leave out a busy unit's busiest part:
		// an L2 whose atomic unit serves compare-and-swaps at 92.9 % of
		// its peak beside a memory total of 50 % (fixtures/sol-check30's
		// crossMin<0>, on the details page, where no atomic counter
		// names the atomics). A unit of the breakdown at its practical
		// ceiling (Ceiling: DRAM 85 %, the caches 90 %) is
		// saturated, so the kernel does not wait on latency: that unit
		// limits it. Under the ceiling the total's verdict stands (L2 at
		// 60 % to 70 % beside a lower total is common among the bundled
		// latency-bound kernels). Fitted after that set's read.
		if len(units) > 0 && units[0].pct >= 100*Ceiling(units[0].u) && units[0].pct > mem {
			return Limiter{Unit: units[0].u, Percent: units[0].pct, Evidence: fmt.Sprintf("%s; %s at %.0f%% of its peak, above the memory total of %.0f%%: the total leaves out its busiest part%s", busy, units[0].u, units[0].pct, mem, p.pipes)}
		}
		return Limiter{Unit: LimitLatency, Percent: math.Max(mem, comp), Evidence: ev}
	case comp > mem:
		l := Limiter{Unit: LimitPipe, Percent: comp, Evidence: ev + p.busiest}
		if p.named {
			l.Pipe = p.name
		}
		return l
	}
	u, note := busyMemoryUnit(a, units, mem)
	ev += note
	if p.tensorMath {
		ev += fmt.Sprintf(" · tensor pipe %.0f%%", p.tensor)
	}
	return Limiter{Unit: u, Percent: mem, Evidence: ev}
}

// Ceiling is the share of its peak a unit sustains when it limits a
// kernel, the time model's practical ceiling: what streaming copies
// reach on HBM for DRAM, 0.9 for the caches and the pipes. A memory unit
// at it is saturated.
func Ceiling(u Unit) float64 {
	if u == LimitDRAM {
		return 0.85
	}
	return 0.9
}

// busyMemoryUnit names the memory unit that limits a memory-bound kernel
// (total is ncu's memory throughput): the busiest of the breakdown, with
// a note for the evidence when the busy one is a unit it leaves out.
func busyMemoryUnit(a *Kernel, units []memUnit, total float64) (Unit, string) {
	switch {
	case len(units) > 0 && len(units) < 3 && units[0].pct < 0.8*total:
		// The busiest unit of the breakdown is far below the memory
		// total: the busy one is a unit the export leaves out, the
		// L1 first (it serves every access).
		have := map[Unit]bool{}
		for _, c := range units {
			have[c.u] = true
		}
		u := LimitL1Shared
		for _, m := range []Unit{LimitDRAM, LimitL2, LimitL1Shared} {
			if !have[m] {
				u = m
			}
		}
		return u, fmt.Sprintf("; the export gives no %s throughput: the busy unit is one it leaves out", u)
	case len(units) > 0:
		return units[0].u, ""
	}
	if d, ok := a.Value("dram_peak_pct"); ok && d >= 0.8*total {
		return LimitDRAM, ""
	}
	return LimitL1Shared, ""
}

// balanceLimiter reads a kernel without ncu's percentages: the
// instruction:byte ratio picks the side a kernel would reach first; a
// measured throughput of that side far from its peak says the kernel
// reaches neither: it waits (latency), or its grid is too small to fill
// the GPU.
func balanceLimiter(a *Kernel, bound float64) Limiter {
	r, okR := a.Value("instruction_byte_ratio")
	b, okB := a.Value("machine_balance")
	if !okR || !okB {
		return Limiter{Percent: math.NaN()}
	}
	if r < b {
		ev := fmt.Sprintf("instruction:byte ratio %.2f below the device balance %.2f", r, b)
		d, okD := firstValue(a, "dram_sol_pct", "dram_peak_pct", "dram_utilization")
		if !okD || d >= bound {
			return Limiter{Unit: LimitDRAM, Percent: nanIf(d, okD), Evidence: ev}
		}
		return waitOrLaunch(a, fmt.Sprintf("%s, yet DRAM at %.1f%% of its peak, under %.0f%%", ev, d, bound))
	}
	ev := fmt.Sprintf("instruction:byte ratio %.2f above the device balance %.2f", r, b)
	if c, ok := a.Value("compute_throughput_pct"); ok && c < bound {
		return waitOrLaunch(a, fmt.Sprintf("%s, yet compute at %.1f%% of its peak, under %.0f%%", ev, c, bound))
	}
	return Limiter{Unit: LimitPipe, Percent: math.NaN(), Evidence: ev}
}

func firstValue(a *Kernel, names ...string) (float64, bool) {
	for _, n := range names {
		if v, ok := a.Value(n); ok && !math.IsNaN(v) {
			return v, true
		}
	}
	return math.NaN(), false
}

func nanIf(v float64, ok bool) float64 {
	if !ok {
		return math.NaN()
	}
	return v
}

// waitOrLaunch is the limiter of a kernel no unit limits: its launch when
// the grid cannot occupy every SM, else latency. Without the grid's size,
// the waves tell: a wave is sms × (blocks per SM) blocks, and an SM holds
// at most the GPU's block limit (32 when unknown), so fewer than
// 1/limit waves is fewer blocks than SMs.
func waitOrLaunch(a *Kernel, ev string) Limiter {
	limit := 32.0
	if a.Spec != nil && a.Spec.MaxBlocksPerSM > 0 {
		limit = float64(a.Spec.MaxBlocksPerSM)
	}
	if w, ok := a.Value("waves_per_sm"); ok && w > 0 && w*limit < 1 && a.Record.Grid.Size() <= 0 {
		return Limiter{Unit: LimitLaunch, Percent: math.NaN(), Evidence: fmt.Sprintf("%.2f waves per SM: fewer blocks than SMs; %s", w, ev)}
	}
	return Limiter{Unit: LimitLatency, Percent: math.NaN(), Evidence: ev}
}

// atomicCycles is the L2 cycles one atomic on one address takes when its
// kind is not known: the slowest kind measured, float addition. The L2
// serves atomics on one address one at a time, each in the cycles its
// operation takes. Measured on an H100 (fixtures/sweep): 4,194,304 float
// atomicAdds on one address took 12,587,232 L2 cycles, 3.0 each; integer
// ones (RED.ADD, and ATOM.ADD whose old value is used) 5,252,846, 1.25 each.
const atomicCycles = 3.0

// intAtomicCycles is the L2 cycles an integer atomic on one address takes
// (see atomicCycles).
const intAtomicCycles = 1.25

// AtomicWork is what the L2 does for a kernel's global atomics: the
// sectors (or, without them, the requests) its atomic units process, and
// the cycles one of them takes on one address, from the atomic
// instructions' type on the source page (integer or float), else the
// slowest kind.
type AtomicWork struct {
	Ops      float64 // sectors (or requests) of atomics and reductions at the L2
	Requests float64
	Cycles   float64 // L2 cycles elapsed
	PerOp    float64 // L2 cycles one op takes on one address
	Float    bool    // the source page shows float atomics
	Typed    bool    // the source page gave the atomics' type
	// Kind names the atomics' type as the source page's SASS gives it:
	// "32-bit integer", "64-bit integer", "FP32", "FP64", "FP16",
	// "compare-and-swap"; "" when untyped or mixed.
	Kind string
	// Shared is the shared-memory atomic wavefronts of the kernel (a
	// privatised histogram's per-block bins), 0 when none or unknown.
	Shared float64
	// SharedThreads and GlobalThreads are the thread-level shared and
	// global atomics of the source page (ATOMS; RED, ATOM), 0 without it.
	SharedThreads, GlobalThreads float64
}

// Serial is the share of the kernel's L2 cycles its atomics would take if
// the L2 served them one at a time: above 1, they cannot all have been
// on one address, yet a few slices' worth still holds the kernel.
func (w AtomicWork) Serial() float64 {
	if w.Cycles <= 0 {
		return 0
	}
	return w.Ops * w.PerOp / w.Cycles
}

// Privatised reports whether the kernel already combines its updates in
// shared memory: more shared-memory atomic wavefronts than global atomic
// operations (per-block bins flushed once per block), or, on the source
// page, more threads' shared atomics than global ones (the details page,
// whose global atomics are the source page's per thread: a warp's
// wavefront count against them would call a privatised histogram's
// flush contended). Its global atomics are the flush, which privatising
// cannot shrink.
func (w AtomicWork) Privatised() bool {
	return w.Shared > w.Ops || (w.GlobalThreads > 0 && w.SharedThreads > w.GlobalThreads)
}

// What names the atomics: "global atomic operations", with their type when
// the source page gives it ("global FP64 atomic operations").
func (w AtomicWork) What() string {
	if w.Kind == "" {
		return "global atomic operations"
	}
	return "global " + w.Kind + " atomic operations"
}

// Describe is the one sentence every output gives of a kernel's atomic
// work: the operations, the cycles each takes on one address, and what
// the kernel's L2 cycles say of their addresses. A share of the kernel's
// cycles is never above 100%: more serial work than the time holds is a
// factor, and a lower bound on the addresses served at once.
func (w AtomicWork) Describe() string {
	f := w.Serial()
	if f <= 1 {
		return fmt.Sprintf("%.0f %s × %.2f L2 cycles each, served one at a time as on one address, would fill %.0f%% of the kernel's %.0f L2 cycles",
			w.Ops, w.What(), w.PerOp, 100*f, w.Cycles)
	}
	return fmt.Sprintf("%.0f %s × %.2f L2 cycles each, served one at a time, would take %.1f× the kernel's %.0f L2 cycles: at least %.0f addresses were served at once, each one operation at a time",
		w.Ops, w.What(), w.PerOp, f, w.Cycles, math.Ceil(f))
}

// Atomics reads a kernel's global atomic work; ok is false without L2
// atomic counters.
func Atomics(a *Kernel) (AtomicWork, bool) {
	n, okN := a.Value("l2_atomic_requests")
	c, okC := a.Value("l2_cycles")
	if !okN || !okC || n <= 0 || c <= 0 {
		return AtomicWork{}, false
	}
	w := AtomicWork{Ops: n, Requests: n, Cycles: c, PerOp: atomicCycles}
	// Requests of a warp that hit several sectors are served per sector.
	if sec, found := metrics.Read(a.Record, "l2_atomic_sectors"); found && sec >= n {
		w.Ops = sec
	}
	if v, ok := metrics.Read(a.Record, "shared_atomic_wavefronts"); ok && v > 0 {
		w.Shared = v
	}
	kinds := map[string]bool{}
	sharedInst := 0.0
	for _, s := range a.Record.Source {
		op := strings.Fields(s.SASS)
		if len(op) > 0 && strings.HasPrefix(op[0], "@") { // a predicate guard
			op = op[1:]
		}
		if len(op) == 0 {
			continue
		}
		m := op[0]
		if strings.HasPrefix(m, "ATOMS") {
			sharedInst += sourceInst(s)
			w.SharedThreads += sourceThreads(s)
			continue
		}
		if !(strings.HasPrefix(m, "RED") || strings.HasPrefix(m, "ATOM")) || strings.HasPrefix(m, "REDUX") {
			continue
		}
		w.GlobalThreads += sourceThreads(s)
		w.Typed = true
		kinds[atomicKind(m)] = true
		if strings.Contains(m, ".F32") || strings.Contains(m, ".F64") || strings.Contains(m, ".F16") || strings.Contains(m, ".BF16") {
			w.Float = true
		}
	}
	if w.Shared == 0 && sharedInst > 0 {
		w.Shared = sharedInst
	}
	if len(kinds) == 1 {
		for k := range kinds {
			w.Kind = k
		}
	}
	if w.Typed && !w.Float {
		w.PerOp = intAtomicCycles
	}
	return w, true
}

// atomicKind names a RED or ATOM instruction's type from its SASS
// modifiers (REDG.E.ADD.F64.RN: FP64; REDG.E.ADD.64: 64-bit integer).
func atomicKind(m string) string {
	parts := strings.Split(m, ".")
	has := func(x string) bool {
		for _, p := range parts {
			if p == x {
				return true
			}
		}
		return false
	}
	switch {
	case has("CAS") || has("CAST"):
		return "compare-and-swap"
	case has("F64"):
		return "FP64"
	case has("F32"):
		return "FP32"
	case has("F16x2") || has("F16"):
		return "FP16"
	case has("BF16x2") || has("BF16"):
		return "BF16"
	case has("64") || has("U64") || has("S64"):
		return "64-bit integer"
	}
	return "32-bit integer"
}

// sourceThreads is a source record's thread-level instructions executed,
// the lanes predicated off not counted.
func sourceThreads(s profan.SourceRecord) float64 {
	for _, c := range s.Counter {
		if c.Name == "thread_inst_executed_pred_on" && !math.IsNaN(c.Value) {
			return c.Value
		}
	}
	return 0
}

// sourceInst is a source record's warp-level instructions executed.
func sourceInst(s profan.SourceRecord) float64 {
	for _, c := range s.Counter {
		if c.Name == "inst_executed" && !math.IsNaN(c.Value) {
			return c.Value
		}
	}
	return 0
}

// atomicSerial reports whether a kernel's global atomics, served one at a
// time per address, account for a latency-bound kernel's time: served
// serially they would fill at least half its L2 cycles. share is the part
// of the time they explain, at most 1. A kernel that already privatises
// (its shared-memory atomics outnumber the global ones) is not held by its
// flush.
func atomicSerial(a *Kernel) (share float64, why string, ok bool) {
	w, okW := Atomics(a)
	if !okW || w.Privatised() {
		return 0, "", false
	}
	f := w.Serial()
	if f < 0.5 {
		return 0, "", false
	}
	return math.Min(1, f), w.Describe(), true
}
