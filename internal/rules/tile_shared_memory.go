package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

var cacheReuse = positive("cache_reuse")

// stagedLoadsPerFMA is the L1/shared pipe's loads per FMA of the tile
// the advice asks for, one output per thread: a shared load of the
// column operand per FMA, the row operand's read four-wide (¼), and the
// 16×16 tile's fills, two global loads per 16 FMAs.
const stagedLoadsPerFMA = 1 + 1.0/4 + 2.0/16

// tileSharedMemory reports kernels that re-read global data many times
// through the caches instead of staging it in shared memory.
var tileSharedMemory = &Rule{
	ID:    "tile-shared-memory",
	Title: "Global data re-read through the caches: tile it in shared memory",
	Text: `When each input element is read by many threads (a naive matrix product reads
every element N times), the traffic between L1 and L2 is far above the DRAM
traffic and the arithmetic per byte fetched stays low. Loading a tile into
shared memory once per block and reusing it from there cuts the L2 traffic by
the tile width.`,
	Before: `for (int k = 0; k < n; ++k)
    sum += A[row * n + k] * B[k * n + col];`,
	After: `__shared__ float As[16][16], Bs[16][16];
for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
}`,
	Severity:   profan.Warning,
	Cause:      CauseMemory,
	Scope:      Source,
	Locates:    true,
	Thresholds: []*Threshold{cacheReuse},
	Requires:   []string{"l2_read_transactions|gld_transactions", "dram_read_bytes|dram_bytes"},
	Optional: join(memoryWeightReads, loadsPerFMAReads, []string{"shared_load_requests", "shared_load_transactions", "compute_throughput_pct", "arithmetic_intensity",
		"global_store_requests", "gld_transactions_per_request", "gst_transactions", "local_load_sectors", "local_store_sectors"}, usageReads),
	Check: checkTile,
}

