package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// blockCost is the time an SM takes to start one block and retire it when
// the block does almost nothing: the rate at which the GPU hands out
// blocks. Measured on an H200 (fixtures/sol): a copy in 32- and 64-thread
// blocks and Triton programs of one warp all took 79–80 ns per block per
// SM, whatever the block's work (32 to 128 elements).
const blockCost = 80e-9

// blockTarget is the threads per block the fix asks for.
const blockTarget = 256

// tinyBlocks reports grids of many small blocks: an SM starts blocks at a
// fixed rate and holds at most its block limit (32 on Hopper) at once, so
// blocks of one or two warps cap both the rate of work and the occupancy.
var tinyBlocks = &Rule{
	ID:    "tiny-blocks",
	Title: "Blocks too small for the GPU",
	Text: `An SM starts blocks at a fixed rate (about one every 80 ns on an H200) and holds at
most 32 at once. A grid of blocks of one or two warps that each do a little work is
limited by how fast blocks start, and its occupancy by the block limit (32 blocks of
32 threads fill half an SM's warp slots). Give each block more threads (128 to 256),
or each thread more elements; in Triton, a larger BLOCK_SIZE and num_warps.`,
	Before: `scale<<<n / 32, 32>>>(out, in, n);                 // or, in Triton:
add_kernel[(triton.cdiv(n, 32),)](x, y, out, n, BLOCK_SIZE=32, num_warps=1)`,
	After: `scale<<<n / 256, 256>>>(out, in, n);
add_kernel[(triton.cdiv(n, 4096),)](x, y, out, n, BLOCK_SIZE=4096, num_warps=8)`,
	Severity: profan.Warning,
	Cause:    CauseLaunch,
	Scope:    Source,
	Requires: []string{"sm_count", "duration"},
	Optional: join(usageReads, []string{"occupancy_limit_blocks", "occupancy_limit_registers", "occupancy_limit_warps", "occupancy_limit_shared_mem", "theoretical_occupancy"}),
	Check: func(p *Pass) {
		k := p.Kernel.Record
		threads, blocks := float64(k.Block.Size()), float64(k.Grid.Size())
		sms, _ := p.Value("sm_count")
		t, _ := p.Value("duration")
		if threads <= 0 || threads >= 128 || blocks <= 0 || sms <= 0 || !(t > 0) {
			return
		}
		if h := p.Kernel.Limiter.Headroom; h.Known() && h.Share < verdict.Notable {
			// At its speed of light the blocks start while the unit that
			// limits it works: larger ones would wait on it as long
			// (fixtures/sol-check10's rowsum_w1, 32768 one-warp programs
			// with DRAM at 86 % of its peak, 8 % of its time headroom:
			// its eight-warp twin ran 10 % slower).
			return
		}
		starts := blocks / sms * blockCost
		if starts < startsHeld*t {
			if !tinyDotTiles(p, threads, blocks, t) {
				tinyBlockCap(p, threads, blocks, t)
			}
			return // the blocks' work, not their start, sets the time
		}
		// With blockTarget threads per block, the same work in fewer
		// blocks: the time falls to the larger of their starts and the
		// kernel's speed of light.
		after := starts * threads * workShare(p.Kernel) / blockTarget
		_, _, triton := tritonKernel(k)
		if w, share := narrowWidth(p); triton && w > 0 && w < 16 && share >= 0.5 {
			// Triton spreads a program's BLOCK_SIZE elements over its
			// threads and moves a thread's contiguous ones in one access
			// of up to 16 bytes: the advised program (BLOCK_SIZE of 1024
			// or more on 4 to 8 warps) holds 16 bytes a thread an access
			// where this one holds w, so it starts as many times fewer
			// programs again (fixtures/sol-check10's addbf_b64_w2: 64
			// bf16 on 64 threads, 2 bytes a thread; its BLOCK_SIZE=2048
			// twin ran at its DRAM speed of light, 0.86 faster).
			after *= w / 16
		}
		if h := p.Kernel.Limiter.Headroom; h.Known() {
			after = math.Max(after, h.Ideal)
		}
		if us, ok := usageOf(p); ok && !triton {
			// A CUDA block made larger runs each thread's code as before:
			// the SM's pipes keep the work of the lanes that ran, at no
			// more than their ceiling (fixtures/sol-check6's gammaImg<8, 4>:
			// its powf at 15 % of the SM's peak in 1,263 µs, the 32×8 twin
			// at 68 % in 285 µs).
			lanes := threads / (32 * math.Ceil(threads/32))
			after = math.Max(after, t*us[analysis.LimitPipe]*lanes/ceiling[analysis.LimitPipe])
		}
		gain := clamp01(1 - math.Max(after, launchFloor)/t)
		msg := fmt.Sprintf("%s of %s: at about %.0f ns per block an SM starts them in %.0f%% of the kernel's time", metrics.Count(blocks, "block"), metrics.Count(threads, "thread"), blockCost*1e9, 100*math.Min(1, starts/t))
		if lim, ok := p.Value("occupancy_limit_blocks"); ok && lim > 0 {
			msg += fmt.Sprintf(", and %s per SM %s %s", metrics.Count(lim, "block"), metrics.Agree(lim, "holds", "hold"), metrics.Count(lim*math.Ceil(threads/32), "warp"))
		}
		advice := fmt.Sprintf("give each block %d threads or more (or each thread more elements, with a grid-stride loop)", blockTarget)
		var locs []profan.Location
		if file, line, ok := tritonKernel(k); ok {
			warps := math.Ceil(threads / 32)
			advice = fmt.Sprintf("raise the program size: BLOCK_SIZE of 1024 or more and num_warps=4 to 8 (now %.0f warp(s) per program), or let @triton.autotune choose among such configs (with num_stages for loads in loops)", warps)
			locs = []profan.Location{{File: file, Line: line}}
		}
		p.report(estimate(gain), Note{
			Message:   msg,
			Advice:    advice,
			Evidence:  append(p.evidence("sm_count", "duration", "occupancy_limit_blocks"), fmt.Sprintf("grid_blocks=%.0f", blocks), fmt.Sprintf("block_threads=%.0f", threads)),
			Locations: locs,
		})
	},
}

