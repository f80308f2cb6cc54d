package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
)

var tailWaste = share("tail_waste")

// smallGrid reports launches that leave SMs idle.
var smallGrid = &Rule{
	ID:    "small-grid",
	Title: "Too few blocks for the GPU",
	Text: `A block runs on one SM. A grid with fewer blocks than SMs leaves SMs idle for
the whole kernel, and a grid whose last wave fills only part of the GPU leaves
SMs idle at the end. Launch at least a few blocks per SM (grid-stride loops keep
the code independent of the size), or size blocks so the waves come out even.`,
	Before: `kernel<<<4, 128>>>(data, n);`,
	After: `int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
kernel<<<4 * sms, 256>>>(data, n);   // grid-stride loop inside`,
	Severity:   profan.Warning,
	Cause:      CauseLaunch,
	Scope:      Source,
	Library:    moreWork,
	Thresholds: []*Threshold{tailWaste},
	Requires:   []string{"sm_count|waves_per_sm"},
	Optional: join(tailReads, []string{"sm_count", "achieved_occupancy",
		"occupancy_limit_registers", "occupancy_limit_shared_mem", "occupancy_limit_warps", "occupancy_limit_blocks"}),
	Check: func(p *Pass) {
		k := p.Kernel.Record
		sms, okS := p.Value("sm_count")
		blocks := float64(k.Grid.Size())
		if okS && blocks > 0 && blocks < sms {
			advice, locs := smallGridAdvice(p, sms)
			p.report(estimate(gridGain(p, launchFill(p))), Note{
				Message:   fmt.Sprintf("the grid has %s for %s: %.0f%% of the SMs have nothing to do", metrics.Count(blocks, "block"), metrics.Count(sms, "SM"), 100*(1-blocks/sms)),
				Advice:    advice,
				Evidence:  append(p.evidence("sm_count", "waves_per_sm"), fmt.Sprintf("grid_blocks=%.0f", blocks)),
				Locations: locs,
			})
			return
		}
		w, _, _ := wavesOf(p)
		if !(w > 0) || w >= 8 {
			return
		}
		// A kernel whose barriers are as many as its float arithmetic
		// waits at them, not for want of warps: more blocks of the same
		// steps would wait alike, and its grid may be what it needs
		// (fixtures/sol-check16's colGemv<0>, a row a thread, 256 blocks
		// at 0.24 waves, two barriers an FFMA: barrier-stalls').
		if _, dense := denseBarriers(p.Kernel); dense {
			return
		}
		full := math.Ceil(w)
		waste := (full - w) / full
		if w < 1 {
			waste = 1 - w
		}
		if waste < p.Thresholds.TailWaste {
			return
		}
		gain := tailGain(p, waste)
		// The threshold was fitted on SMs' slots that pipes keep busy
		// (fixtures/sol's waveMap: 3·SMs blocks of two an SM, a quarter
		// of the slots idle, ran 0.02 slower than whole waves). A tail
		// of a kernel that memory limits shares the one memory system
		// with the blocks before it, each getting the bandwidth the
		// finished ones left: its idle slots are not idle time, and the
		// time its model prices (the tail's blocks at a full wave's rate
		// each) is the bound. L1 and shared memory are each SM's own,
		// and idle with its slots. Under the threshold too, the tail is not a
		// lever (fixtures/sol-check15's rowMinMax<0>: 1024 blocks of six
		// an SM, 1.29 waves, L2 at 89 %: 0.03).
		if u := p.Kernel.Limiter.Unit; (u == analysis.LimitDRAM || u == analysis.LimitL2 || u == analysis.LimitMemory) && w >= 1 && gain < p.Thresholds.TailWaste {
			return
		}
		// A kernel one of its SMs' own units holds (a pipe, or its L1
		// and shared memory), whose tail still gives every SM a block,
		// keeps each SM's unit busy through the tail: the idle slots
		// are not idle unit time, and what tailGain prices is the
		// tail's imbalance of a block an SM, under the threshold no
		// lever either (fixtures/sol-check22's toneDet<0>: 1024 blocks
		// of six an SM on 132 SMs, 1.29 waves, the tail's 232 blocks on
		// every SM, the XU pipe at 90 %: 0.03; sol-check24's linH<0>,
		// the same grid, L1/shared at 78 % with its FFMA tiles: 0.03,
		// and the fix, tensor cores, keeps the grid).
		if u := p.Kernel.Limiter.Unit; u == analysis.LimitPipe || u == analysis.LimitL1Shared {
			if w2, perSM, exact := wavesOf(p); exact && w2 >= 1 && gain < p.Thresholds.TailWaste {
				if sms, ok := p.Value("sm_count"); ok && float64(k.Grid.Size())-math.Floor(w2)*perSM*sms >= sms {
					return
				}
			}
		}
		p.report(estimate(gain), Note{
			Message:  fmt.Sprintf("%.2f waves per SM: the last wave leaves %.0f%% of the GPU's slots idle", w, waste*100),
			Advice:   "change the block count or size so the grid fills whole waves, or launch more, smaller blocks",
			Evidence: p.evidence("waves_per_sm", "sm_count", "achieved_occupancy"),
		})
	},
}

// smallGridAdvice is the fix of a grid under the SMs' count: in CUDA more
// blocks; for a Triton kernel in Triton's terms at its .py line (the
// product's tl.dot where the kernel runs tensor-core MMAs, else the
// kernel's first line): more programs, from smaller tiles or, for a
// product whose tiles are few and K long, split-K (fixtures/sol-check17's
// mm_skinny: a 256x256 product from K = 65536 on 2x2 programs of
// 128x128 tiles; split-K over 64 programs a tile, the partial tiles
// summed by tl.atomic_add, ran 0.94 faster).
func smallGridAdvice(p *Pass, sms float64) (string, []profan.Location) {
	k := p.Kernel.Record
	file, line, ok := tritonKernel(k)
	if !ok {
		return fmt.Sprintf("launch at least %.0f blocks (several per SM), with a grid-stride loop if the work is small per block", 2*sms), nil
	}
	if mma := topLines(p, func(op string, _ profan.SourceRecord) bool { return tensorMMA(op) }); len(mma) > 0 && strings.HasSuffix(mma[0].File, ".py") {
		return fmt.Sprintf("launch %.0f programs or more: smaller tiles (BLOCK_SIZE_M and BLOCK_SIZE_N of 64, or whatever names the tile's sizes have) where the output has enough of them, else split-K: a SPLIT_K axis in the grid, each program a K range, its partial tile added to the fp32 output with tl.atomic_add (or summed by a second kernel); num_warps=4 to 8 each, or let @triton.autotune choose among such configs", 2*sms),
			mma[:1]
	}
	return fmt.Sprintf("launch %.0f programs or more: a smaller BLOCK_SIZE (grid = triton.cdiv(n, BLOCK_SIZE)) with num_warps=4 to 8 each, or let @triton.autotune choose among such configs", 2*sms),
		[]profan.Location{{File: file, Line: line}}
}

// tensorMMA reports whether a SASS opcode is a tensor-core product
// (HMMA, HGMMA, IMMA, DMMA, ...).
func tensorMMA(op string) bool {
	base, _, _ := strings.Cut(op, ".")
	return strings.HasSuffix(base, "MMA")
}
