package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// uniformStrongShare is the least share of a kernel's global memory
// requests that its strong loads of one word a grid must be for
// volatileUniform to read them, and memoryWaitShare the least share of
// the warps' stall samples spent at global memory instructions or
// waiting on their data: the loads are what the kernel waits on.
const (
	uniformStrongShare = 0.25
	memoryWaitShare    = 0.5
)

// strongUniform is what volatileUniform reads: the strong global loads
// of an address the same in every thread of the grid (their requests,
// sectors and addresses), the kernel's global requests and sectors
// (loads and stores), and the share of the warps' stall samples at a
// global memory instruction or waiting on a load's data (stall_long_sb),
// NaN where the page samples no stalls.
type strongUniform struct {
	loads, sectors, requests, global float64
	insts                            int
	at                               map[string]bool
	wait                             float64
}

// uniformStrong reads a kernel's strong loads of grid-uniform addresses.
func uniformStrong(a *analysis.Kernel) (r strongUniform) {
	r.wait = math.NaN()
	if !sassHas(a, ".STRONG.") {
		return r
	}
	r.at = analysis.UniformStrongLoads(a)
	if len(r.at) == 0 {
		return r
	}
	for _, in := range a.Model.Instructions {
		if in.Space != "global" {
			continue
		}
		r.requests += in.Requests
		r.global += in.Sectors
		if in.Operation == "load" && r.at[in.Address] {
			r.loads += in.Requests
			r.sectors += in.Sectors
			r.insts++
		}
	}
	var samples, waits float64
	for _, s := range instructions(a) {
		v, _ := counterValue(s, "stall_samples")
		samples += v
		if base, _, _ := strings.Cut(opcode(s.SASS), "."); globalMemOp(base) {
			waits += v
		} else {
			v, _ = counterValue(s, "stall_long_sb")
			waits += v
		}
	}
	if samples > 0 {
		r.wait = waits / samples
	}
	return r
}

// volatileUniform prices strong (volatile) loads of one word every
// thread of the grid reads, straight-line, no loop re-reading it
// (fixtures/sol-check25's eqBands<0>: an 8-band equaliser's gains
// through a const volatile pointer, eight LDG.E.STRONG.SYS of the same
// eight words a sample, 47 % of its global requests; latency-bound,
// DRAM at 10 %, 89 % of the warps' samples at global loads or waiting
// on them; through const __restrict__, __ldg, it ran 0.89 faster). A
// strong load is not served by L1: every warp's request goes to L2, all
// of them to the slice that holds the word, and each warp waits on the
// round trip. Loaded through L1, the words are served there after the
// first warp: their sectors leave L2's work, the instructions stay, and
// the time after is the longest of the instructions at the attainable
// issue rate, L1's requests (unchanged), L2's work kept and DRAM at the
// stream's line; the gain is no more than the warps' time at the memory
// instructions and their data. Reports whether it did.
func volatileUniform(p *Pass) bool {
	r := uniformStrong(p.Kernel)
	if !(r.loads > 0) || !(r.requests > 0) || r.loads < uniformStrongShare*r.requests || !(r.wait >= memoryWaitShare) {
		return false
	}
	t, issue, ok := issueWindow(p)
	n, okN := p.Value("inst_executed")
	us, okU := usageOf(p)
	if !ok || !okN || !(n > 0) || !okU || !(r.global > 0) {
		return false
	}
	kept := 1 - math.Max(0, r.sectors-float64(r.insts))/r.global
	after := us.reloadAfter(n/issue/t, kept, []analysis.Unit{analysis.LimitL2, analysis.LimitMemory}, []analysis.Unit{analysis.LimitL1Shared})
	gain := math.Min(wallGain(p, after, t), r.wait)
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g strong (volatile) global loads, %d instruction(s) whose address is the same in every thread of the grid, %.0f%% of the kernel's global memory requests: each warp asks L2 for the same word again, past L1, all at the L2 slice that holds it, and waits on the round trip (%.0f%% of the warps' sampled time is at global memory instructions or waiting on their data)",
			r.loads, r.insts, 100*r.loads/r.requests, 100*r.wait),
		Advice:    "drop volatile from a pointer to values only this kernel reads (const __restrict__, or __ldg; a handful of them as kernel arguments or __constant__): L1 or the constant cache then serves every warp after the first; keep volatile, or cuda::atomic_ref loads, for a flag another agent changes while the kernel runs",
		Evidence:  p.evidence("l2_sol_pct", "dram_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return r.at[s.Address] }),
	})
	return true
}
