package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// prefixLoop prices a prefix every thread recomputes
// (analysis.PrefixLoops: a loop over words every thread of the grid
// loads alike, its trip count the thread's or its block's index sets).
// Passed in computed once (prefix sums, as cu_seqlens), the loop's
// instructions and its loads go, one load a thread left: the time after
// is the longest of the instructions left at the attainable issue rate,
// L1's work kept (the loops' loads, served by L1, were its requests),
// and L2's and DRAM's work as it is, each at its ceiling
// (fixtures/sol-check24's raggedScale<0>: 96 % of its instructions and
// of its L1 requests the loops', L1 at 96 %; L2 at 22 % of its 148 µs
// leaves 0.76; its twin, the starts passed in, ran 0.74 faster, L2 at
// 77 % and DRAM at 61 % of their peaks). Reports whether it did.
func prefixLoop(p *Pass) bool {
	w, ok := analysis.PrefixLoops(p.Kernel)
	if !ok || w.Share() < 0.25 || !(w.Memory > 0) || w.Loads < 0.5*w.Memory {
		return false
	}
	t, issue, ok := issueWindow(p)
	us, okU := usageOf(p)
	if !ok || !okU {
		return false
	}
	left := (w.All - w.Inst) / issue / t
	gain := issueBoundGain(us, left, (w.Memory-w.Loads)/w.Memory, t)
	if gain < 0.05 {
		return false
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the executed instructions (%.3g warp-level) are loops that fold words every thread of the grid loads alike (%.0f%% of the kernel's memory instructions, served by L1) for a trip count the thread's or its block's index sets: each thread recomputes a prefix (a start from the lengths before it) from the beginning; computed once and passed in, each thread loads one word and the instructions left take %.0f%% of the kernel's time at the device's issue peak",
			100*w.Share(), w.Inst, 100*w.Loads/w.Memory, 100*left),
		Advice:   "compute the prefix once (an exclusive scan of the lengths: cub::DeviceScan::ExclusiveSum, torch.cumsum, or on the host) and pass it in, as cu_seqlens, so that each thread loads its start: start = off[seq]",
		Evidence: append(p.evidence("duration", "l1_sol_pct", "compute_throughput_pct"), fmt.Sprintf("prefix_loop_inst=%.4g", w.Inst), fmt.Sprintf("prefix_loop_share=%.3f", w.Share())),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool {
			return w.Addrs[s.Address] && !toolkitHeader(s.File)
		}),
	})
	return true
}
