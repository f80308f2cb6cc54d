package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
)

var occupancyGap = share("occupancy_gap")

// lowOccupancy reports kernels whose achieved occupancy is far below what
// the launch allows, or whose launch allows few warps because of its
// registers or shared memory while the kernel waits on latency.
var lowOccupancy = &Rule{
	ID:    "low-occupancy",
	Title: "Low occupancy",
	Text: `Occupancy is the share of an SM's warp slots in use. Memory latency is hidden by
switching among warps, so a kernel that waits on memory moves bytes in proportion
to the warps it keeps in flight. The theoretical occupancy is limited by
registers per thread, shared memory per block (static and the dynamic size
passed at launch) or block size; achieved occupancy falls below it when blocks
are unbalanced or the grid is short.`,
	Before:     `k<<<grid, 256, 200 * 1024>>>(...);   // 200 KiB of shared memory: one block per SM`,
	After:      `k<<<grid, 256, 16 * 1024>>>(...);    // what the block uses: eight blocks per SM`,
	Severity:   profan.Warning,
	Cause:      CauseLaunch,
	Scope:      Source,
	Thresholds: []*Threshold{occupancyGap},
	Requires:   []string{"achieved_occupancy"},
	Optional: join(usageReads, memoryWeightReads, []string{"theoretical_occupancy", "sm_count", "waves_per_sm", "duration",
		"occupancy_limit_registers", "occupancy_limit_shared_mem", "occupancy_limit_warps", "occupancy_limit_blocks"}),
	Check: func(p *Pass) {
		// A grid with fewer blocks than SMs cannot fill them: small-grid
		// names that cause.
		if sms, ok := p.Value("sm_count"); ok && p.Kernel.Record.Grid.Known() && float64(p.Kernel.Record.Grid.Size()) < sms {
			return
		}
		ach, _ := p.Value("achieved_occupancy")
		theo, okT := p.Value("theoretical_occupancy")
		if b, ok := bindingLimit(p); ok && okT && theo > 0 && theo < 1 {
			reportOccupancyLimit(p, b, theo, ach)
			return
		}
		// Nor can a grid under one wave reach the theoretical occupancy
		// (fixtures/sol-check5's nbody<1>: four blocks on each SM where
		// eight fit, achieved 36 % of 100 %): small-grid prices that
		// grid, by its SMs' blocks.
		if w, _, exact := wavesOf(p); exact && w < 1 {
			return
		}
		// Nor a grid whose blocks retire as fast as the SMs start them
		// (blockCost a block an SM, tiny-blocks' rate): its warps finish
		// before the next blocks arrive, and more work a block, not
		// balance or more blocks, fills the slots (fixtures/sol-check24's
		// u8inv_b128_w4, a byte a thread in 128-thread programs: 79 ns a
		// block an SM, 34 % achieved of 100 %; its 4096-byte programs,
		// 254 ns a block, 85 %).
		if blockStarts(p) {
			return
		}
		if okT && theo > 0 && ach < p.Thresholds.OccupancyGap*theo {
			// More warps in flight change no unit's work: the busiest
			// unit's load bounds the gain.
			p.report(estimate(math.Min(clamp01((theo-ach)/theo*0.5*memoryWeight(p)), leftBy(p, modelUnits...))), Note{
				Message:  fmt.Sprintf("achieved occupancy %.0f%% is far below the theoretical %.0f%%: warps finish unevenly or the grid is too short to fill the SMs", ach*100, theo*100),
				Advice:   "balance the work across blocks and launch enough blocks for several waves",
				Evidence: p.evidence("achieved_occupancy", "theoretical_occupancy", "waves_per_sm"),
			})
		}
	},
}

// blockStarts reports a launch whose blocks' starts, blockCost a block
// an SM, are nine tenths of its time or more: the SMs start blocks as
// fast as they can and the blocks retire as fast.
func blockStarts(p *Pass) bool {
	sms, okS := p.Value("sm_count")
	t, okT := p.Value("duration")
	blocks := float64(p.Kernel.Record.Grid.Size())
	return okS && okT && sms > 0 && t > 0 && p.Kernel.Record.Grid.Known() && blocks/sms*blockCost >= 0.9*t
}

