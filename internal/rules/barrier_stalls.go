package rules

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// barrierShare is the least share of a warp's cycles between two issued
// instructions spent waiting at a CTA barrier for barrier-stalls to
// speak: ncu's CPIStall names the barrier as a leading reason there.
const barrierShare = 0.3

// barrierStalls reports a kernel whose warps spend much of their time
// waiting at __syncthreads barriers: the barriers, not a unit's peak,
// hold it, so its headroom is theirs.
var barrierStalls = &Rule{
	ID:    "barrier-stalls",
	Title: "Warps wait at __syncthreads barriers",
	Text: `At a __syncthreads (BAR.SYNC) every warp of the block waits for the slowest one;
with a barrier every few instructions the SM's warps spend their time waiting, not
issuing, and no memory or pipe is near its peak. Barriers are needed only where
a thread reads what another thread of its block wrote. A value a thread writes to
shared memory and reads back itself needs none: keep it in a register. Data
exchanged within a warp needs no block barrier: __shfl_sync, or __syncwarp. Where
the block must meet, give each barrier more work: more elements a thread between
two barriers, or double-buffered tiles so that one barrier serves a tile.`,
	Before: `for (int k = 0; k < 32; ++k) {
    s[threadIdx.x] = f(v);
    __syncthreads();
    v = g(s[threadIdx.x]);  // its own slot: no other thread's value
    __syncthreads();
}`,
	After: `for (int k = 0; k < 32; ++k)
    v = g(f(v));            // in a register, no barrier`,
	Severity: profan.Warning,
	Cause:    CauseOwn,
	Scope:    Source,
	Locates:  true,
	NCURule:  "CPIStall",
	Requires: []string{"duration"},
	Optional: barrierReads,
	Check:    checkBarrierStalls,
}

// checkBarrierStalls prices the fix from the share of the warps' time
// spent at the barriers, which goes with them: fixtures/sol-check10's
// syncChain<1>, a value written to shared memory and read back by its own
// thread between two __syncthreads a step, stalled at a barrier 45 % of
// its cycles (17.0 of 37.8 between two issued instructions), the ADU pipe
// that issues the barriers at its peak; its register twin ran 0.76
// faster. Where every shared load reads back what its own thread stored
// across a barrier, the fix drops the round trip and its barriers: the
// instructions left, at the SM's issue rate (syncChain<1>: 45 M of its
// 112 M warp instructions, 48 µs of 266 µs, 0.82).
//
// Barriers as many as the kernel's float arithmetic or more (denseBarriers)
// hold it under the threshold too: fixtures/sol-check16's colGemv<0>, x
// staged in shared memory one value at a time between two BAR.SYNCs an
// FFMA, waited at a barrier 25 % of its cycles and on its column loads
// 58 %, latency-bound (L2 at 44 %, DRAM at 35 %). A barrier each step
// holds every warp of the block to the slowest one's load, so no warp
// runs ahead to put the next steps' loads in flight: the load latency
// is the barriers' too, and the fix (256 values of x a stage, two
// barriers for 256 FFMAs) runs the loads at the rate the memory units
// leave, 0.46 measured against the 0.51 their room prices.
func checkBarrierStalls(p *Pass) {
	if sassHas(p.Kernel, "BAR") {
		// Most kernels have no barrier, and no tree to read.
		if tr := analysis.BarrierTrees(p.Kernel); tr.Levels > 0 && checkBarrierTree(p, tr) {
			return
		}
	}
	pct, t, ok := barrierWait(p)
	dense := false
	if !ok && sassHas(p.Kernel, "BAR") && checkBarrierChunks(p) {
		return
	}
	if !ok {
		share, d := denseBarriers(p.Kernel)
		t, ok = p.Value("duration")
		if !d || !ok || !(t > 0) {
			return
		}
		pct, dense = 100*share, true
	}
	// A tiled product's one-stage tile loads are unpipelined-tiles':
	// pipelining them, not fewer barriers, removes the wait.
	if _, tiles := syncTileLoads(p.Kernel); tiles {
		return
	}
	share := math.Min(1, pct/100)
	gain := math.Min(share, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if dense {
		gain = math.Min(share, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	}
	locs := topLines(p, func(op string, _ profan.SourceRecord) bool { return strings.HasPrefix(op, "BAR.SYNC") || op == "BAR" })
	msg := fmt.Sprintf("its warps wait at __syncthreads barriers %.0f%% of their cycles between two issued instructions (ncu's stall reason barrier): the barriers, not a unit's peak, hold it", pct)
	if dense {
		msg = fmt.Sprintf("a __syncthreads barrier for every float instruction or more, each step's global loads between two, %.0f%% of its warp stall samples at the barriers or on those loads: each barrier holds the block's warps to the slowest one's loads, so none puts the next steps' loads in flight, and no unit is near its peak", pct)
	}
	advice := "keep a value a thread writes and reads back itself in a register (no barrier); exchange within a warp with __shfl_sync or __syncwarp instead of __syncthreads; where the block must meet, give each barrier more work (more elements a thread between barriers, double-buffered tiles)"
	if rt := ownRoundTrip(p.Kernel); rt.loads > 0 {
		msg += "; a thread loads back, across a barrier, a shared address it stored to: where no other thread writes that slot in between, the value needs neither shared memory nor the barrier"
		if rt.own() {
			msg = fmt.Sprintf("its warps wait at __syncthreads barriers %.0f%% of their cycles between two issued instructions (ncu's stall reason barrier), and every shared load reads back, across a barrier, the address its own thread stored to: a value that needs neither shared memory nor the barriers", pct)
			if r := p.Kernel.Spec; r != nil && r.PeakWarpInstructions() > 0 && rt.all > 0 {
				after := math.Max(0, rt.all-rt.bars-rt.stores-rt.loads) / (ceiling[analysis.LimitPipe] * r.PeakWarpInstructions())
				if h := p.Kernel.Limiter.Headroom; h.Known() {
					after = math.Max(after, h.Ideal)
				}
				gain = math.Max(gain, math.Min(clamp01(1-math.Max(after, launchFloor)/t), leftBy(p, analysis.LimitDRAM, analysis.LimitL2)))
			}
		}
	}
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  p.evidence("barrier_stall_pct", "duration"),
		Locations: locs,
	})
}