// startsHeld is the share of a kernel's time its block starts take
// (blockCost a block an SM) from which they, not the blocks' work, set
// its time.
const startsHeld = 0.5

// startsShare is the share of the kernel's time the SMs take to start its
// blocks of under 128 threads at blockCost each (0 for larger blocks, or
// without the SM count or the duration).
func startsShare(p *Pass) float64 {
	k := p.Kernel.Record
	threads, blocks := float64(k.Block.Size()), float64(k.Grid.Size())
	sms, _ := p.Value("sm_count")
	t, _ := p.Value("duration")
	if threads <= 0 || threads >= 128 || !(blocks > 0) || !(sms > 0) || !(t > 0) {
		return 0
	}
	return blocks / sms * blockCost / t
}

// tinyDotTiles reports a product on the tensor pipe (its speed of light
// set by the tensor pipe's work, or the source page's MMA instructions) in blocks under 64 threads that the
// memory system limits: each block's output tile is as small as its
// warp, so every operand tile it loads serves few outputs, and the
// L1/shared and L2 traffic per FLOP is the tile's side's inverse. The
// blocks start fast enough (fixtures/sol-check6's matmul_b16_w1: 16 Ki
// one-warp programs of 16×16×16, starts 2 % of its time, L1/shared at
// 94 %, the tensor pipe at 5 %); their size limits the reuse. A block of
// blockTarget threads holds a tile as many times wider on each side as
// it has threads more (Triton's 16×16 on one warp to 128×128 on eight,
// the accumulators per thread 8 → 64), so the memory traffic, and with
// it the time, falls by that factor down to the tensor pipe's ideal.
func tinyDotTiles(p *Pass, threads, blocks, t float64) bool {
	k := p.Kernel.Record
	lim := p.Kernel.Limiter
	h := lim.Headroom
	if threads >= 64 || !lim.Unit.Memory() || !(h.Known() && h.Unit == "tensor pipe" || mmaExecuted(k)) {
		return false
	}
	after := math.Max(t*threads/blockTarget, launchFloor)
	if h.Known() {
		after = math.Max(after, h.Ideal)
	}
	gain := clamp01(1 - after/t)
	msg := fmt.Sprintf("%s of %s multiply on the tensor pipe, %s-bound: a block's output tile is as small as its warp, so each operand tile it loads serves few outputs", metrics.Count(blocks, "block"), metrics.Count(threads, "thread"), lim.String())
	advice := fmt.Sprintf("compute a larger output tile per block (128×128 with %d threads) so each loaded tile serves more outputs, or call cuBLAS/CUTLASS", blockTarget)
	var locs []profan.Location
	if file, line, ok := tritonKernel(k); ok {
		advice = fmt.Sprintf("raise the program's tile: BLOCK_SIZE_M = BLOCK_SIZE_N = 128 and BLOCK_SIZE_K = 32 (the tile's sizes, whatever their names) with num_warps=4 to 8 and num_stages=3 (now %.0f warp(s) per program), or let @triton.autotune choose among such configs", math.Ceil(threads/32))
		locs = []profan.Location{{File: file, Line: line}}
	}
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  append(p.evidence("sm_count", "duration"), fmt.Sprintf("grid_blocks=%.0f", blocks), fmt.Sprintf("block_threads=%.0f", threads), "limiter="+lim.String(), "headroom_unit="+h.Unit),
		Locations: locs,
	})
	return true
}