// occupancyLimit is what binds a launch's blocks per SM, and what the other
// limits would allow without it.
type occupancyLimit struct {
	what   string  // "registers", "shared memory", "block size (warps)", "blocks per SM"
	blocks float64 // blocks per SM it allows
	next   float64 // blocks per SM the other limits allow
	nextBy string  // which of them
}

// occupancyLimits are the occupancy limits bindingLimit weighs, each
// with what sets it.
var occupancyLimits = []struct{ metric, what string }{
	{"occupancy_limit_registers", "registers"},
	{"occupancy_limit_shared_mem", "shared memory"},
	{"occupancy_limit_warps", "block size (warps)"},
	{"occupancy_limit_blocks", "blocks per SM"},
}

// bindingLimitReads are the metrics bindingLimit reads, for the
// Optional of a rule that calls it.
var bindingLimitReads = func() (m []string) {
	for _, c := range occupancyLimits {
		m = append(m, c.metric)
	}
	return m
}()

// bindingLimit names the smallest of the occupancy limits, when one binds
// alone.
func bindingLimit(p *Pass) (occupancyLimit, bool) {
	var ls []occupancyLimit
	for _, c := range occupancyLimits {
		if v, ok := p.Value(c.metric); ok && v > 0 {
			ls = append(ls, occupancyLimit{what: c.what, blocks: v})
		}
	}
	if len(ls) == 0 {
		return occupancyLimit{}, false
	}
	b := ls[0]
	for _, l := range ls[1:] {
		if l.blocks < b.blocks {
			b = l
		}
	}
	b.next = math.Inf(1)
	for _, l := range ls {
		if l.what != b.what && l.blocks < b.next {
			b.next, b.nextBy = l.blocks, l.what
		}
	}
	return b, true
}

