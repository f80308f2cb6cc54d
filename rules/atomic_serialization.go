package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
)

// AtomicSerialization reports kernels whose time goes to atomics on one
// address (the analysis's LimitAtomics): a sum or a counter that every warp
// updates.
var AtomicSerialization = &Rule{
	ID:    "atomic-serialization",
	Title: "Contended atomics, served one at a time",
	Text: `The L2 serves atomics on one address one after another, one to three cycles each
(integer faster than float), however many SMs send them. A sum, a counter or a
histogram whose bins few addresses take (skewed data, few bins) then takes as
long as its atomics, and more blocks or warps cannot help. Combine first:
reduce within each warp and block, or give each block its own bins in shared
memory, then one global atomic per block (per bin); or let each block write a
partial result and sum those in a second pass.`,
	Before: `atomicAdd(&bins[key[i] % 256], 1);    // every thread, global bins`,
	After: `__shared__ unsigned s[256];            // per-block bins
atomicAdd(&s[key[i] % 256], 1);
__syncthreads();
if (s[t]) atomicAdd(&bins[t], s[t]);    // one global atomic per bin per block`,
	Severity: profan.Warning,
	Requires: []string{"l2_atomic_requests", "l2_cycles"},
	Optional: gridReads,
	Check: func(p *Pass) {
		l := p.A.Limiter
		if l.Unit != analysis.LimitAtomics {
			return
		}
		w, _ := analysis.Atomics(p.A)
		n := w.Requests
		blocks := float64(p.A.K.Grid.Size())
		ev := append(p.Evidence("l2_atomic_requests", "l2_cycles"), fmt.Sprintf("l2_atomic_ops=%.0f", w.Ops), fmt.Sprintf("grid_blocks=%.0f", blocks))
		kind := "atomics"
		switch {
		case w.Typed && w.Float:
			kind = "float atomics"
		case w.Typed:
			kind = "integer atomics"
		}
		if blocks > 0 && n >= 2*blocks {
			p.Report(Estimate(atomicGain(p, w, blocks)), Note{
				Message: fmt.Sprintf("%.0f %s (%.1f per block) on few addresses: served one at a time at %.2f L2 cycles each they would fill %.0f%% of the kernel's L2 cycles",
					n, kind, n/blocks, w.PerOp, 100*w.Serial()),
				Advice:   "combine before the global atomic: reduce within each warp (__reduce_add_sync, __shfl_down_sync) and block, or privatise (per-block bins in shared memory), then one global atomic per block or per bin",
				Evidence: ev,
			})
			return
		}
		// No broken/fixed pair measured yet: the gain is not estimated.
		p.Report(UnknownGain, Note{
			Message:  fmt.Sprintf("%.0f %s on few addresses, about one per block: served one at a time at %.2f L2 cycles each they would fill %.0f%% of the kernel's L2 cycles", n, kind, w.PerOp, 100*w.Serial()),
			Advice:   "let each block write its partial result to an array and sum the array in a second pass (or in the last block to finish) instead of atomics on one address",
			Evidence: ev,
		})
	},
}

// atomicGain is the estimated gain of combining a kernel's atomics to one
// per block: the part of the time the atomics explain (their serial share,
// at most 1) shrinks by blocks/n, and what is left is at least the rest of
// the kernel's work (the busiest unit other than the L2, which the
// atomics keep busy) and the launch floor.
func atomicGain(p *Pass, w analysis.AtomicWork, blocks float64) float64 {
	rest := 1 - math.Min(1, w.Serial())
	if us, ok := usageOf(p); ok {
		for _, r := range []analysis.Unit{analysis.LimitDRAM, analysis.LimitL1Shared, analysis.LimitPipe} {
			if u, ok := us[r]; ok {
				rest = math.Max(rest, u/ceiling[r])
			}
		}
	}
	if t, ok := p.Value("duration"); ok && t > 0 {
		rest = math.Max(rest, launchFloor/t)
	}
	return clamp01((1 - math.Min(1, rest)) * (1 - blocks/w.Requests))
}