func checkTile(p *Pass) {
	// Bytes L2 serves: its read sectors, else the global load sectors
	// that missed L1.
	l2, ok := p.Value("l2_read_transactions")
	if !ok {
		ld, _ := p.Value("gld_transactions")
		hit, _ := p.Value("l1_hit_rate")
		l2 = ld * (1 - nzf(hit)/100)
	}
	dram, ok := p.Value("dram_read_bytes")
	if !ok {
		dram, _ = p.Value("dram_bytes")
	}
	if dram <= 0 {
		return
	}
	reuse := l2 * 32 / dram
	for _, n := range []string{"shared_load_requests", "shared_load_transactions"} {
		if sh, ok := p.Value(n); ok && sh > 0 {
			return // already staged through shared memory
		}
	}
	// Sectors an uncoalesced load asks for beyond its ideal ones are
	// L2 traffic a coalesced index removes, not re-reads a tile keeps
	// (fixtures/sol-check25's hbScale<0>: 13.3 sectors a request where 4
	// would do, L2 serving 9× DRAM's bytes, 2.7× once the excess is left
	// out; its coalesced twin ran 0.85 faster with no tile): the
	// threshold is held against the reuse left.
	kept := 1.0 // unknown or coalesced: no index change removes sectors
	if x := p.Kernel.Model.GlobalLoad; x != nil && x.IdealSectorsPerRequest > 0 && x.SectorsPerRequest > x.IdealSectorsPerRequest {
		kept = coalescedShare(x.IdealSectorsPerRequest, x.SectorsPerRequest)
	}
	if reuse*kept < p.Thresholds.CacheReuse {
		checkTileL1(p)
		return
	}
	// Re-reads of a thread's own address, a loop loading it again after
	// each store through a pointer that may alias it
	// (fixtures/sol-check14's aliasAcc0: x[i] loaded and y[i] stored
	// at every step), are a register's to keep, not a tile's
	// (alias-reload).
	if w := aliasReloads(p.Kernel); w.removedLoads > 0 && w.removedLoads+w.removedStores >= 0.5*w.global {
		return
	}
	// Re-reads of a walk whose loads take their addresses from values
	// loads of their loop returned (a tree's top levels, which every
	// query's descent rereads through L2: fixtures/sol-check18's
	// treeWalk<1>, L2 serving 55× DRAM's bytes) are where the data
	// leads, not a tile a block could stage: leave them to
	// dependent-loads.
	if chasedShare(p.Kernel) >= 0.5 {
		return
	}
	// A block's tile serves the re-reads of its own threads, which L1,
	// one per SM, catches in part: re-reads that all miss L1 are other
	// blocks' (a table every block reads at its own addresses,
	// fixtures/sol-check7's l2Reuse<0>: 125 reads of each byte through
	// L2, 0.9 % of them L1 hits), and no tile of a block keeps them;
	// but a window's are a tile's (tileWindow).
	perStore, window := 0.0, false
	if hit, ok := p.Value("l1_hit_rate"); ok && hit < 5 {
		if perStore, window = tileWindow(p, reuse); !window {
			return
		}
	}
	// Only if the caches, not the arithmetic, are the limit: or, for a
	// window, the ALU pipe, which each tap's clamps and address keep
	// busy and the tile's fixed offsets do without (vFir65<0>: ALU at
	// 64 %, compute 76 %, memory 72 %; the details page names no pipe).
	if mem, ok := p.Value("memory_throughput_pct"); ok {
		l := p.Kernel.Limiter
		alu := l.Unit == analysis.LimitPipe && (l.Pipe == "ALU" || l.Pipe == "")
		if comp, ok := p.Value("compute_throughput_pct"); ok && comp > mem && !(window && alu) {
			return
		}
	}
	gain := clamp01((1 - 8/reuse) * 0.5 * memoryWeight(p))
	if window {
		g, ok := tileWindowGain(p, perStore)
		if !ok {
			return
		}
		gain = g
	}
	// A naive product whose loads hit L1 waits on the L1 pipe's loads
	// per FMA, not on L2: staged, a one-output-per-thread tile reads
	// the column operand once per FMA, the row operand four values at
	// a time (LDS.128 over k, as every such tile of the bundled sets
	// compiles: 1.25 shared loads per FMA), and fills the tile with
	// two global loads per T FMAs (T = 16).
	//
	// Uncoalesced, each load request keeps the pipe busy for each of
	// its excess sectors' lines as well: its work is its requests times
	// their sectors over the ideal ones (fixtures/sol-check5's
	// gemmNTNaive reads B down a column, 16.5 sectors a request where
	// 2.5 would do: 0.90, its 32×32-tiled twin ran 0.95 faster), which the
	// tile's coalesced fills and shared loads do without.
	if ld, coalesced, ok := l1Loads(p); ok && !window {
		if x := p.Kernel.Model.GlobalLoad; !coalesced && x != nil && x.IdealSectorsPerRequest > 0 && x.SectorsPerRequest > x.IdealSectorsPerRequest {
			ld *= x.SectorsPerRequest / x.IdealSectorsPerRequest
		}
		if r, _, busy, ok := loadsPerFMA(p, ld); ok {
			t, _ := p.Value("duration")
			after := t * stagedLoadsPerFMA / r * busy
			if h := p.Kernel.Limiter.Headroom; h.Known() {
				after = math.Max(after, h.Ideal)
			}
			gain = clamp01(1 - math.Max(after, launchFloor)/t)
		}
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("L2 serves %.0f× the bytes DRAM delivers: each element is re-read about %.0f times through the caches", reuse, reuse),
		Advice:  "stage tiles of the inputs in shared memory (e.g. 16×16 or 32×32 per block) and reuse them from there; each tile of width T cuts L2 reads about T-fold",
		Evidence: p.evidence("l2_read_transactions", "dram_read_bytes", "l1_hit_rate", "arithmetic_intensity",
			"memory_throughput_pct", "compute_throughput_pct"),
		// The global loads the source page shows executed most: the
		// re-read operands.
		Locations: topLines(p, func(op string, _ profan.SourceRecord) bool { return strings.HasPrefix(op, "LDG") }),
	})
}

