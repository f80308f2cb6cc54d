package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// warpRedundant reports a kernel whose 32 lanes of a warp compute the
// same values: work that starts from a value every lane loads from one
// address (a row's seed where a warp is one row) and that no lane's own
// data enters, run 32 times where once would do.
var warpRedundant = &Rule{
	ID:    "warp-redundant-work",
	Title: "Every lane of a warp computes the same values",
	Text: `When a warp's 32 threads all read one value (seed[row], with a row a warp) and
run the same computation on it, the warp issues that computation once but its 32
lanes all do the same work: the warp's issue slots and pipes go to one
result. Where the computation is long (a chain, a loop) and each warp or row
needs one result, let each lane compute a different row's result and hand each
row's value to the lanes that need it with __shfl_sync (a warp then computes 32
rows' values in the time it took for one), or compute the values once in a
separate pass, or on the host, and load them.`,
	Before: `// a warp a row: every lane runs g on the same seed
y[i] = x[i] * g(seed[i >> 5]);`,
	After: `// a warp 32 rows: lane l runs g for row row0 + l, then each row's value is broadcast
float gv = g(seed[row0 + lane]);
for (int r = 0; r < 32; ++r) {
    float m = __shfl_sync(0xffffffffu, gv, r);
    y[(row0 + r) * 32 + lane] = x[(row0 + r) * 32 + lane] * m;
}`,
	Severity: profan.Warning,
	Cause:    CauseCompute,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: what each lane's registers hold.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkWarpRedundant,
}

// redundantShare reports repeated work worth a finding: a quarter of the
// kernel's instructions or more, four or more a warp.
func redundantShare(w analysis.LaneWork) bool {
	return w.All > 0 && w.Inst >= 0.25*w.All && w.Inst >= 4*w.Entries
}

// checkWarpRedundant prices one lane's work for 32 from the issue slots:
// 31 of each 32 of the repeated instructions go (a warp does 32 rows'
// work in one pass of them), the rest take their time at the device's
// attainable issue rate, never less than DRAM and L2 leave
// (fixtures/sol-check16's warpDup<0>: 94 % of its 394 M instructions a
// 256-step chain of seed[g >> 5], every lane of a row's warp alike; the
// rest, at the issue peak, 10 % of its time, its DRAM bytes 15 %; its
// __shfl_sync twin ran 0.83 faster). Only for repeated work that is a
// quarter of the instructions or more, four or more a warp.
func checkWarpRedundant(p *Pass) {
	a := p.Kernel
	t, issue, ok := issueWindow(p)
	if !ok {
		return
	}
	w, ok := analysis.LaneRedundant(a)
	if !ok || !redundantShare(w) {
		return
	}
	removed := w.Inst * 31 / 32
	after := (w.All - removed) / issue / t
	gain := math.Min(clamp01(1-after), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if gain < 0.05 {
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the executed instructions (%.3g warp-level) compute values that are the same in every lane of a warp: they start from a load all 32 lanes make of one address and no lane's own data enters them; done once for 32 lanes (each lane another row's, shared by __shfl_sync), the instructions left take %.0f%% of the kernel's time at the device's issue peak",
			100*w.Inst/w.All, w.Inst, 100*after),
		Advice:   "compute the repeated value once per warp or row instead of in all 32 lanes: give each lane a different row (lane l computes row row0 + l's value) and broadcast each row's value to the lanes that use it with __shfl_sync(0xffffffff, v, r), or compute the per-row values in a separate pass (or on the host) and load them",
		Evidence: append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("redundant_inst=%.4g", w.Inst), fmt.Sprintf("redundant_share=%.3f", w.Inst/w.All)),
		Locations: topLines(p, func(op string, s profan.SourceRecord) bool {
			return (w.Loads[s.Address] || w.Chain[s.Address]) && !toolkitHeader(s.File)
		}),
	})
}
