package rules

import (
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// The gain model. An estimated gain is the share of the kernel's time a fix
// saves: 1 − T'/T. It is computed from what limits the kernel and the work
// the fix removes from each unit, never from per-kernel constants, and is
// checked against measured pairs of broken and fixed kernels
// (TestCalibration, the table in docs/calibration.md).
//
// A kernel keeps each unit of the GPU busy for U_r of its time (ncu's speed
// of light: DRAM, L2, L1/shared, the SM's pipes). A unit that limits a
// kernel runs near a practical ceiling S_r below its peak: about 85 % for
// DRAM (what streaming copies reach on HBM), 90 % for the caches and the
// SM. With u_r = U_r/S_r, the busiest unit sets the time (N, a soft
// maximum: see contention); a fix that scales unit r's work by f_r leaves
//
//	T'/T = N(u·f) / min(1, N(u))
//
// so a saturated kernel (N(u) ≥ 1) runs at its new busiest unit's
// ceiling, and one that saturates nothing (latency-bound) shrinks in
// proportion to the work on its busiest unit. A fix that relieves a unit
// the kernel does not wait for saves nothing: a bank conflict in a
// DRAM-bound copy costs no time until the shared pipe becomes the busiest.

// The time model's units are the analysis's limiter units: DRAM, L2,
// L1/shared and the SM's pipes, and the memory system as a whole when ncu
// gives only its memory total (a --metrics list without the breakdown).
// modelUnits lists them in the order sums are taken, so results do not
// depend on a map's order.
var modelUnits = []analysis.Unit{analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared, analysis.LimitPipe, analysis.LimitMemory}

// ceiling is the share of its peak a unit sustains when it limits a
// kernel (analysis.Ceiling), by model unit.
var ceiling = func() map[analysis.Unit]float64 {
	m := make(map[analysis.Unit]float64, len(modelUnits))
	for _, u := range modelUnits {
		m[u] = analysis.Ceiling(u)
	}
	return m
}()

// launchFloor is the shortest time a kernel launch takes on the GPU
// (analysis.LaunchFloor).
const launchFloor = analysis.LaunchFloor

// contention is the p of the p-norm that combines the units' loads: 8
// lets a second unit within a few percent of its ceiling add a few percent
// of time (the misaligned double copy: DRAM at 80 % and L2 at 84 % of peak
// run 4 % slower than the aligned one, at the same DRAM bytes), and one
// far below add nothing.
const contention = 8.0

// usage is a kernel's busy share of each unit it measures, 0–1.
type usage map[analysis.Unit]float64

// scale is the factor a fix applies to each unit's work; 1 where absent.
type scale map[analysis.Unit]float64

// usageReads are the canonical metrics usageOf reads.
var usageReads = []string{"dram_sol_pct", "dram_utilization", "l2_sol_pct", "l2_utilization", "l1_sol_pct", "l1_utilization",
	"compute_throughput_pct", "fu_utilization", "memory_throughput_pct", "l2_hit_rate"}

// The canonical metrics the gain model reads, which the rules that use it
// name in their Optional.
var (
	memoryWeightReads = []string{"memory_throughput_pct", "dram_utilization", "dram_peak_pct"}
	trafficReads      = join(usageReads, memoryWeightReads, []string{"dram_bytes", "duration"})
	gridReads         = join(usageReads, []string{"duration", "sm_count"})
	tailReads         = join(gridReads, []string{"waves_per_sm"})
)

// join concatenates lists of metric names, each name once.
func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, n := range l {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// issueBoundGain is the gain of a fix that removes instructions from an
// SM: the instructions left take left of the kernel's time t at the issue
// peak, L1/shared's (and the memory total's) work scales by keep, L2's and
// DRAM's stays, each unit at its ceiling, and no kernel beats a launch.
func issueBoundGain(us usage, left, keep, t float64) float64 {
	after := left
	for u, v := range us {
		switch u {
		case analysis.LimitL1Shared, analysis.LimitMemory:
			after = math.Max(after, v*keep/ceiling[u])
		case analysis.LimitL2, analysis.LimitDRAM:
			after = math.Max(after, v/ceiling[u])
		}
	}
	return clamp01(1 - math.Max(math.Min(1, after), math.Min(1, launchFloor/t)))
}

// usageOf reads the units' utilizations: ncu's speed-of-light breakdown,
// else nvprof's utilization levels. A unit the export does not measure but
// the kernel's limiter names counts as saturated: a kernel whose
// instruction:byte ratio puts it on the compute side gains nothing from
// fixing memory accesses.
func usageOf(p *Pass) (usage, bool) {
	us := usage{}
	for _, c := range []struct {
		u     analysis.Unit
		names []string
	}{
		{analysis.LimitDRAM, []string{"dram_sol_pct", "dram_utilization"}},
		{analysis.LimitL2, []string{"l2_sol_pct", "l2_utilization"}},
		{analysis.LimitL1Shared, []string{"l1_sol_pct", "l1_utilization"}},
		{analysis.LimitPipe, []string{"compute_throughput_pct", "fu_utilization"}},
	} {
		for _, n := range c.names {
			if v, ok := p.Value(n); ok && v >= 0 {
				us[c.u] = math.Min(1, v/100)
				break
			}
		}
	}
	_, l2 := us[analysis.LimitL2]
	_, l1 := us[analysis.LimitL1Shared]
	if !l1 && !l2 {
		if v, ok := p.Value("memory_throughput_pct"); ok && v >= 0 {
			us[analysis.LimitMemory] = math.Min(1, v/100)
		}
	}
	if lim := p.Kernel.Limiter.Unit; lim != analysis.LimitMemory && ceiling[lim] > 0 {
		if _, ok := us[lim]; !ok {
			us[lim] = ceiling[lim]
		}
	}
	return us, len(us) > 0
}

// busiest is the kernel's normalized utilization: max_r u_r.
func (us usage) busiest() float64 { return us.norm(nil) }

// reloadAfter is the time, as a share of the kernel's, that a fix which
// takes loads off the memory path leaves (the volatile re-reads): at
// least from (the instructions left at the issue rate), each scaled
// unit's work times kept, each fixed unit's work as it is, and DRAM's at
// the stream's line, every unit at its ceiling.
func (us usage) reloadAfter(from, kept float64, scaled, fixed []analysis.Unit) float64 {
	after := from
	for _, u := range scaled {
		if v, ok := us[u]; ok {
			after = math.Max(after, v*kept/ceiling[u])
		}
	}
	for _, u := range fixed {
		if v, ok := us[u]; ok {
			after = math.Max(after, v/ceiling[u])
		}
	}
	if v, ok := us[analysis.LimitDRAM]; ok {
		after = math.Max(after, v/(streamLine*ceiling[analysis.LimitDRAM]))
	}
	return after
}

// wallGain is the share of a kernel's time t a fix saves when it leaves
// after of it: never below the launch floor, only on the time that
// varies with the work.
func wallGain(p *Pass, after, t float64) float64 {
	return clamp01((1 - math.Max(math.Min(1, after), math.Min(1, launchFloor/t))) * variableShare(p))
}

// peak is the largest unit's share of its peak, not normalized by its
// ceiling: the bound a change that keeps the work cannot pass.
func (us usage) peak() float64 {
	m := 0.0
	for _, u := range us {
		m = math.Max(m, u)
	}
	return m
}

// norm combines the units' normalized loads u_r·f_r: the busiest unit's,
// raised by the others near it (soft maximum, a p-norm with p = contention):
// two units near their ceilings slow each other, one far below does not.
func (us usage) norm(f scale) float64 {
	s, m := 0.0, 0.0
	for _, r := range modelUnits {
		u, ok := us[r]
		if !ok {
			continue
		}
		fr, ok := f[r]
		if !ok {
			fr = 1
		}
		v := u * fr / ceiling[r]
		s += math.Pow(v, contention)
		m = math.Max(m, v)
	}
	if m == 0 {
		return 0
	}
	return math.Pow(s, 1/contention)
}

// timeAfter is T'/T when the fix scales unit r's work by f[r].
func (us usage) timeAfter(f scale) float64 {
	den := math.Min(1, us.busiest())
	if den <= 0 {
		return 1
	}
	return us.norm(f) / den
}

// traffic is the work a fix removes from the memory system.
type traffic struct {
	GlobalSectors    float64 // 32-byte sectors between L1 and L2 (global loads and stores)
	SharedWavefronts float64 // shared-memory wavefronts (bank-conflict replays)
}

// trafficGain is the estimated gain of removing t from kernel a. Without
// the units' utilizations it falls back on the share of the memory
// traffic removed, weighted by how memory-bound the kernel is.
func trafficGain(p *Pass, t traffic) float64 {
	a := p.Kernel
	m := a.Model
	var g, sh float64 // global sectors, shared wavefronts
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x != nil && x.Transactions > 0 {
			g += x.Transactions
		}
	}
	for _, x := range []*analysis.Access{m.SharedLoad, m.SharedStore} {
		if x != nil && x.Transactions > 0 {
			sh += x.Transactions
		}
	}
	if !(t.GlobalSectors >= 0) {
		t.GlobalSectors = 0
	}
	if !(t.SharedWavefronts >= 0) {
		t.SharedWavefronts = 0
	}
	keep, gathers := keptGathers(m)
	rg, rs := math.Min(math.Max(0, t.GlobalSectors-keep), g), math.Min(t.SharedWavefronts, sh)
	us, ok := usageOf(p)
	if !ok {
		removed := 0.0
		if g+sh > 0 {
			removed = (rg + rs) / (g + sh)
		}
		return clamp01(removed * memoryWeight(p))
	}
	f := scale{}
	if g > 0 {
		f[analysis.LimitL2] = 1 - rg/g
		if l, ok := lineLookups(m); ok && rg > 0 && gathers {
			f[analysis.LimitL2] = math.Min(f[analysis.LimitL2], l)
		}
	}
	// The L1 data pipe serves shared wavefronts and global accesses (a
	// wavefront moves up to a 128-byte line, four sectors; a request
	// whose lanes each touch their own line, a wavefront a line).
	own, ownExcess := ownLineWavefronts(m)
	if l1 := sh + g/4 + own; l1 > 0 {
		rw := rs + rg/4
		if ownExcess > 0 {
			rw += own * math.Min(1, rg/ownExcess)
		}
		f[analysis.LimitL1Shared] = 1 - math.Min(rw, l1)/l1
		if rg == 0 && g > 0 {
			f[analysis.LimitL2] = backPressure(p, us, f[analysis.LimitL1Shared])
		}
	}
	// DRAM: the fixed kernel moves at most the bytes its ideal sectors
	// carry; when the caches already filter the traffic below that (data
	// re-read through L2), coalescing changes nothing in DRAM.
	if dram, ok := p.Value("dram_bytes"); ok && dram > 0 && g > 0 && rg > 0 {
		after := (g - rg) * 32
		if o, ok := analysis.OrderedGathers(a); ok && gathers && rg >= 0.9*o.Excess && o.Asked <= after {
			// Random gathers put in order: their ideal sectors miss L2
			// as often as their sectors do now.
			after += o.Ordered - o.Asked
		}
		f[analysis.LimitDRAM] = math.Min(1, after/dram)
	}
	// Without the breakdown, the busiest memory unit is taken to be the
	// one the fix relieves most: the gain is then an upper bound.
	f[analysis.LimitMemory] = 1
	for _, r := range []analysis.Unit{analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared} {
		if v, ok := f[r]; ok {
			f[analysis.LimitMemory] = math.Min(f[analysis.LimitMemory], v)
		}
	}
	return clamp01((1 - us.timeAfter(f)) * variableShare(p))
}

// streamLine is the share of its ceiling at which DRAM binds a stream
// whose L1 pipe is relieved: ncu's latency line (60 %, analysis.Options'
// Bound), taken of the ceiling the model runs DRAM at. Below it a fixed
// stream turns latency-bound (fixtures/sol-check6's ring buffer and half
// transpose ran their fixed twins at 61 % and 59 % of DRAM peak).
const streamLine = 0.6

// backPressure is the factor on the L2's work when a fix that moves no
// global sector scales the L1 pipe's work by f1, in a DRAM stream whose
// L1 data pipe limits the kernel. That pipe writes back the global loads'
// data as well as the shared wavefronts: while bank-conflict replays
// saturate it, the L2 holds the lines it returns, and its throughput
// counts the wait (ncu's L2 throughput of fixtures/sol-check8's rowNormD
// was 74.9 % against 55.7 % for its busiest breakdown row, the DRAM
// fill; 90.5 % against 75.3 % in the fixed twin: its L2 busy time fell
// 11 % at the same sectors). The L2's share up to the DRAM's is the
// DRAM's fill passing through, the same bytes, not a second unit taking
// time (the fixed twins run DRAM and L2 at their ceilings at once:
// rowNormD<17> 85 % and 91 %, rowDotShared<33> 84 % and 90 %); what
// the L2 adds above it is the wait, relieved with the L1's work. So the
// fixed stream is bound by its DRAM bytes. 1 (no change) where the L1
// pipe does not limit the kernel, the DRAM is below streamLine of its
// ceiling, or the L2 does no more than the DRAM.
func backPressure(p *Pass, us usage, f1 float64) float64 {
	l1, ok1 := us[analysis.LimitL1Shared]
	l2, ok2 := us[analysis.LimitL2]
	d, ok3 := us[analysis.LimitDRAM]
	if !ok1 || !ok2 || !ok3 || !(f1 < 1) || p.Kernel.Limiter.Unit != analysis.LimitL1Shared {
		return 1
	}
	u1, u2, ud := l1/ceiling[analysis.LimitL1Shared], l2/ceiling[analysis.LimitL2], d/ceiling[analysis.LimitDRAM]
	if u1 < u2 || u1 < ud || u2 <= ud || ud < streamLine {
		return 1
	}
	return (u2 - ud) * f1 / u2
}

// keptGathers is the excess of a kernel's random gathers that coalescing
// leaves, and whether the fix reaches them. A gather's pattern is its
// data's (analysis.Instruction.Indirect): a kernel whose own indexing
// wastes as many sectors besides (a thread per CSR row, its values and
// column indices read 32 sectors a request for 4) is fixed by that
// indexing, a warp per row, and its gather of x through the column
// indices stays random in the fixed kernel (fixtures/sol-check5's
// spmvScalar: 32 sectors a request in both builds). A kernel whose
// excess is its gathers' alone is fixed by ordering their indices.
func keptGathers(m analysis.Model) (keep float64, fixed bool) {
	var direct, gather float64
	for _, in := range m.Instructions {
		if in.Space != "global" || in.Operation != "load" || !(in.Sectors > in.IdealSectors) || !(in.IdealSectors > 0) {
			continue
		}
		if in.Indirect && in.SectorsPerRequest >= 0.9*32 {
			gather += in.Sectors - in.IdealSectors
		} else if !in.Indirect && in.Pattern.Kind != gpumodel.Misaligned {
			direct += in.Sectors - in.IdealSectors
		}
	}
	if gather > 0 && direct >= gather {
		return gather, false
	}
	return 0, true
}

// variableShare is the part of a kernel's time a fix to its work can
// shrink: all but the launch floor, which even an empty grid takes. It
// matters for launches of a few microseconds (fixtures/sweep: a stride-8
// copy of 64 Ki threads took 3.7 µs against 2.9 µs coalesced, where the
// sectors alone promise 0.87).
func variableShare(p *Pass) float64 {
	t, ok := p.Value("duration")
	if !ok || t <= 0 {
		return 1
	}
	return math.Max(0, 1-launchFloor/t)
}

// gridGain is the estimated gain of filling the GPU when a launch uses
// fill (0–1) of its thread slots: the time shrinks with the launch's
// parallelism until the busiest unit saturates, and never below the launch
// floor, so a launch with little work gains little however few blocks it
// has.
func gridGain(p *Pass, fill float64) float64 {
	t, ok := p.Value("duration")
	if !ok || t <= 0 || fill <= 0 || fill >= 1 {
		return math.NaN()
	}
	after := fill
	if us, ok := usageOf(p); ok {
		// ncu's L1/TEX throughput is the busy SMs' own (of the peak
		// sustained while active): where the grid leaves SMs idle, the
		// SMs it fills add their own L1s and shared memory, so it bounds
		// nothing (fixtures/sol-check17's mm_skinny: 4 programs on 132
		// SMs, L1/shared at 54 % of theirs; 256 programs ran 0.94
		// faster). L2 and DRAM are the GPU's, shared by every SM.
		if sms, ok := p.Value("sm_count"); ok && float64(p.Kernel.Record.Grid.Size()) < sms {
			if _, ok := p.Value("l1_sol_pct"); ok {
				delete(us, analysis.LimitL1Shared)
			}
		}
		after = math.Max(after, math.Min(1, us.busiest()))
	}
	after = math.Max(after, math.Min(1, launchFloor/t))
	return clamp01(1 - after)
}

// leftBy is the most a fix can save that leaves the work of units rs
// unchanged: each still needs its work's time at no more than its
// ceiling, so a kernel at 83% of DRAM peak has 2% to gain from its
// occupancy. 1 when none of them is measured.
func leftBy(p *Pass, rs ...analysis.Unit) float64 {
	us, ok := usageOf(p)
	if !ok {
		return 1
	}
	m := 0.0
	for _, r := range rs {
		if u, ok := us[r]; ok {
			if d, okD := us[analysis.LimitDRAM]; r == analysis.LimitL2 && okD && slices.Contains(rs, analysis.LimitDRAM) && fillOnly(p) {
				u = math.Min(u, d*ceiling[r]/ceiling[analysis.LimitDRAM])
			}
			m = math.Max(m, u/ceiling[r])
		}
	}
	return clamp01(1 - m)
}

// excess and minTrafficShare are the thresholds of a memory access worth
// a finding: above its ideal by Excess, carrying MinTrafficShare of the
// kernel's global sectors.
var (
	excess          = positive("excess")
	minTrafficShare = share("min_traffic_share")
)

// uncoalescedSpace reports whether the global loads or stores x (op "gld"
// or "gst") are worth a finding: above the ideal by the excess threshold,
// not a broadcast (uniform-load's), and carrying at least the minimum share
// of the kernel's global sectors (total).
func uncoalescedSpace(p *Pass, x *analysis.Access, op string, total float64) bool {
	if x == nil || x.IdealSectorsPerRequest <= 0 {
		return false
	}
	// Below the excess threshold only a misalignment is worth a word: one
	// extra sector per request (9 of 8 for a double copy off by 8 B) is
	// small but the fix (aligning) is cheap and the gain estimate says
	// what it buys.
	if x.SectorsPerRequest < x.IdealSectorsPerRequest*p.Thresholds.Excess &&
		!(x.Pattern.Kind == gpumodel.Misaligned && x.SectorsPerRequest >= x.IdealSectorsPerRequest*gpumodel.Slack) {
		return false
	}
	if x.Pattern.Kind == gpumodel.Broadcast {
		return false // the uniform-load rule speaks for it
	}
	eff, _ := p.Value(op + "_efficiency")
	if x.Pattern.Kind == gpumodel.Mixed && x.IdealSectorsPerRequest < 3.6 && eff >= 50 && len(p.Kernel.Model.Instructions) == 0 {
		// Less than 4-byte-coalesced ideal: part of the traffic is a
		// broadcast (a matrix row read by every thread), which tiling or
		// uniform-load address, not coalescing.
		return false
	}
	if total > 0 && x.Transactions > 0 && x.Transactions/total < p.Thresholds.MinTrafficShare {
		return false
	}
	return true
}

// coalescingTraffic is what coalescing x removes: its sectors above the
// ideal. A misaligned access is contiguous: aligning its start saves the
// one sector per request its end spills into, and no more; a warp that
// spans two rows of a tile (a stencil's halo) keeps the second row's
// partial sectors, which no alignment of the rows removes.
func coalescingTraffic(x *analysis.Access) traffic {
	if x == nil || x.SectorsPerRequest <= 0 {
		return traffic{}
	}
	return traffic{GlobalSectors: x.Transactions * wastedShare(x)}
}

// wastedShare is the share of x's sectors coalescing removes (see
// coalescingTraffic).
func wastedShare(x *analysis.Access) float64 {
	w := math.Max(0, 1-coalescedShare(x.IdealSectorsPerRequest, x.SectorsPerRequest))
	if x.Pattern.Kind == gpumodel.Misaligned {
		w = math.Min(w, 1/x.SectorsPerRequest)
	}
	return w
}

// coalescedShare is the share of an access's sectors (a request's) its
// ideal ones are, ideal over measured: what coalescing leaves of them.
// The finding's waste, its advice's saving and the tiling rule's reuse
// all read it; each says what an unknown or coalesced access gets.
func coalescedShare(ideal, measured float64) float64 { return ideal / measured }

// conflictSpace reports whether shared loads or stores x have a bank
// conflict worth a finding.
func conflictSpace(p *Pass, x *analysis.Access) bool {
	return x != nil && x.Pattern.Ways >= p.Thresholds.BankConflictWays && x.Pattern.Ways <= 33
}

// conflictTraffic is what removing x's bank conflicts saves: its
// wavefronts above the ideal.
func conflictTraffic(x *analysis.Access) traffic {
	if x == nil {
		return traffic{}
	}
	ideal := x.IdealTransactions
	if ideal <= 0 && x.Pattern.Ways > 0 {
		ideal = x.Transactions / x.Pattern.Ways
	}
	return traffic{SharedWavefronts: math.Max(0, x.Transactions-ideal)}
}

// fixableConflict is conflictTraffic less the replays no layout removes:
// those of the instructions (stores where store, else loads) whose
// address is data the kernel loaded (a lookup tab[f(v)] in a shared
// table, v loaded or computed from a load), whose conflicts follow the
// data. fixtures/sol-check17's lutTail<1>: a dependent chain of lookups
// in a 36 KiB table, 2.5 wavefronts a request, every replay at a load
// addressed by the previous lookup's value; its fix, the same lookups on
// a grid of whole waves, kept them all.
func fixableConflict(a *analysis.Kernel, x *analysis.Access, store bool) traffic {
	t := conflictTraffic(x)
	if t.SharedWavefronts > 0 {
		t.SharedWavefronts *= 1 - lookupReplays(a, store)
	}
	return t
}

// lookupReplays is the share of a kernel's shared-memory replays (the
// source page's excess wavefronts, of its stores where store, else of
// its loads) at instructions whose address is data the kernel loaded; 0
// without the source page.
func lookupReplays(a *analysis.Kernel, store bool) float64 {
	prefix := "LDS"
	if store {
		prefix = "STS"
	}
	excess := map[string]float64{}
	var addrs []string
	total := 0.0
	for _, s := range instructions(a) {
		if !strings.HasPrefix(opcode(s.SASS), prefix) {
			continue
		}
		ex := sourceExcess(s, "shared")
		if ex <= 0 {
			continue
		}
		total += ex
		excess[s.Address] = ex
		addrs = append(addrs, s.Address)
	}
	if total <= 0 {
		return 0
	}
	lookups := 0.0
	for addr := range analysis.Indirects(a, addrs) {
		lookups += excess[addr]
	}
	return lookups / total
}

// launchFill is the share of the GPU's thread slots a launch fills, when
// it leaves SMs idle for the whole kernel: fewer blocks than SMs, or less
// than one wave. 1 when it fills them or the export cannot tell.
func launchFill(p *Pass) float64 {
	if w, ok := p.Value("waves_per_sm"); ok && w > 0 && w < 1 {
		return w
	}
	sms, ok := p.Value("sm_count")
	blocks := float64(p.Kernel.Record.Grid.Size())
	if ok && blocks > 0 && blocks < sms {
		return blocks / sms
	}
	return 1
}

// KernelGain is the share of a kernel's time profan expects the fixes of
// all its findings together to save. Fixes that remove memory traffic are
// applied together in the time model (coalescing the loads and the stores
// of a strided copy saves more than either alone, and less than their sum
// when both relieve the same unit); a fix of another kind (the launch
// size, tiling, occupancy) counts by its own gain, and the largest of the
// two stands. 0 when no finding has a known gain.
func (e *Engine) KernelGain(a *analysis.Kernel, fs []profan.Finding) float64 {
	p := &Pass{Kernel: a, Thresholds: e.Thresholds}
	best := 0.0
	var t traffic
	traffic := false
	for _, f := range fs {
		switch f.Rule {
		case uncoalescedGlobal.ID, sharedBankConflict.ID:
			traffic = true
		default:
			if !math.IsNaN(f.Gain) && f.Gain > best {
				best = f.Gain
			}
		}
	}
	if traffic {
		m := a.Model
		has := map[string]bool{}
		for _, f := range fs {
			has[f.Rule] = true
		}
		sides := map[string]bool{}
		if has[uncoalescedGlobal.ID] {
			total := globalSectors(m)
			for _, c := range []struct {
				x  *analysis.Access
				op string
			}{{m.GlobalLoad, "gld"}, {m.GlobalStore, "gst"}} {
				if uncoalescedSpace(p, c.x, c.op, total) {
					t.GlobalSectors += coalescingTraffic(c.x).GlobalSectors
					sides[c.op] = true
				}
			}
		}
		if has[sharedBankConflict.ID] {
			for i, x := range []*analysis.Access{m.SharedLoad, m.SharedStore} {
				if conflictSpace(p, x) {
					t.SharedWavefronts += fixableConflict(p.Kernel, x, i == 1).SharedWavefronts
				}
			}
		}
		g := trafficGain(p, t)
		// Coalescing by the index (loads and stores strided alike) or
		// by sorting a gather's data keeps the grid and at least the
		// bytes the threads ask for (DRAM's, where L2 serves the
		// rest): so does the wave floor (fixtures/sol-check26's
		// wDeq8<1>, a 1-byte stream, ran 0.75 µs a wave, DRAM at 32 %).
		// A transpose (one side strided, the other coalesced, no
		// gather) is fixed by tiles through shared memory, several
		// elements a thread: another grid (sol-check6's
		// nchwToNhwcTiled, 32×32 tiles on 32×8 threads, a quarter of
		// the naive kernel's waves).
		if len(sides) == 2 || len(sides) == 1 && (m.GlobalLoad == nil || m.GlobalStore == nil || gathered(a)) {
			g = math.Min(g, waveFloorBound(p, keptDRAM(p, m)))
		}
		best = math.Max(best, g)
	}
	return best
}

// gathered reports whether a kernel's global loads include a gather
// (an address loaded from memory): its order is the data's.
func gathered(a *analysis.Kernel) bool {
	for i := range a.Model.Instructions {
		if in := &a.Model.Instructions[i]; in.Space == "global" && in.Operation == "load" && analysis.IndirectAccess(a, in) {
			return true
		}
	}
	return false
}

// keptDRAM is the DRAM bytes a kernel's fixed accesses still move at
// the least: those it moves, no more than its global accesses' ideal
// sectors carry.
func keptDRAM(p *Pass, m analysis.Model) float64 {
	dram, _ := p.Value("dram_bytes")
	ideal := 0.0
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x != nil && x.IdealTransactions > 0 {
			ideal += x.IdealTransactions
		}
	}
	if ideal > 0 {
		return math.Min(math.Max(0, dram), 32*ideal)
	}
	return math.Max(0, dram)
}

