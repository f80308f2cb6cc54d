package rules

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// Gain factors of the local-memory fixes, fitted on the FIT pairs of
// fixtures/sweep (TestSweepCalibration) and checked on its held-out ones:
// the share of the kernel's L1 sectors that are local, times the factor.
// Moving a data-indexed array to registers keeps less of that share
// (compares and selects replace each access) than giving a spilling
// kernel the registers it needs.
const (
	localIndexedGain = 0.85 // localArray<8>, <32> → registerArray: 0.80, 0.78 measured
	localSpillGain   = 0.98 // spillAcc<8> → spillAcc<1>: 0.96 measured
)

// localHitCost is what a local load that hits L1 costs against one that
// misses to L2, for a per-thread table the loop only reads: the fix to
// shared memory keeps the loads on the same pipe and removes what the
// misses add (fitted on fixtures/sol-check's lookupLocal, 44 % of its
// local sectors missing, 0.53 measured, and sol-check2's ringLocal, 20 %,
// 0.29 measured). A table written in the loop (a histogram's h[k]++)
// waits on its own stores as well, and keeps localIndexedGain. The
// table's writes (filled once a thread) are priced apart, with the time
// model: fixtures/sol-check8's polyLut<0> wrote its 16 powers a thread,
// 4.2 M local sectors (a third of the L2's sectors beside 8.9 M global
// ones) that L2 carried and DRAM wrote back, in an L2-bound kernel
// (0.25, measured 0.31; the misses' cost alone 0.19).
const localHitCost = 0.2

// localMemory reports kernels whose per-thread data lives in local memory:
// a per-thread array indexed by run-time values, or registers spilled.
var localMemory = &Rule{
	ID:    "local-memory",
	Title: "Per-thread data in local memory",
	Text: `Local memory is per-thread memory in device memory, cached in L1 and L2: a
per-thread array indexed by values the compiler cannot resolve (h[key & 15]++)
lives there, and so do registers spilled when a kernel needs more than its
limit (__launch_bounds__, -maxrregcount, or 255). Each access is an LDL or
STL that moves a 32-byte sector for a few useful bytes. Index arrays with
compile-time constants (unrolled loops) so they stay in registers, or put them
in shared memory; for spills, allow more registers per thread or keep fewer
values live.`,
	Before: `unsigned h[16];
for (...) h[key[i] & 15]++;          // indexed by data: local memory`,
	After: `unsigned h[16];
for (...) { unsigned k = key[i] & 15;
  #pragma unroll
  for (int j = 0; j < 16; ++j) h[j] += (k == j); }   // registers`,
	Severity:   profan.Warning,
	Cause:      CauseMemory,
	Scope:      Algorithm,
	Locates:    true,
	Thresholds: []*Threshold{minTrafficShare},
	Requires:   []string{"local_load_sectors|local_store_sectors"},
	Optional:   join(trafficReads, []string{"local_spilling_pct", "local_load_hit_rate", "l1_hit_rate", "gld_transactions", "gst_transactions"}, waveFloorReads, bindingLimitReads),
	Check: func(p *Pass) {
		ld, okL := p.Value("local_load_sectors")
		st, okS := p.Value("local_store_sectors")
		if !okL && !okS {
			return
		}
		local := ld + st
		if local <= 0 {
			return
		}
		global := 0.0
		for _, n := range []string{"gld_transactions", "gst_transactions"} {
			if v, ok := p.Value(n); ok && v > 0 {
				global += v
			}
		}
		share := local / (local + global)
		if share < p.Thresholds.MinTrafficShare {
			return
		}
		spill, okSp := p.Value("local_spilling_pct")
		locs := localLines(p)
		what, advice, k := "a per-thread array indexed by run-time values", "index per-thread arrays with compile-time constants (unroll the loops over them) so they stay in registers, or keep the array in shared memory", localIndexedGain
		switch {
		case okSp && spill >= 50:
			what, advice, k = fmt.Sprintf("register spills (%.0f%% of the local requests)", spill), "give the kernel the registers it needs (a smaller minimum of blocks in __launch_bounds__, or no -maxrregcount) or keep fewer values live across the loop", localSpillGain
		case !okSp && len(locs) == 0:
			what = "a per-thread array indexed by run-time values, or register spills"
		}
		if _, _, triton := tritonKernel(p.Kernel.Record); triton {
			// Triton keeps a program's tensors in registers, their
			// elements spread over its threads: local memory is a block
			// too large for them (fixtures/sol-check28's smx_w4, a
			// 32768-element row on four warps), and the fix is the
			// program's shape, not __launch_bounds__.
			advice = tritonLocalAdvice(float64(p.Kernel.Record.Block.Size()) / 32)
		}
		gain := k * share
		// A table the loop only reads, mostly from L1: the gain is what
		// its misses cost, and a fraction for the hits.
		if hit, ok := localLoadHitRate(p, ld, local+global); ok && k == localIndexedGain && st < 0.1*ld {
			miss := 1 - clamp01(hit/100)
			gain = share * (miss + (1-miss)*localHitCost)
			// Its writes (the table filled once a thread) go through L1
			// to L2 and back to DRAM: moved to shared memory they leave
			// both, priced with the time model, loads left as the
			// misses' cost prices them (localTrafficGain with no load).
			if g, ok := localTrafficGain(p, 0, st, global); ok {
				gain = math.Max(gain, g)
			}
		} else if k == localIndexedGain {
			// A table written at run-time slots: the better of its two
			// fixes, registers (the factor) or shared memory (the time
			// model).
			if g, ok := localTrafficGain(p, ld, st, global); ok {
				gain = math.Max(gain, g)
			}
		}
		gain = math.Min(gain, localDRAMBound(p, ld, st, global, k == localSpillGain && registersBind(p)))
		// The grid and the global stream stay: so does the wave floor,
		// on the bytes the global sectors carry.
		if dram, ok := p.Value("dram_bytes"); ok {
			gain = math.Min(gain, waveFloorBound(p, math.Min(dram, global*32)))
		}
		ev := p.evidence("local_load_sectors", "local_store_sectors", "local_load_hit_rate", "local_spilling_pct", "gld_transactions", "gst_transactions")
		p.report(estimate(clamp01(gain)), Note{
			Message:   fmt.Sprintf("%.0f local-memory sectors loaded and %.0f stored, %.0f%% of the kernel's L1 sectors: %s", ld, st, 100*share, what),
			Advice:    advice,
			Evidence:  ev,
			Locations: locs,
		})
	},
}