// tinyBlockCap reports small blocks whose number per SM, not their
// registers, shared memory or warps, caps the warps an SM holds (32
// blocks on Hopper: 32 one-warp blocks fill half its 64 warp slots), on a
// kernel that waits on memory or latency below its speed of light: the
// warps in flight set its rate, and blocks of blockTarget threads hold
// as many warps as the registers allow. Priced by Little's law, the time
// falling with the warps held, down to the headroom's ideal
// (fixtures/sol-check7's layernorm_b128_w1, a Triton program of one warp:
// 32 blocks, 32 warps, theoretical occupancy 0.50, L2 at 87 %; 0.13, its
// headroom, against a measured 0.37, the rest its second pass over each
// row, which the larger program's whole row in registers drops).
func tinyBlockCap(p *Pass, threads, blocks, t float64) {
	lim := p.Kernel.Limiter
	h := lim.Headroom
	if !h.Known() || !(lim.Unit.Memory() || lim.Unit == analysis.LimitLatency) {
		return
	}
	capB, ok1 := p.Value("occupancy_limit_blocks")
	regB, ok2 := p.Value("occupancy_limit_registers")
	warpB, ok3 := p.Value("occupancy_limit_warps")
	if !ok1 || !ok2 || !ok3 || !(capB > 0) || !(regB > capB) || !(warpB > capB) {
		return // the block limit is not what caps the warps
	}
	if smB, ok := p.Value("occupancy_limit_shared_mem"); ok && smB < capB {
		return
	}
	wpb := math.Ceil(threads / 32)
	held := capB * wpb
	// Registers per thread stay: the registers' limit in warps holds for
	// any block size, as does the SM's warp slots.
	after := math.Min(regB*wpb, warpB*wpb)
	if !(after > held) {
		return
	}
	tAfter := math.Max(t*held/after, math.Max(h.Ideal, launchFloor))
	gain := clamp01(1 - tAfter/t)
	if gain < p.Thresholds.MinGain {
		return
	}
	msg := fmt.Sprintf("%s of %s: an SM holds at most %s, %s of the %.0f its registers and warp slots allow, on a kernel waiting on %s below its speed of light", metrics.Count(blocks, "block"), metrics.Count(threads, "thread"), metrics.Count(capB, "block"), metrics.Count(held, "warp"), after, lim.String())
	advice := fmt.Sprintf("give each block %d threads or more (or each thread more elements, with a grid-stride loop)", blockTarget)
	var locs []profan.Location
	if file, line, ok := tritonKernel(p.Kernel.Record); ok {
		advice = fmt.Sprintf("raise the program size: num_warps=4 to 8 (now %.0f warp(s) per program) with a BLOCK_SIZE to match (a whole row in one program where it fits), or let @triton.autotune choose among such configs", wpb)
		locs = []profan.Location{{File: file, Line: line}}
	}
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  append(p.evidence("sm_count", "duration", "occupancy_limit_blocks", "occupancy_limit_registers", "occupancy_limit_warps", "theoretical_occupancy"), fmt.Sprintf("grid_blocks=%.0f", blocks), fmt.Sprintf("block_threads=%.0f", threads)),
		Locations: locs,
	})
}

// mmaExecuted reports whether the source page shows a tensor-core
// instruction (HMMA, HGMMA, IMMA, DMMA, ...) executed: the product the
// details page, which counts no tensor FLOPs, leaves unnamed.
func mmaExecuted(k *profan.Kernel) bool {
	for _, s := range k.Source {
		if op := opcode(s.SASS); strings.Contains(strings.SplitN(op, ".", 2)[0], "MMA") && instExecuted(s) > 0 {
			return true
		}
	}
	return false
}

// tritonKernel reports whether k was compiled by Triton: its name is a
// Python function's (no parameter list) and its source page's lines are
// a .py file's. It returns the first such line: the function's def.
func tritonKernel(k *profan.Kernel) (file string, line int, ok bool) {
	if strings.ContainsAny(k.DisplayName(), "(<") {
		return "", 0, false
	}
	for _, s := range k.Source {
		if strings.HasSuffix(s.File, ".py") && s.Line > 0 && (line == 0 || s.Line < line) {
			file, line = s.File, s.Line
		}
	}
	return file, line, line > 0
}

// workShare is the share of a block's threads that do work of their own:
// a Triton program smaller than its threads (BLOCK_SIZE=16 on one warp,
// fixtures/sol-check4's silu_b16_w1) gives each element to two threads,
// which load the same bytes, so its blocks carry half the elements a
// block of as many busy threads would. It is the largest share, over the
// kernel's global loads on the source page, of the bytes the threads
// asked for that were distinct (ncu's ideal sectors); 1 without them. A
// broadcast (a scalar every thread loads) has a small share and the
// kernel's streams decide.
func workShare(a *analysis.Kernel) float64 {
	best := 0.0
	for _, s := range instructions(a) {
		if !strings.HasPrefix(opcode(s.SASS), "LDG") {
			continue
		}
		bits, _ := counterValue(s, "access_size_bits")
		ideal, _ := counterValue(s, "memory_l2_theoretical_sectors_global_ideal")
		if thr := predOn(s); thr > 0 && bits > 0 && ideal > 0 {
			best = math.Max(best, ideal*32/(thr*bits/8))
		}
	}
	if !(best > 0) {
		return 1
	}
	return math.Min(1, best)
}

// counterValue is a source record's counter name, when it is a number.
func counterValue(s profan.SourceRecord, name string) (float64, bool) {
	for _, c := range s.Counter {
		if c.Name == name && c.IsNumber() {
			return c.Value, true
		}
	}
	return 0, false
}