// tailGain is the estimated gain of evening out a last wave that leaves
// waste of the GPU's slots idle, priced from the waves. A wave is B
// blocks on each of the S SMs; w waves are ⌊w⌋ full ones and a tail of
// b blocks, at most ⌈b/S⌉ on any SM. A kernel that keeps a unit of the SM
// busy (compute- or memory-bound) runs a tail block with fewer
// neighbours faster, so the tail costs ⌈b/S⌉/B of a wave; one that waits
// on latency gains nothing from an emptier SM and the tail costs a whole
// wave. The same work spread evenly takes w waves:
//
//	gain = 1 − w / (⌊w⌋ + tail)
//
// Measured on fixtures/sol (a compute map, two 1024-thread blocks per
// SM): 2·SMs+1 blocks ran 32% slower than 2·SMs (model 33%), 4·SMs+1
// 16% (model 20%), 3·SMs 2% (model 0). Under one wave it is the
// launch's fill (gridGain); never below the launch floor.
func tailGain(p *Pass, waste float64) float64 {
	w, perSM, exact := wavesOf(p)
	sms, okS := p.Value("sm_count")
	blocks := float64(p.Kernel.Record.Grid.Size())
	// Under one wave, a grid that gives every SM as many blocks leaves no
	// SM idle: a kernel its SMs' pipes limit runs each SM's blocks at the
	// pipe's rate, so its time is the busiest SM's blocks, as a tail's is
	// below (fixtures/sol-check5's nbody<1>: 4 blocks on each of 132 SMs,
	// 0.50 waves, the FMA pipe the limit; half as many blocks of twice
	// the work ran 0.03 faster).
	if w > 0 && w < 1 && !(exact && okS && sms > 0 && blocks >= sms && p.Kernel.Limiter.Unit == analysis.LimitPipe) {
		return gridGain(p, w)
	}
	g := waste
	if exact && okS && sms > 0 {
		full := math.Floor(w)
		tail := 1.0
		if u := p.Kernel.Limiter.Unit; u == analysis.LimitPipe || u.Memory() {
			rest := blocks - full*perSM*sms
			tail = math.Min(1, math.Ceil(rest/sms)/perSM)
		}
		if full+tail > 0 {
			g = math.Max(0, 1-w/(full+tail))
		}
		// The same work in less time: no unit's load, averaged over the
		// tail too, can rise past its peak (a map at 56% of the SM's
		// peak cannot run 49% faster).
		if us, ok := usageOf(p); ok {
			g = math.Min(g, math.Max(0, 1-us.peak()))
		}
	} else if us, ok := usageOf(p); ok {
		g = math.Min(g, math.Max(0, 1-us.busiest()))
	}
	if t, ok := p.Value("duration"); ok && t > 0 {
		g = math.Min(g, math.Max(0, 1-launchFloor/t))
	}
	return clamp01(g)
}

// wavesOf is a launch's waves per SM and the blocks an SM holds at once:
// exact (the grid over the occupancy limits' blocks per SM, which ncu
// rounds to two decimals in its waves: 2·132+1 blocks read 1.00) when
// the grid and the limits are known, else ncu's waves and 0.
func wavesOf(p *Pass) (w, perSM float64, exact bool) {
	w, _ = p.Value("waves_per_sm")
	sms, okS := p.Value("sm_count")
	blocks := float64(p.Kernel.Record.Grid.Size())
	if b, ok := bindingLimit(p); ok && okS && sms > 0 && blocks > 0 && b.blocks >= 1 {
		return blocks / (b.blocks * sms), b.blocks, true
	}
	return w, 0, false
}