// tritonLocalAdvice is local-memory's fix in Triton's terms, for a
// program of warps warps: each thread holds BLOCK_SIZE / (32 · num_warps)
// elements of every live tensor, and what does not fit spills.
func tritonLocalAdvice(warps float64) string {
	return fmt.Sprintf("each thread holds BLOCK_SIZE / (32 · num_warps) elements of every live tensor (now %.0f warp(s) a program), and what the registers cannot hold spills: raise num_warps (8 to 16) so each thread holds fewer, or loop over the data in a smaller BLOCK_SIZE (an online max and sum for a softmax row), lower num_stages where a pipelined loop keeps buffers live, or let @triton.autotune choose BLOCK_SIZE and num_warps", warps)
}

// localTrafficGain prices a per-thread table written at run-time slots
// (a histogram's h[k]++, a table read and written) moved to shared
// memory, with the time model of gains.go: the local loads that miss L1
// and the local stores (which L1 writes through) leave L2, DRAM keeps at
// most the bytes the global sectors carry, and the L1 pipe serves one
// shared wavefront per local request in place of the local sectors. The
// kernel's time then follows its busiest unit's remaining work: a kernel
// whose local traffic fills L2 gains that traffic's share of L2's busy
// time, and one latency-bound on local misses (64 bins per thread, 12 %
// of its local loads hitting L1, DRAM moving 16 times the bytes its
// threads ask for) gains in proportion to the work left. On fixtures/sol
// histLocal<64> moved to shared ran 0.97 faster (this model 0.95, the
// factor localIndexedGain of the local share, fitted on twins that move
// the table to registers, 0.80); sol-check3's mixLocal 0.84 (0.90 on the
// raw page, 0.83 on the details page; the factor 0.75). ok is false
// without the units' utilizations.
func localTrafficGain(p *Pass, ld, st, global float64) (float64, bool) {
	us, ok := usageOf(p)
	if !ok || !(ld+st > 0) {
		return 0, false
	}
	hit := localHit(p, ld, st, global)
	// The L1 pipe: global sectors and the local ones at four a wavefront
	// (the fewest a request's sectors take) before; one shared wavefront
	// per local request after.
	req := localRequests(p, ld+st)
	f := scale{analysis.LimitL1Shared: math.Min(1, (global/4+req)/(global/4+math.Max(req, (ld+st)/4)))}
	if l2 := global + ld*(1-hit) + st; l2 > 0 {
		f[analysis.LimitL2] = global / l2
	}
	if dram, ok := p.Value("dram_bytes"); ok && dram > 0 {
		f[analysis.LimitDRAM] = math.Min(1, global*32/dram)
	}
	f[analysis.LimitMemory] = 1
	for _, r := range []analysis.Unit{analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared} {
		if v, ok := f[r]; ok {
			f[analysis.LimitMemory] = math.Min(f[analysis.LimitMemory], v)
		}
	}
	after := us.timeAfter(f)
	// A kernel that waits on latency with three of its four local loads
	// or more missing L1 waits on them: a slot the loop reads back after
	// writing it is an L2 round trip in each thread's chain of iterations
	// (fixtures/sol-check5's movAvgLocal: 20 % of its local loads hit L1,
	// no unit above 42 %; fixtures/sol's histLocal<64>: 12 %). With the
	// table out of local memory the chain is gone, and the kernel runs as
	// fast as its units' remaining work allows, not at its old pace on
	// less work: movAvgLocal's twin ran L2 at 78 % (0.72 faster; in
	// proportion to the work left, 0.51), histLocal<64>'s 0.97 (0.90).
	if localChain(p, hit) {
		after = math.Min(after, us.norm(f))
	}
	return clamp01((1 - after) * variableShare(p)), true
}