// checkTileL1 reports a kernel whose reuse L1 serves, not L2: a stencil
// that reads each input from global memory once per tap, the taps of a
// block hitting L1 (fixtures/sol-check5's box7Naive: 49 loads per stored
// output, 94 % of them L1 hits, L2 reading each input about 3.6 times).
// Its loads wait on L1's latency and on each tap's own address
// arithmetic (the clamps of x + dx), and no unit is at its ceiling
// (L1 at 48 %, the SM at 62 %). Staged in shared memory, the taps are as
// many shared loads through the same pipe, at immediate offsets: the
// kernel keeps the L1/shared pipe's work and its DRAM and L2 traffic, and
// runs as fast as the busiest of them allows (box7Naive 0.46, its shared
// twin 0.38 faster, L1/shared at 82 %). Only coalesced loads (a window's
// shifted taps count as such): an uncoalesced one is uncoalesced-global's.
func checkTileL1(p *Pass) {
	ld, okL := p.Value("global_load_requests")
	st, okS := p.Value("global_store_requests")
	hit, okH := p.Value("l1_hit_rate")
	if !okL || !okS || !okH || !(st > 0) || hit < 80 {
		return
	}
	// L1's hits would be local memory's as well: local-memory's.
	for _, n := range []string{"local_load_sectors", "local_store_sectors"} {
		if v, ok := p.Value(n); ok && v > 0 {
			return
		}
	}
	// Loads of a word every lane of the warp shares (a broadcast, one
	// sector a request: a table of fixed weights every thread re-reads)
	// cost the L1 pipe what a shared load of it would, one wavefront, at
	// immediate offsets of one address: a tile makes them no cheaper, and
	// their re-reads are invariant-work's or uniform-load's
	// (fixtures/sol-check23's logPrior<0>: 64 loads a thread of the same
	// 64 weights, 66 loads a stored element, 90 % L1 hits; its fix, the
	// log-partition computed once on the host, ran 0.82 faster).
	ld *= 1 - broadcastLoadShare(p.Kernel)
	perStore := ld / st
	if perStore < p.Thresholds.CacheReuse {
		return
	}
	if x := p.Kernel.Model.GlobalLoad; uncoalescedSpace(p, x, "gld", 0) {
		in, ok := worstInstruction(p.Kernel, "global", "load")
		if !ok || x.Pattern.Kind != gpumodel.Misaligned || !shiftedWindow(p.Kernel, in) {
			return
		}
	}
	// A kernel the L1/shared pipe limits keeps that pipe's work for its
	// taps, as shared loads: it gains only the wavefronts the tile takes
	// off it (tileL1Gain).
	l1Held := p.Kernel.Limiter.Unit == analysis.LimitL1Shared
	if l1Held {
		if g, ok := tileL1Gain(p, ld, st, perStore); !ok || g < tileL1MinGain {
			return
		}
	}
	// A kernel its floating-point arithmetic holds (a compute pipe
	// limits it, and its speed of light is its FLOPs, or the busiest
	// pipe is a floating-point one) waits on that arithmetic: its
	// re-reads already hit L1, and a shared tile removes only the taps'
	// loads and address arithmetic, not its math (fixtures/sol-check13's
	// bilat1d<double>: 17 loads a store, 90 % of them L1 hits, compute
	// at 82 %, the FP64 pipe the busiest; its fix, the weights in float,
	// ran 0.63 faster with the same loads). box7Naive's taps, whose
	// clamps keep the ALU pipe and the issue slots busy, are the tile's.
	if l := p.Kernel.Limiter; l.Unit == analysis.LimitPipe && flopHeld(l) {
		return
	}
	gain := leftBy(p, analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared)
	if l1Held {
		gain, _ = tileL1Gain(p, ld, st, perStore)
	}
	if t, ok := p.Value("duration"); ok && t > 0 {
		gain = math.Min(gain, 1-launchFloor/t)
	}
	if h := p.Kernel.Limiter.Headroom; h.Known() {
		gain = math.Min(gain, h.Share)
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("global loads read %.0f times per stored element, %.0f%% of them hitting L1: each input is re-read about %.0f times through L1, a load and its address arithmetic each time",
			perStore, hit, perStore),
		Advice: "stage the block's inputs (with their halo) in shared memory once and read the taps from there at fixed offsets; the loads become shared loads through the same pipe, without their per-tap address arithmetic or L1's latency",
		Evidence: p.evidence("global_load_requests", "global_store_requests", "l1_hit_rate", "l1_sol_pct",
			"memory_throughput_pct", "compute_throughput_pct"),
		Locations: topLines(p, func(op string, _ profan.SourceRecord) bool { return strings.HasPrefix(op, "LDG") }),
	})
}

