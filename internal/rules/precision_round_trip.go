package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// precisionRoundTrip reports a loop whose state is rounded to half or
// bfloat16 and widened back to float at every step: two conversions a
// step on the dependent chain, where a float state rounded once at the
// end needs none.
var precisionRoundTrip = &Rule{
	ID:    "precision-round-trip",
	Title: "A value rounded to half precision and widened back at every step",
	Text: `Keeping a loop's state in __half or __nv_bfloat16 while computing in float
(h = __float2half(f(__half2float(h)))) costs two conversions a step: an F2FP
that rounds the float to 16 bits and an HADD2.F32 (for bfloat16 a shift or a
PRMT) that widens it back, both on the chain each step waits for and both in the
issue slots. The arithmetic is float anyway; only the stored value needs 16
bits. Keep the state in a float register across the loop and round once, where
it is stored. (The rounding at each step also changes the result: a 16-bit
state loses its low bits every step, which a float state does not; where the
algorithm needs that rounding, as some quantisation-aware code does, keep it.)`,
	Before: `__half h = __float2half(x[i]);
for (int k = 0; k < 128; ++k)
    h = __float2half(fmaf(__half2float(h), 0.93f, 0.05f));   // F2FP + HADD2.F32 a step
y[i] = h;`,
	After: `float v = x[i];
for (int k = 0; k < 128; ++k)
    v = fmaf(v, 0.93f, 0.05f);                                // one FFMA a step
y[i] = __float2half(v);`,
	Severity: profan.Warning,
	Cause:    CauseCompute,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: conversions whose result the next is the widening of.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkPrecisionRoundTrip,
}

// roundTrips is what halfRoundTrips read from a source page, in warp
// instructions executed: every instruction, the kernel's entries (its
// first instruction's executions), the round trips (a rounding to 16
// bits whose register a widening to float reads next), the conversions
// they execute, and the records of the roundings.
type roundTrips struct {
	inst, entries, trips, conversions float64
	sites                             map[string]bool
}

// halfRoundTrips reads, in address order, each F2FP (F2F) rounding a
// float to half or bfloat16 into a register and the widening back to
// float (HADD2.F32 of its low half, F2F.F32.F16, a shift or PRMT by 16
// for bfloat16) that reads that register before anything else writes
// it.
func halfRoundTrips(a *analysis.Kernel) (r roundTrips) {
	r.sites = map[string]bool{}
	if !sassHas(a, "F2F") {
		return r
	}
	code := addressOrder(a)
	at := map[uint64]int{}
	for i, s := range code {
		at[address(s.Address)] = i
	}
	var back []backEdge
	// widened counts the round trips of rounded whose widening comes
	// first among code[from:], n times at most; with count it also
	// reads the roundings and the loops' back edges on its way.
	widened := func(rounded map[int]profan.SourceRecord, from int, n float64, count bool) map[int]profan.SourceRecord {
		for _, s := range code[from:] {
			op, args := analysis.SASSFields(s.SASS)
			if widens(op, args) {
				for _, x := range args[1:] {
					regs := analysis.SASSRegs(x)
					if len(regs) == 0 {
						continue
					}
					if rd, ok := rounded[regs[0]]; ok {
						m := math.Min(math.Min(n, instExecuted(s)), instExecuted(rd))
						r.trips += m
						r.conversions += 2 * m
						r.sites[rd.Address] = m > 0 || r.sites[rd.Address]
						delete(rounded, regs[0])
					}
				}
			}
			if !count && len(rounded) == 0 {
				return nil
			}
			if op == "BRA" && count && len(args) > 0 {
				// A loop's back edge: what is rounded here and not yet
				// widened is widened, if at all, from the loop's head.
				if j, ok := at[address(args[len(args)-1])]; ok && address(args[len(args)-1]) < address(s.Address) && len(rounded) > 0 {
					carried := map[int]profan.SourceRecord{}
					for k, v := range rounded {
						carried[k] = v
					}
					back = append(back, backEdge{j, instExecuted(s), carried})
				}
			}
			if d, ok := writtenReg(s.SASS); ok {
				if count && roundsToHalf(op, args) {
					rounded[d] = s
				} else {
					delete(rounded, d)
				}
			}
		}
		return rounded
	}
	for i, s := range code {
		r.inst += instExecuted(s)
		if i == 0 {
			r.entries = instExecuted(s)
		}
	}
	widened(map[int]profan.SourceRecord{}, 0, math.Inf(1), true)
	for _, e := range back {
		widened(e.rounded, e.head, e.n, false)
	}
	return r
}

