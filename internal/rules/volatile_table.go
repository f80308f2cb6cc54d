package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan/internal/analysis"
)

// tableBytes is the largest footprint the strong loads of a kernel may
// read from DRAM for volatileTable to read them as a table L1 would hold
// once loaded through it: a quarter of an SM's 256 KiB of L1, so that
// the table stays whatever else the SM streams through.
const tableBytes = 64 << 10

// strongTable is what volatileTable reads: the strong global loads' warp
// instructions and sectors, the kernel's global memory instructions and
// the sectors of its other global loads.
type strongTable struct {
	loads, sectors, global, other float64
}

// strongLoads reads a kernel's strong global loads from its model.
func strongLoads(a *analysis.Kernel) (r strongTable) {
	for _, in := range a.Model.Instructions {
		if in.Space != "global" {
			continue
		}
		r.global += in.Requests
		if in.Operation != "load" {
			continue
		}
		op := opcode(in.SASS)
		base, _, _ := strings.Cut(op, ".")
		if (base == "LDG" || base == "LD") && strings.Contains(op, ".STRONG.") {
			r.loads += in.Requests
			r.sectors += in.Sectors
		} else {
			r.other += in.Sectors
		}
	}
	return r
}

// dramRead is the bytes a kernel read from DRAM: dram_read_bytes, or
// where the page has only the total (ncu's details page), dram_bytes
// less the bytes of its global store sectors, the most it can have
// written.
func dramRead(p *Pass) (float64, bool) {
	if v, ok := p.Value("dram_read_bytes"); ok && v >= 0 {
		return v, true
	}
	v, ok := p.Value("dram_bytes")
	if !ok || !(v >= 0) {
		return 0, false
	}
	if g := p.Kernel.Model.GlobalStore; g != nil && g.Transactions > 0 {
		v -= 32 * g.Transactions
	}
	return math.Max(0, v), true
}

// volatileTable prices strong (volatile) loads of a small table many
// threads read, each at an address of its own (a lookup, a search's
// probes): none re-reads what a load before it read, but each goes past
// L1 to L2 where the table, loaded through L1, would stay after the
// first probe. The table's footprint is the DRAM bytes the kernel reads
// beyond its other loads' sectors (the caches flushed before each
// replay, every byte read came from DRAM once); against the strong
// loads' sectors, it says how many of them the table's lines would
// serve from L1. Those leave L2's work; the instructions stay, so the
// time after is the longest of the instructions at the attainable issue
// rate, L1's requests (unchanged), L2's work kept and DRAM at the
// stream's line. fixtures/sol-check20's volBins<0>, 8 values a thread
// binned by a 4-step binary search over 15 thresholds through a
// volatile pointer: 32 LDG.E.STRONG.SYS a thread, 80 % of its global
// instructions, 7.3 M sectors against a DRAM read its input's 134 MB
// accounts for; latency-bound, DRAM at 2.5 %: read through __ldg it ran
// 0.96 faster. Reports whether it did.
func volatileTable(p *Pass) bool {
	r := strongLoads(p.Kernel)
	if !(r.loads > 0) || !(r.sectors > 0) || r.loads < 0.5*r.global {
		return false
	}
	read, ok := dramRead(p)
	if !ok {
		return false
	}
	footprint := math.Max(0, read-32*r.other)
	if footprint > tableBytes || 32*r.sectors < 2*footprint {
		return false
	}
	served := r.sectors - footprint/32 // sectors L1 would serve
	t, issue, ok := issueWindow(p)
	n, okN := p.Value("inst_executed")
	us, okU := usageOf(p)
	if !ok || !okN || !(n > 0) || !okU {
		return false
	}
	total := r.sectors + r.other
	if g := p.Kernel.Model.GlobalStore; g != nil && g.Transactions > 0 {
		total += g.Transactions
	}
	kept := 1 - served/total
	after := us.reloadAfter(n/issue/t, kept, []analysis.Unit{analysis.LimitL2, analysis.LimitMemory}, []analysis.Unit{analysis.LimitL1Shared})
	gain := wallGain(p, after, t)
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g strong (volatile) global loads, %.0f%% of the kernel's global memory instructions, move %.3g sectors (%.3g bytes) while the kernel reads %.3g bytes from DRAM beyond its other loads' sectors: they read a small table again and again, each load past L1 to L2, where the table, loaded through L1, would be served from L1 after its first probe",
			r.loads, 100*r.loads/r.global, r.sectors, 32*r.sectors, footprint),
		Advice:    "drop volatile from the pointer to a table only this kernel reads: const __restrict__ (or __ldg) loads it through L1 and the read-only path, and the probes hit there; keep volatile, or cuda::atomic_ref loads, for memory another agent changes while the kernel runs",
		Evidence:  p.evidence("l2_sol_pct", "dram_sol_pct", "duration"),
		Locations: linesOf(p.Kernel, func(op string) bool { return strings.HasPrefix(op, "LDG") && strings.Contains(op, ".STRONG.") }),
	})
	return true
}
