package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
)

// LowOccupancy reports kernels whose achieved occupancy is far below what
// the launch allows, or whose launch allows little.
var LowOccupancy = &Rule{
	ID:    "low-occupancy",
	Title: "Low occupancy",
	Text: `Occupancy is the share of an SM's warp slots in use. Memory latency is hidden by
switching among warps, so a memory-bound kernel with few warps stalls. The
theoretical occupancy is limited by registers per thread, shared memory per
block or block size; achieved occupancy falls below it when blocks are
unbalanced or the grid is short.`,
	Before:   `__global__ void k(...)            // 128 registers per thread`,
	After:    `__global__ void __launch_bounds__(256, 4) k(...)  // cap registers`,
	Severity: profan.Warning,
	Requires: []string{"achieved_occupancy"},
	Optional: join(usageReads, memoryWeightReads, []string{"theoretical_occupancy", "sm_count", "waves_per_sm",
		"occupancy_limit_registers", "occupancy_limit_shared_mem", "occupancy_limit_warps", "occupancy_limit_blocks"}),
	Check: func(p *Pass) {
		// A grid with fewer blocks than SMs cannot fill them: small-grid
		// names that cause.
		if sms, ok := p.Value("sm_count"); ok && p.A.K.Grid.Known() && float64(p.A.K.Grid.Size()) < sms {
			return
		}
		ach, _ := p.Value("achieved_occupancy")
		theo, okT := p.Value("theoretical_occupancy")
		limiter := occupancyLimiter(p)
		switch {
		case okT && theo > 0 && ach < p.T.OccupancyGap*theo:
			// More warps in flight change no unit's work: the busiest
			// unit's load bounds the gain.
			p.Report(Estimate(math.Min(clamp01((theo-ach)/theo*0.5*memoryWeight(p)), leftBy(p, modelUnits...))), Note{
				Message:  fmt.Sprintf("achieved occupancy %.0f%% is far below the theoretical %.0f%%: warps finish unevenly or the grid is too short to fill the SMs", ach*100, theo*100),
				Advice:   "balance the work across blocks and launch enough blocks for several waves",
				Evidence: p.Evidence("achieved_occupancy", "theoretical_occupancy", "waves_per_sm"),
			})
		case okT && theo < 0.5:
			p.Report(Estimate(math.Min(clamp01((0.5-theo)*memoryWeight(p)), leftBy(p, modelUnits...))), Note{
				Message:  fmt.Sprintf("theoretical occupancy is only %.0f%%%s", theo*100, limiter),
				Advice:   "reduce registers per thread (__launch_bounds__, -maxrregcount) or shared memory per block, or change the block size, to fit more warps per SM",
				Evidence: p.Evidence("achieved_occupancy", "theoretical_occupancy"),
			})
		}
	},
}

// occupancyLimiter names what limits the blocks per SM: the smallest of
// the occupancy limits.
func occupancyLimiter(p *Pass) string {
	best, name := math.Inf(1), ""
	for _, c := range []struct{ metric, what string }{
		{"occupancy_limit_registers", "registers"},
		{"occupancy_limit_shared_mem", "shared memory"},
		{"occupancy_limit_warps", "block size (warps)"},
		{"occupancy_limit_blocks", "blocks per SM"},
	} {
		if v, ok := p.Value(c.metric); ok && v < best {
			best, name = v, c.what
		}
	}
	if name == "" {
		return ""
	}
	return fmt.Sprintf(", limited by %s (%.0f blocks per SM)", name, best)
}