// backEdge is a loop's backward branch: the index of its head, its
// executions and the registers rounded at it and not yet widened.
type backEdge struct {
	head    int
	n       float64
	rounded map[int]profan.SourceRecord
}

// roundsToHalf reports a float rounded to one 16-bit value: an
// F2FP.F16.F32 or F2FP.BF16.F32 packing it beside zero (RZ), or an
// F2F.F16.F32.
func roundsToHalf(op string, args []string) bool {
	switch {
	case strings.HasPrefix(op, "F2FP.") && (strings.Contains(op, ".F16.F32") || strings.Contains(op, ".BF16.F32")):
		return len(args) == 3 && (args[1] == "RZ" || args[2] == "RZ")
	case strings.HasPrefix(op, "F2F.F16.F32"), strings.HasPrefix(op, "F2F.BF16.F32"):
		return true
	}
	return false
}

// widens reports an instruction that widens a 16-bit value to float:
// HADD2.F32 of -RZ and a half (the idiom of __half2float), F2F.F32.F16,
// or a bfloat16's shift into the high half (SHF.L.U32 or IMAD.U32 by
// 0x10000, PRMT).
func widens(op string, args []string) bool {
	switch {
	case strings.HasPrefix(op, "HADD2.F32"):
		return len(args) == 3 && strings.TrimPrefix(args[1], "-") == "RZ"
	case strings.HasPrefix(op, "F2F.F32.F16"), strings.HasPrefix(op, "F2F.F32.BF16"):
		return true
	case strings.HasPrefix(op, "IMAD.U32"):
		return len(args) >= 3 && args[2] == "0x10000"
	case strings.HasPrefix(op, "SHF.L.U32"):
		return len(args) >= 3 && args[2] == "0x10"
	}
	return false
}

// checkPrecisionRoundTrip prices the float state from the issue slots the
// conversions take at the device's attainable issue rate (precise-math's
// measure: the kernel's time before less the time its instructions but
// the conversions take), never more than DRAM and L2 leave
// (fixtures/sol-check16's halfState<0>: a 128-step FMA chain, each step
// an HADD2.F32, an FFMA and an F2FP.F16.F32, 55 % of its instructions the
// conversions; its float-state twin ran 0.54 faster). Only for a round
// trip in a loop: four or more a thread.
func checkPrecisionRoundTrip(p *Pass) {
	a := p.Kernel
	t, issue, ok := issueWindow(p)
	if !ok {
		return
	}
	r := halfRoundTrips(a)
	if !(r.trips > 0) || !(r.inst > 0) || r.trips < 4*r.entries {
		return
	}
	gain := math.Min(clamp01(r.conversions/issue/t), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if gain < 0.05 {
		return
	}
	perThread := ""
	if r.entries > 0 {
		perThread = fmt.Sprintf(", %.0f a thread", r.trips/r.entries)
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g warp-level round trips of a value through 16 bits (a rounding to half or bfloat16, F2FP, then its widening back to float, HADD2.F32 or a shift, on the register the rounding wrote%s): %.0f%% of the executed instructions are these conversions, %.0f%% of the kernel's time at the device's issue peak",
			r.trips, perThread, 100*r.conversions/r.inst, 100*r.conversions/issue/t),
		Advice:    "keep the state in a float register across the loop and round it once where it is stored (float v = x[i]; for (...) v = f(v); y[i] = __float2half(v)): the two conversions a step leave the chain and the issue slots. Rounding at every step also changes the result (the low bits lost each step); keep it only where the algorithm needs the 16-bit rounding",
		Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("round_trips=%.4g", r.trips), fmt.Sprintf("conversion_share=%.3f", r.conversions/r.inst)),
		Locations: topLines(p, func(op string, s profan.SourceRecord) bool { return r.sites[s.Address] && !toolkitHeader(s.File) }),
	})
}