// tileL1MinGain is the least gain tileL1Gain must find for a kernel the
// L1/shared pipe limits to be told to tile: below it the tile moves the
// same wavefronts through the same pipe.
const tileL1MinGain = 0.05

// tileL1Gain prices the shared tile of a kernel the L1/shared pipe
// limits by that pipe's data wavefronts. Each global load request takes
// a wavefront per four sectors it moves through L1 (a window's taps
// straddling lines, 4.9 sectors a request, take 1.2); from the tile each
// tap is one shared wavefront (a warp's taps are consecutive words, no
// bank twice), and the tile's fill adds, per stored element, a coalesced
// load and a shared store of the block's elements and its halo (taps −
// 1 elements a block). The pipe's time scales with its wavefronts. The
// SM's busiest pipe keeps its work, and the load-store unit a request a
// tap, the fill's added: the kernel runs no faster than that either
// (compute's share of its time, as busy, scaled by the requests), nor
// than its speed of light (fixtures/sol-check28's firTap63<0>: 63 taps
// from global, 97 % L1 hits, L1/shared at 85 % and compute at 71 %;
// data-pipe wavefronts 162 M, its tiled twin's 147 M, and that twin
// ran 0.105 faster: 0.13 here, where the wavefronts alone say 0.14).
// ld and st are the global load and store requests, perStore the loads
// a stored element; ok is false without the counts it reads.
func tileL1Gain(p *Pass, ld, st, perStore float64) (float64, bool) {
	t, okT := p.Value("duration")
	gld, okL := p.Value("gld_transactions")
	l1, ok1 := p.Value("l1_sol_pct")
	if !okT || !(t > 0) || !okL || !(gld > 0) || !ok1 || !(l1 > 0) || !(st > 0) || !(perStore > 1) {
		return 0, false
	}
	gst, _ := p.Value("gst_transactions")
	block := float64(p.Kernel.Record.Block.Size())
	if !(block > 0) {
		return 0, false
	}
	fill := st * (block + perStore - 1) / block
	before := gld/4 + nzf(gst)/4
	after := ld + 2*fill + nzf(gst)/4
	if !(before > 0) {
		return 0, false
	}
	share := math.Min(1, after/before)
	if comp, ok := p.Value("compute_throughput_pct"); ok && comp > 0 {
		share = math.Max(share, comp/l1*(ld+2*fill+st)/(ld+st))
	}
	end := t * share
	if h := p.Kernel.Limiter.Headroom; h.Known() {
		end = math.Max(end, h.Ideal)
	}
	return clamp01(1 - math.Max(end, launchFloor)/t), true
}

func nzf(v float64) float64 {
	if v != v {
		return 0
	}
	return v
}

// flopHeld reports whether a kernel a compute pipe limits is held by
// floating-point arithmetic: its headroom's unit is a floating-point
// pipe (its ideal is its FLOPs), or the busiest pipe is one.
func flopHeld(l analysis.Limiter) bool {
	switch l.Pipe {
	case "FP64", "FP16", "TENSOR":
		return true
	}
	switch l.Headroom.Unit {
	case "FP32 pipe", "FP64 pipe", "FP16 pipe", "tensor pipe":
		return l.Headroom.Known()
	}
	return false
}

// chasedShare is the share of a kernel's global load requests whose
// address a load of their own loop returned (analysis.Chased).
func chasedShare(a *analysis.Kernel) float64 {
	chased, loads, _ := chasedLoads(a)
	if !(loads > 0) {
		return 0
	}
	return chased / loads
}

// chasedLoads counts a kernel's global load requests and those of them
// whose address a load of their own loop returned, with those loads'
// addresses.
func chasedLoads(a *analysis.Kernel) (chased, loads float64, at []string) {
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" {
			continue
		}
		loads += in.Requests
		if analysis.Chased(a, in.Address) {
			chased += in.Requests
			at = append(at, in.Address)
		}
	}
	return chased, loads, at
}

// broadcastLoadShare is the share of a kernel's global load requests
// (the source page's, each instruction once) whose warp reads addresses
// its lanes share within a sector (gpumodel.Broadcast), not through an
// index loaded from memory; 0 without the source page.
func broadcastLoadShare(a *analysis.Kernel) float64 {
	seen := map[string]bool{}
	var all, bc float64
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" || seen[in.Address] {
			continue
		}
		seen[in.Address] = true
		all += in.Requests
		if in.Pattern.Kind == gpumodel.Broadcast && !in.Indirect {
			bc += in.Requests
		}
	}
	if !(all > 0) {
		return 0
	}
	return bc / all
}

