package rules

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// volatileReread reports a kernel that loads one global address again and
// again through a volatile pointer (or another strong load): each load is
// issued as written and goes past L1 to L2, where one load and a register
// would do.
var volatileReread = &Rule{
	ID:    "volatile-reread",
	Title: "A volatile load of one address repeated",
	Text: `A load through a volatile pointer (LDG.E.STRONG.SYS) is issued each time the
source writes it, and it bypasses L1: reading the same element sixteen times
through one costs sixteen round trips to L2 and sixteen load instructions where
one load kept in a register would do. volatile is for memory another agent
changes while the kernel runs (a flag polled in a loop); data the kernel only
reads needs an ordinary (or const __restrict__) pointer, loaded once.`,
	Before: `const volatile float* vx = x;
for (int k = 0; k < 16; ++k)
    acc = fmaf(vx[i], w[k], acc);   // sixteen loads of x[i]`,
	After: `const float v = x[i];               // one load, kept in a register
for (int k = 0; k < 16; ++k)
    acc = fmaf(v, w[k], acc);`,
	Severity: profan.Warning,
	Cause:    CauseMemory,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: the repeated strong loads of one address.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkVolatileReread,
}

// strongRepeats is what volatileReread reads from a source page, in warp
// instructions executed: the strong global loads, those that load an
// address a strong load before them loaded (its base register not written
// in between), and every global memory instruction.
type strongRepeats struct {
	loads, repeats, global float64
}

// rereads reads a kernel's strong global loads in program order.
func rereads(a *analysis.Kernel) (r strongRepeats) {
	if !sassHas(a, ".STRONG.") {
		return r
	}
	var recs []profan.SourceRecord
	for s := range instructions(a.Record.Source) {
		recs = append(recs, s)
	}
	sort.SliceStable(recs, func(i, j int) bool { return address(recs[i].Address) < address(recs[j].Address) })
	loaded := map[string]bool{} // address operands a strong load read
	for _, s := range recs {
		op := opcode(s.SASS)
		base, _, _ := strings.Cut(op, ".")
		n := instExecuted(s)
		f := strings.Fields(strings.ReplaceAll(s.SASS, ",", " "))
		switch base {
		case "LDG", "STG", "LD", "ST", "ATOMG", "ATOM", "RED", "REDG":
			r.global += n
		}
		if (base == "LDG" || base == "LD") && strings.Contains(op, ".STRONG.") {
			r.loads += n
			if at := memOperand(f); at != "" {
				if loaded[at] {
					r.repeats += n
				}
				loaded[at] = true
			}
		}
		if dst := destination(f); dst != "" {
			for k := range loaded {
				if strings.Contains(k, "["+dst+".") || strings.Contains(k, "["+dst+"]") || strings.Contains(k, "["+dst+"+") {
					delete(loaded, k)
				}
			}
		}
	}
	return r
}

// memOperand is the address operand of a memory instruction's fields
// ("desc[UR4][R2.64]"), "" when none.
func memOperand(f []string) string {
	for _, x := range f {
		if strings.Contains(x, "[") && !strings.HasPrefix(x, "c[") {
			return x
		}
	}
	return ""
}

// checkVolatileReread prices the loads the fix removes. Loaded once, the
// element stays in a register: the kernel keeps its DRAM bytes, and its
// L1 and L2 requests shrink to the global instructions left. A stream
// whose repeated round trips are gone binds DRAM at the latency line
// (streamLine of its ceiling: fixtures/sol-check6's fixed streams, 61 %
// and 59 % of peak), not at the ceiling. fixtures/sol-check10's
// volSum<0>, sixteen LDG.E.STRONG.SYS of x[i] an element and one store:
// 15 of 17 global instructions removed, DRAM at 19 % of peak: t'/t =
// 0.19/(0.6·0.85) = 0.38, 0.62 against 0.63 measured.
func checkVolatileReread(p *Pass) {
	r := rereads(p.Kernel)
	if !(r.repeats > 0) || !(r.global > 0) || r.repeats < 0.5*r.global {
		return
	}
	t, ok := p.Value("duration")
	us, okU := usageOf(p)
	if !ok || !(t > 0) || !okU {
		return
	}
	kept := (r.global - r.repeats) / r.global
	after := 0.0
	for _, u := range []analysis.Unit{analysis.LimitL2, analysis.LimitL1Shared, analysis.LimitMemory} {
		if v, ok := us[u]; ok {
			after = math.Max(after, v*kept/ceiling[u])
		}
	}
	if v, ok := us[analysis.LimitDRAM]; ok {
		after = math.Max(after, v/(streamLine*ceiling[analysis.LimitDRAM]))
	}
	if b := us.busiest(); b < 1 && b > 0 {
		// A kernel that saturates nothing: its time is the loads'
		// round trips, and the fix leaves the units' work above.
		after = math.Min(1, after)
	} else {
		after = math.Min(1, after/math.Max(b, 1e-9))
	}
	gain := clamp01((1 - math.Max(after, math.Min(1, launchFloor/t))) * variableShare(p))
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g strong (volatile) global loads, %.0f%% of them (%.3g) of an address a load before them read and nothing changed: each is issued again, past L1, to L2; %.0f%% of the kernel's global memory instructions go with them",
			r.loads, 100*r.repeats/r.loads, r.repeats, 100*r.repeats/r.global),
		Advice:    "load the value once into a register (drop volatile from a pointer to data only this kernel reads; const __restrict__ lets it come through the read-only path); keep volatile, or cuda::atomic_ref loads, for a flag another thread changes while the kernel runs",
		Evidence:  p.evidence("l2_sol_pct", "dram_sol_pct", "duration"),
		Locations: linesOf(p.Kernel, func(op string) bool { return strings.HasPrefix(op, "LDG") && strings.Contains(op, ".STRONG.") }),
	})
}