// reportOccupancyLimit reports a launch whose registers or shared memory
// bind its warps per SM. A kernel that waits on latency moves bytes in
// proportion to the warps it keeps in flight: with the limit lifted, the
// other limits allow next/blocks times the warps, and the time shrinks by
// that factor until its busiest unit saturates (the launch-fill model of
// small-grid, with the soft maximum of the units' loads). Measured on fixtures/classes: a copy asking 32 to 200 KiB
// of shared memory per block it does not use.
func reportOccupancyLimit(p *Pass, b occupancyLimit, theo, ach float64) {
	if b.what != "registers" && b.what != "shared memory" || math.IsInf(b.next, 1) || b.next <= b.blocks {
		return
	}
	// Only a kernel that waits (no unit at the bound) moves more with
	// more warps; one whose unit is busy keeps its time.
	if p.Kernel.Limiter.Unit != analysis.LimitLatency {
		return
	}
	// Nor one whose units are busy while its SMs work: a grid a little
	// over whole waves (fixtures/sol-check15's bigTail<1>: 136 blocks of
	// one an SM on 132 SMs, its FP32 pipe at 44 % over the kernel and so
	// at 85 % in the waves that fill the GPU) reads latency-bound only
	// through its tail's idle SMs; more warps an SM would not run the
	// full wave faster, and the tail is small-grid's.
	if us, ok := usageOf(p); ok && us.peak()*busyShare(p) >= streamLine {
		return
	}
	after := math.Min(1, theo*b.next/b.blocks)
	gain := math.NaN()
	if t, ok := p.Value("duration"); ok && t > 0 {
		g := theo / after
		if us, ok := usageOf(p); ok {
			// The soft maximum of the time model: a launch near its
			// busiest unit's ceiling gains less than its warps say.
			g = math.Pow(math.Pow(g, contention)+math.Pow(math.Min(1, us.busiest()), contention), 1/contention)
		}
		g = math.Max(g, math.Min(1, launchFloor/t))
		gain = clamp01(1 - g)
	}
	if !(gain >= p.Thresholds.MinGain) {
		return
	}
	msg := fmt.Sprintf("theoretical occupancy %.0f%% (achieved %.0f%%): %s limit%s it to %.0f block%s per SM, where %s would allow %.0f (occupancy %.0f%%); the kernel waits on latency, and more warps in flight would move more bytes at once",
		theo*100, ach*100, b.what, map[bool]string{true: "s", false: ""}[b.what != "registers"], b.blocks, map[bool]string{true: "", false: "s"}[b.blocks == 1], b.nextBy, b.next, after*100)
	var advice string
	if b.what == "shared memory" {
		dyn, okD := p.Kernel.Record.Value("launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block")
		st, okS := p.Kernel.Record.Value("launch__shared_mem_per_block_static", "Static Shared Memory Per Block")
		if okD || okS {
			msg += fmt.Sprintf("; each block asks %s of shared memory (%s static, %s dynamic)", kib(nz0(dyn)+nz0(st)), kib(nz0(st)), kib(nz0(dyn)))
		}
		advice = "ask for less shared memory per block: pass the dynamic size the block uses at launch (the third <<<>>> argument), shrink the tiles or buffers, or keep per-thread data in registers"
		if capa, ok := p.Kernel.Record.Value("device__attribute_max_shared_memory_per_multiprocessor", "Shared Memory Configuration Size"); ok && capa > 0 {
			res, _ := p.Kernel.Record.Value("device__attribute_reserved_shared_memory_per_block", "Driver Shared Memory Per Block")
			want := math.Min(b.next, b.blocks*2)
			if fit := capa/want - nz0(res); fit > 0 {
				advice += fmt.Sprintf("; at most %s per block fits %s per SM", kib(fit), metrics.Count(want, "block"))
			}
		}
	} else {
		advice = "cap the registers per thread (__launch_bounds__(threads, minBlocksPerSM) or -maxrregcount), or keep fewer values live (recompute, or move large per-thread arrays to shared memory), so more blocks fit per SM"
		if r, ok := p.Kernel.Record.Value("launch__registers_per_thread", "Registers Per Thread"); ok && r > 0 {
			msg += fmt.Sprintf("; %.0f registers per thread", r)
		}
	}
	// A grid too short to give every SM the blocks the other limits allow
	// gains only if it grows too: lifting the limit alone leaves the SMs
	// with the blocks they have.
	if sms, ok := p.Value("sm_count"); ok && sms > 0 && p.Kernel.Record.Grid.Known() {
		if n := float64(p.Kernel.Record.Grid.Size()); n < b.next*sms {
			advice += fmt.Sprintf("; and launch more blocks: the grid's %s give the %s %.1f each, where %.0f per SM need at least %.0f (smaller blocks, or less work per thread)", metrics.Count(n, "block"), metrics.Count(sms, "SM"), n/sms, b.next, b.next*sms)
		}
	}
	p.report(estimate(gain), Note{
		Message:  msg,
		Advice:   advice,
		Evidence: p.evidence("achieved_occupancy", "theoretical_occupancy", "occupancy_limit_registers", "occupancy_limit_shared_mem", "occupancy_limit_warps", "occupancy_limit_blocks"),
	})
}

// busyShare is the factor from a launch's units' loads over its whole
// time to their loads while its SMs work: ceil(w)/w for a latency-bound
// grid of w waves (its tail runs a wave's time on fewer SMs), 1 without
// exact waves or with whole ones.
func busyShare(p *Pass) float64 {
	w, _, exact := wavesOf(p)
	if !exact || !(w > 1) || w >= 8 {
		return 1
	}
	return math.Ceil(w) / w
}

func nz0(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	return v
}

// kib writes a byte count in KiB.
func kib(b float64) string {
	if b < 1024 {
		return fmt.Sprintf("%.0f B", b)
	}
	return fmt.Sprintf("%.0f KiB", math.Floor(b/1024))
}
