package rules

import (
	"fmt"
	"slices"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// dependentLoads reports a latency-bound kernel whose global loads form a
// chain: each load's address is the value a load of its loop returned
// (p = next[p]), so a warp has one of them in flight at a time however
// many the loop issues, and no memory unit gets near its peak.
var dependentLoads = &Rule{
	ID:    "dependent-loads",
	Title: "Dependent global loads: each address a previous load's value",
	Text: `A loop whose load takes its address from the value the previous trip loaded
(a linked list, a pointer chase, p = next[p]) waits a full memory round trip,
hundreds of cycles, before it can issue the next load: one load per warp is in
flight, and the kernel is bound by the memory's latency, not its bandwidth.
Break the chain: compute the addresses up front (an index table, a closed form),
walk several independent chains per thread or per warp so their loads overlap,
or prefetch the next node while working on this one.`,
	Before: `for (int k = 0; k < 16; ++k)
    p = next[p];                    // each hop waits for the last`,
	After: `for (int k = 0; k < 16; ++k)      // the rows known up front:
    acc ^= next[rows[k] * 32 + lane];  // sixteen loads in flight`,
	Severity: profan.Warning,
	Cause:    CauseMemory,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: the register that carries a load's value into
	// the next load's address.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkDependentLoads,
}

// checkDependentLoads prices breaking the chain from the units' work,
// which the fix keeps: with the loads independent, a warp keeps as many in
// flight as it issues and the kernel runs until its busiest memory unit
// reaches its ceiling (leftBy). fixtures/sol-check11's chase<0>, sixteen
// dependent hops a lane through coalesced 128-byte rows, latency-bound
// with L2 at 53 % of its peak: 1 − 0.53/0.9 = 0.41 against 0.45 measured
// (the independent twin ran L2 at 89 %).
func checkDependentLoads(p *Pass) {
	a := p.Kernel
	if a.Limiter.Unit != analysis.LimitLatency {
		return
	}
	var chased, loads float64
	var at []string
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
	if !(chased > 0) || chased < 0.5*loads {
		return
	}
	gain := leftBy(p, analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared)
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the global load requests (%.3g) take their address from the value a load of their loop returned (a pointer chase): a warp has one of them in flight at a time, and no memory unit is near its peak",
			100*chased/loads, chased),
		Advice:    "break the chain: compute the addresses up front (an index table, a closed form), walk several independent chains a thread or a warp so their loads overlap, or prefetch the next node while working on this one",
		Evidence:  p.evidence("dram_sol_pct", "l2_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return slices.Contains(at, s.Address) }),
	})
}