// denseBarrierShare and denseLoadShare are the least shares of a
// kernel's warp stall samples at a barrier and waiting on a global load
// for barriers as dense as its float arithmetic to hold it
// (fixtures/sol-check16's colGemv<0>: 25 % and 57 %).
const (
	denseBarrierShare = 0.15
	denseLoadShare    = 0.3
)

// denseBarriers reads a kernel's source page for barriers that hold
// each step's global loads: ok where its BAR.SYNCs executed are as many
// as its float arithmetic instructions or more (a barrier a step of its
// math), its global loads half as many as its barriers or more (each
// step's loads between two barriers: not a tree reduction's or a scan's
// steps in shared memory, 0.1), and its warp stall samples at a barrier
// (the page's stall_barrier column) and on the loads (stall_long_sb)
// reach denseBarrierShare and denseLoadShare of all. share is the two
// together: the waits the barriers cause.
func denseBarriers(a *analysis.Kernel) (share float64, ok bool) {
	if !sassHas(a, "BAR") {
		return 0, false // most kernels: no barrier, no walk
	}
	var bars, flops, loads, samples, barrier, long float64
	for _, s := range instructions(a) {
		op := opcode(s.SASS)
		n := instExecuted(s)
		switch base, _, _ := strings.Cut(op, "."); {
		case base == "BAR" && (op == "BAR" || strings.HasPrefix(op, "BAR.SYNC")):
			bars += n
		case floatArith(base):
			flops += n
		case base == "LDG" || base == "LD":
			loads += n
		}
		v, _ := counterValue(s, "stall_samples")
		samples += v
		v, _ = counterValue(s, "stall_barrier")
		barrier += v
		v, _ = counterValue(s, "stall_long_sb")
		long += v
	}
	if bars == 0 || flops == 0 || samples == 0 {
		return 0, false
	}
	return math.Min(1, (barrier+long)/samples), bars >= flops && loads >= bars/2 && barrier >= denseBarrierShare*samples && long >= denseLoadShare*samples
}

// floatArith reports whether a SASS opcode's base is float arithmetic: the FMA,
// add, multiply and min/max of fp32, fp16 pairs and fp64, and the tensor
// cores' products.
func floatArith(base string) bool {
	switch base {
	case "FFMA", "FADD", "FMUL", "FMNMX", "FFMA2", "FADD2", "FMUL2", "HFMA2", "HADD2", "HMUL2", "HMNMX2", "DFMA", "DADD", "DMUL", "HMMA", "HGMMA", "DMMA", "IMMA":
		return true
	}
	return false
}

// barrierReads are what barrierWait and the pricing of the rules that
// read it take.
var barrierReads = join(usageReads, []string{"barrier_stall_pct"})

// barrierWait is the share of its warps' cycles (percent) a kernel
// waits at barriers and its duration, ok where the share reaches
// barrierShare.
func barrierWait(p *Pass) (pct, t float64, ok bool) {
	pct, okP := p.Value("barrier_stall_pct")
	t, okT := p.Value("duration")
	return pct, t, okP && okT && t > 0 && pct/100 >= barrierShare
}

// programOrder is a source page's instructions in program order (the
// page files them under their lines), each once. Shared (sass.Code):
// read-only.
func programOrder(a *analysis.Kernel) []profan.SourceRecord {
	return analysis.SASSOf(a).ProgramOrder()
}

// roundTrip is what ownRoundTrip read, in warp instructions executed:
// the shared loads that read back their own thread's store across a
// barrier and those stores, every shared load, the barriers, and every
// instruction.
type roundTrip struct {
	loads, stores, allLoads, bars, all float64
}

// own reports that every shared load (within 10 %) reads back its own
// thread's store.
func (r roundTrip) own() bool { return r.loads > 0 && r.loads >= 0.9*r.allLoads }