// localHit is the L1 hit rate of the local loads, 0–1: the counter (raw
// page), else the kernel's over all its sectors with the global ones
// taken as misses.
func localHit(p *Pass, ld, st, global float64) float64 {
	if h, ok := p.Value("local_load_hit_rate"); ok {
		return clamp01(h / 100)
	}
	if h, ok := p.Value("l1_hit_rate"); ok && ld+st > 0 {
		return clamp01(h / 100 * (ld + st + global) / (ld + st))
	}
	return 0
}

// localChain reports whether a kernel waits on its local loads' L2 round
// trips (latency-bound, three of four local loads or more missing L1):
// with the table out of local memory it runs as fast as its units'
// remaining work allows, not at its old pace on less work (see
// localTrafficGain). hit is the local loads' L1 hit rate, 0–1.
func localChain(p *Pass, hit float64) bool {
	u := p.Kernel.Limiter.Unit
	return (u == analysis.LimitLatency || u == analysis.LimitAtomics) && hit < 0.5
}

// localDRAMBound is the most any fix of the local traffic can save: it
// keeps the kernel's global sectors, whose bytes DRAM still moves at no
// more than its ceiling. Local lines that L2 cannot hold leave for DRAM
// as well: fixtures/sol-check6's fft16<0>, its 16-point arrays written
// and read back per stage, moved 462 MB from DRAM for its 268 MB of
// global sectors, DRAM at 47 % of peak in 203 µs, so its global bytes
// alone take 32 % of that time (its unrolled twin, registers only, took
// 82 µs: 0.59 faster; the factor of the local share said 0.71). 1 (no
// bound) without the DRAM's bytes and busy share.
//
// freed says the spills' registers bind the kernel's warps per SM: the
// fix (registers enough for its values, or fewer values a thread) holds
// more warps in flight, whose bytes take the units to their ceilings,
// not to the busiest one's old share (fixtures/sol-check28's smx_w4, a
// Triton softmax row on four warps, two blocks an SM by registers, L2 at
// 76 % and DRAM at 65 %; on sixteen warps, no spill, L2 ran at 83 % and
// DRAM at 73 %, 0.30 faster, where the old pace said 0.21).
func localDRAMBound(p *Pass, ld, st, global float64, freed bool) float64 {
	us, ok := usageOf(p)
	d, okD := us[analysis.LimitDRAM]
	dram, okB := p.Value("dram_bytes")
	if !ok || !okD || !okB || !(dram > 0) || !(global > 0) {
		return 1
	}
	den := math.Min(1, us.busiest())
	if freed || localChain(p, localHit(p, ld, st, global)) {
		den = 1 // the chain of round trips goes with the table
	}
	if !(den > 0) {
		return 1
	}
	kept := math.Min(1, global*32/dram) * d / ceiling[analysis.LimitDRAM]
	return clamp01(1 - kept/den)
}

