package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
)

// AtomicSerialization reports kernels whose time goes to atomics on one
// address (the analysis's LimitAtomics): a sum or a counter that every warp
// updates.
var AtomicSerialization = &Rule{
	ID:    "atomic-serialization",
	Title: "Atomics on one address, served one at a time",
	Text: `The L2 serves atomics on one address one after another, a few cycles each, however
many SMs send them. A sum or counter that every warp (or thread) updates with
atomicAdd then takes as long as its atomics, and more blocks or warps cannot
help. Combine first: reduce within each warp and block, then one atomic per
block; or let each block write a partial result and sum those in a second pass.`,
	Before: `float v = warpReduceSum(x[i]);
if (lane == 0) atomicAdd(sum, v);      // one atomic per warp, all on *sum`,
	After: `float v = blockReduceSum(x[i]);       // shuffles, then shared memory
if (threadIdx.x == 0) atomicAdd(sum, v);  // one atomic per block`,
	Severity: profan.Warning,
	Requires: []string{"l2_atomic_requests", "l2_cycles"},
	Check: func(p *Pass) {
		l := p.A.Limiter
		if l.Unit != analysis.LimitAtomics {
			return
		}
		n, _ := p.Value("l2_atomic_requests")
		blocks := float64(p.A.K.Grid.Size())
		share := l.Percent / 100
		ev := append(p.Evidence("l2_atomic_requests", "l2_cycles"), fmt.Sprintf("grid_blocks=%.0f", blocks))
		if blocks > 0 && n >= 2*blocks {
			// One atomic per block instead of n: the atomics' part of the
			// time shrinks by blocks/n. Measured on an H100: one atomic
			// per warp → per block, estimated 0.87, measured 0.86
			// (TestCalibrationAtomics).
			p.Report(Estimate(share*(1-blocks/n)), Note{
				Message:  fmt.Sprintf("%.0f atomics on one address for %.0f blocks (%.1f per block), served one at a time by the L2", n, blocks, n/blocks),
				Advice:   "combine before the atomic: reduce within each warp (__shfl_down_sync) and then the block (shared memory, or cub::BlockReduce), and issue one atomic per block",
				Evidence: ev,
			})
			return
		}
		// No broken/fixed pair measured yet: the gain is not estimated.
		p.Report(UnknownGain, Note{
			Message:  fmt.Sprintf("%.0f atomics on one address, about one per block, served one at a time by the L2", n),
			Advice:   "let each block write its partial result to an array and sum the array in a second pass (or in the last block to finish) instead of atomics on one address",
			Evidence: ev,
		})
	},
}