// tileWindow reports whether the re-reads of a kernel that misses L1 are
// a window's (a stencil whose taps run along a grid dimension, so that
// each tap's rows are other blocks': fixtures/sol-check29's vFir65<0>, a
// 65-tap vertical FIR a row block, 65 loads a stored element, L2 serving
// 63× DRAM's bytes, 3.7 % L1 hits), with its coalesced loads a stored
// element (broadcasts left out): each input is re-read about as often
// as each output reads inputs (reuse within twice the loads a store),
// so neighbouring outputs share their inputs and a block of them, tiled,
// keeps the re-reads. A table every thread reads at its own addresses
// is re-read far more often than an output reads (l2Reuse<0>: 8 loads a
// store, each byte read 125 times; sol-check9's l2Win<0>, 249): not a
// window. Strong (volatile) loads are volatile-reread's.
func tileWindow(p *Pass, reuse float64) (float64, bool) {
	ld, okL := p.Value("global_load_requests")
	st, okS := p.Value("global_store_requests")
	if !okL || !okS || !(st > 0) || sassHas(p.Kernel, ".STRONG.") {
		return 0, false
	}
	if x := p.Kernel.Model.GlobalLoad; x == nil || !(x.IdealSectorsPerRequest > 0) || x.SectorsPerRequest > x.IdealSectorsPerRequest {
		return 0, false
	}
	perStore := ld * (1 - broadcastLoadShare(p.Kernel)) / st
	return perStore, perStore >= p.Thresholds.CacheReuse && reuse <= 2*perStore
}

// tileWindowGain prices a window's shared tile by what it removes: the
// taps' global loads, each a request through the load-store unit with
// its clamps and 64-bit address on the ALU pipe, become one shared
// wavefront a tap at a fixed offset, the fill adding a coalesced load and
// a shared store of the block's elements and its halo (tileL1Gain's
// count). The kernel then runs as fast as the L1/shared pipe moves those
// wavefronts at its ceiling, its time now scaled by them over the global
// loads' (four sectors a wavefront), floored by what remains to issue
// (its FP32 instructions, a shared load a tap, the fill and the stores)
// and by its speed of light. vFir65<0>, fitted after sol-check29's
// first read: L1/shared at 24.5 % of 1.13 ms for 69 M wavefronts, 72 M
// tiled: 0.72 (measured 0.72; its twin, L1/shared at 95 %).
func tileWindowGain(p *Pass, perStore float64) (float64, bool) {
	t, okT := p.Value("duration")
	ld, _ := p.Value("global_load_requests")
	st, _ := p.Value("global_store_requests")
	gld, okL := p.Value("gld_transactions")
	l1, ok1 := p.Value("l1_sol_pct")
	block := float64(p.Kernel.Record.Block.Size())
	if !okT || !(t > 0) || !okL || !(gld > 0) || !ok1 || !(l1 > 0) || !(block > 0) || !(perStore > 1) {
		return 0, false
	}
	gst, _ := p.Value("gst_transactions")
	fill := st * (block + perStore - 1) / block
	before := gld/4 + nzf(gst)/4
	after := ld + 2*fill + nzf(gst)/4
	end := t * l1 / 100 / ceiling[analysis.LimitL1Shared] * after / before
	if sp := p.Kernel.Spec; sp != nil && sp.SMs > 0 && sp.CoresPerSM > 0 && sp.SMClockMHz > 0 {
		fp32 := 0.0
		for _, s := range instructions(p.Kernel) {
			switch op, _, _ := strings.Cut(opcode(s.SASS), "."); op {
			case "FADD", "FMUL", "FFMA":
				fp32 += instExecuted(s)
			}
		}
		rate := float64(sp.SMs) * float64(sp.CoresPerSM) / 32 * sp.SMClockMHz * 1e6 * attainable
		end = math.Max(end, (fp32+ld+2*fill+st)/rate)
	}
	if h := p.Kernel.Limiter.Headroom; h.Known() {
		end = math.Max(end, h.Ideal)
	}
	return clamp01(1 - math.Max(end, launchFloor)/t), true
}