// ownRoundTrip reads shared stores and later shared loads with the same
// address operand and a barrier between them, the address register not
// written in between: a thread reading back its own slot.
func ownRoundTrip(a *analysis.Kernel) (r roundTrip) {
	stored := map[string]float64{} // address operands stored to: the stores' count
	crossed := map[string]bool{}   // ... with a barrier since
	for _, s := range programOrder(a) {
		op := opcode(s.SASS)
		n := instExecuted(s)
		r.all += n
		f := strings.Fields(strings.ReplaceAll(s.SASS, ",", " "))
		switch {
		case strings.HasPrefix(op, "STS"):
			// An address of uniform registers alone is one slot for
			// every thread (colGemv<0>'s s[0], thread 0's store read by
			// all): not a thread's own.
			if addr := sharedAddress(f); addr != "" && !uniformAddress(addr) {
				stored[addr], crossed[addr] = n, false
			}
			continue
		case strings.HasPrefix(op, "BAR.SYNC"):
			r.bars += n
			for k := range stored {
				crossed[k] = true
			}
			continue
		case strings.HasPrefix(op, "LDS"):
			r.allLoads += n
			if addr := sharedAddress(f); addr != "" && crossed[addr] {
				if st, ok := stored[addr]; ok {
					r.loads += n
					r.stores += st
					delete(stored, addr)
				}
			}
		}
		// A register written drops the addresses that use it.
		if dst := destination(f); dst != "" {
			for k := range stored {
				if strings.Contains(k, dst+"]") || strings.Contains(k, dst+"+") {
					delete(stored, k)
				}
			}
		}
	}
	return r
}

// address is a SASS address's value (0 when it is not hexadecimal).
func address(s string) uint64 {
	v, _ := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
	return v
}

// sharedAddress is the [..] operand of a shared access's fields.
func sharedAddress(f []string) string {
	for _, x := range f {
		if strings.HasPrefix(x, "[") {
			return x
		}
	}
	return ""
}

// uniformAddress reports whether a [..] address operand names uniform
// registers (URn) and no per-thread one (Rn): the same address in every
// thread.
func uniformAddress(addr string) bool {
	return !perThreadReg.MatchString(uniformReg.ReplaceAllString(addr, ""))
}

var (
	uniformReg   = regexp.MustCompile(`UR[0-9]+`)
	perThreadReg = regexp.MustCompile(`R[0-9]+`)
)

// destination is the register an instruction's fields write first, ""
// for none.
func destination(f []string) string {
	i := 0
	if i < len(f) && strings.HasPrefix(f[i], "@") {
		i++
	}
	if i+1 < len(f) && strings.HasPrefix(f[i+1], "R") {
		return f[i+1]
	}
	return ""
}

// checkBarrierTree prices a block reduction through shared memory with a
// barrier a level (analysis.BarrierTrees): shuffles for the levels within
// a warp and one exchange of the warps' partials leave MemoryLeft of its
// shared and global instructions (L1's data pipe and the LSU pipe) and
// IssueLeft of its instructions; the units' loads so scaled give the
// time (fixtures/sol-check19's rowSoftmax<0>: two trees of eight levels
// a row, 101 M of its 113 M shared and global warp instructions, 37 %
// of them left, L1/shared at 84 % and the SM at 76 %; its barriers held
// its warps 21 % of their cycles, under barrierShare; its shuffle twin
// ran 0.52 faster). false where the tree leaves the kernel's time alone.
func checkBarrierTree(p *Pass, tr analysis.BarrierTree) bool {
	us, ok := usageOf(p)
	if !ok {
		return false
	}
	mem, issue := tr.MemoryLeft(), tr.IssueLeft()
	gain := (1 - us.timeAfter(scale{analysis.LimitL1Shared: mem, analysis.LimitPipe: issue})) * variableShare(p)
	if !(gain >= 0.05) {
		return false
	}
	locs := topLines(p, func(op string, _ profan.SourceRecord) bool { return strings.HasPrefix(op, "BAR.SYNC") || op == "BAR" })
	p.report(estimate(clamp01(gain)), Note{
		Message: fmt.Sprintf("a block reduction through shared memory with a __syncthreads a level: %d levels (%d of them within a warp's words), %.3g shared loads and stores and %.3g barriers (warp-level), every warp issuing each level's; shuffles for the levels within a warp and one exchange of the warps' partials leave %.0f%% of its shared and global instructions and %.0f%% of all",
			tr.Levels, tr.WarpLevels, tr.Loads+tr.Stores, tr.Bars, 100*mem, 100*issue),
		Advice:    "reduce within each warp with __shfl_xor_sync (or cooperative_groups::reduce), store one partial a warp to shared memory, one __syncthreads, reduce the partials (every warp reading them, or one warp and a broadcast), and a second barrier only before the shared words are written again: two barriers a reduction instead of one a level",
		Evidence:  p.evidence("barrier_stall_pct", "duration"),
		Locations: locs,
	})
	return true
}