// registersBind reports a launch whose registers alone bind its blocks
// per SM, another limit allowing more.
func registersBind(p *Pass) bool {
	b, ok := bindingLimit(p)
	return ok && b.what == "registers" && b.next > b.blocks
}

// localRequests is the warp-level local loads and stores the kernel
// executed: its LDL and STL on the source page, else its local sectors
// at 32 a request (a scattered table's lanes each in their own sector).
func localRequests(p *Pass, sectors float64) float64 {
	n := 0.0
	for _, s := range p.Kernel.Record.Source {
		if op := opcode(s.SASS); strings.HasPrefix(op, "LDL") || strings.HasPrefix(op, "STL") {
			n += instExecuted(s)
		}
	}
	if n > 0 {
		return n
	}
	return sectors / 32
}

// localLines returns the source lines of the kernel's local loads and
// stores (LDL, STL) that execute most, when the export has the source page.
// localLoadHitRate is the L1 hit rate of the local loads (%): the
// counter where the export has it (the raw page), else the kernel's L1
// hit rate over all its sectors (the details page) with the global and
// the stored sectors taken as misses, which is near the local loads' own
// when they are most of the L1 sectors (sol-check2's ringLocal: 72 % of
// 144 M sectors, 130 M of them local loads, gives 79.6 %, the counter's
// 79.6 %).
func localLoadHitRate(p *Pass, ld, sectors float64) (float64, bool) {
	if hit, ok := p.Value("local_load_hit_rate"); ok {
		return hit, true
	}
	hit, ok := p.Value("l1_hit_rate")
	if !ok || !(ld > 0) || ld < 0.8*sectors {
		return 0, false
	}
	return math.Min(100, hit*sectors/ld), true
}

func localLines(p *Pass) []profan.Location {
	return topLines(p, func(op string, _ profan.SourceRecord) bool {
		return strings.HasPrefix(op, "LDL") || strings.HasPrefix(op, "STL")
	})
}

// topLines are the source lines of the SASS instructions keep selects (by
// their opcode and record), the three most executed first, each line once.
func topLines(p *Pass, keep func(op string, s profan.SourceRecord) bool) []profan.Location {
	type cand struct {
		loc profan.Location
		n   float64
	}
	by := map[string]*cand{}
	var order []string
	for _, s := range p.Kernel.Record.Source {
		op := strings.Fields(s.SASS)
		if len(op) > 0 && strings.HasPrefix(op[0], "@") {
			op = op[1:]
		}
		if len(op) == 0 || !keep(op[0], s) {
			continue
		}
		n := 0.0
		for _, c := range s.Counter {
			if c.Name == "inst_executed" {
				n = c.Value
			}
		}
		key := fmt.Sprintf("%s:%d", s.File, s.Line)
		if s.Line == 0 {
			key = s.Address
		}
		if c, ok := by[key]; ok {
			c.n += n
			continue
		}
		by[key] = &cand{profan.Location{File: s.File, Line: s.Line, SASS: s.SASS}, n}
		order = append(order, key)
	}
	sort.SliceStable(order, func(i, j int) bool { return by[order[i]].n > by[order[j]].n })
	var out []profan.Location
	for _, k := range order {
		out = append(out, by[k].loc)
		if len(out) == 3 {
			break
		}
	}
	return out
}
