package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// callNotInlined reports a kernel that calls a device function it could
// inline, in its hot loop: each call is a CALL.REL, the ABI's moves of
// the arguments and the return address, and a RET.REL whose branch the
// warp waits to resolve before it fetches the caller's next instruction.
var callNotInlined = &Rule{
	ID:    "call-overhead",
	Title: "A device function called, not inlined, in a hot loop",
	Text: `nvcc inlines small device functions unless told not to (__noinline__), unless
the function is defined in another translation unit under separate compilation
(-rdc=true without link-time optimisation), or unless it is recursive or
called through a pointer. A call that is not inlined is a CALL.REL, moves of
the arguments and of the return address into the registers the ABI names, and
a RET.REL: a branch to an address held in a register, which the warp waits to
resolve (ncu's stall reason "branch resolving", sampled on the instruction after
the RET) before it can fetch the caller's next instruction. In a loop whose step
is a few arithmetic instructions the calls cost several times the step. Inline
the function (__forceinline__, or drop __noinline__; -dlto or the function in
the same file under -rdc=true): the step's instructions then interleave with
the loop's and with other warps', and the calls' waits are gone.`,
	Before: `__device__ __noinline__ float step(float v, float a, float b) { return fmaf(a * v, 1.0f - v, b); }
for (int k = 0; k < 64; ++k) v = step(v, a, b);   // CALL.REL, RET.REL each step`,
	After: `__device__ __forceinline__ float step(float v, float a, float b) { return fmaf(a * v, 1.0f - v, b); }
for (int k = 0; k < 64; ++k) v = step(v, a, b);   // three FP32 instructions a step`,
	Severity: profan.Warning,
	Cause:    CauseCompute,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: the calls, their returns and their samples.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkCallOverhead,
}

// calls is what callMachinery read from a source page: the warp-level
// instructions of the kernel and those of its calls' machinery (the
// CALL.RELs, the RET.RELs and the ABI's moves around them), the kernel's
// warp stall samples and those the machinery holds (its instructions'
// and the branch resolution sampled after each RET), the calls, and the
// CALLs' records.
type calls struct {
	inst, machineInst       float64
	samples, machineSamples float64
	calls                   float64
	sites                   map[string]bool
}

// callMachinery reads the CALL.RELs of a kernel to subroutines that are
// not the compiler's division subroutines (int-division's) and their
// RET.RELs, in address order.
func callMachinery(a *analysis.Kernel) (c calls, ok bool) {
	if !sassHas(a, "CALL.REL") {
		return c, false
	}
	recs := addressOrder(a)
	at := map[string]int{}
	for i, s := range recs {
		at[strings.ToLower(s.Address)] = i
		at[s.Address] = i
	}
	subs, inSub := callTargets(recs, at)
	c.sites = map[string]bool{}
	counted := map[int]bool{}
	machine := func(i int) {
		if i < 0 || i >= len(recs) || counted[i] {
			return
		}
		counted[i] = true
		c.machineInst += instExecuted(recs[i])
		c.machineSamples += stallSamples(recs[i])
	}
	anySamples := false
	for i, s := range recs {
		c.inst += instExecuted(s)
		if v, has := sampled(s); has {
			anySamples = true
			c.samples += v
		}
		if !strings.HasPrefix(opcode(s.SASS), "CALL.REL") {
			continue
		}
		sr := subs[callTarget(s.SASS)]
		if sr == nil || sr.division || instExecuted(s) <= 0 {
			continue
		}
		c.calls += instExecuted(s)
		c.sites[s.Address] = true
		machine(i)
		// The moves just before the call set its arguments and its
		// return address.
		for j := i - 1; j >= 0 && abiMove(recs[j].SASS) && !inSub[j]; j-- {
			machine(j)
		}
	}
	if c.calls <= 0 || !anySamples {
		return c, false
	}
	for i, s := range recs {
		if !inSub[i] {
			continue
		}
		op := opcode(s.SASS)
		switch {
		case strings.HasPrefix(op, "RET"):
			// The warp waits at the instruction after the RET for the
			// return's branch to resolve.
			machine(i)
			machine(i + 1)
		case abiMove(s.SASS):
			machine(i)
		}
	}
	return c, c.samples > 0
}

// abiMove reports a register move or a constant's (MOV, IMAD.MOV, an
// HFMA2.MMA of zeros), what the calling convention's argument, result and
// return-address registers are filled with.
func abiMove(sass string) bool {
	op := opcode(sass)
	return op == "MOV" || strings.HasPrefix(op, "MOV.") || strings.HasPrefix(op, "IMAD.MOV") ||
		strings.HasPrefix(op, "HFMA2.MMA") && strings.Contains(sass, "-RZ, RZ")
}

// sampled is a source record's warp stall samples (all reasons), has
// false where the page has no sampling column.
func sampled(s profan.SourceRecord) (float64, bool) {
	for _, c := range s.Counter {
		if c.Name == "stall_samples" && !math.IsNaN(c.Value) {
			return c.Value, true
		}
	}
	return 0, false
}

// stallSamples is a source record's warp stall samples, 0 without them.
func stallSamples(s profan.SourceRecord) float64 {
	v, _ := sampled(s)
	return v
}

// checkCallOverhead prices inlining from the two limits the calls hold:
// the warps' time, which their stall samples share out (the samples on
// the calls, their returns' branch resolution and the ABI's moves go),
// and the issue slots, which the instructions left take at the device's
// attainable issue rate; the larger of the two is the time after the fix
// (fixtures/sol-check16's callStep<0>: 79 % of its samples on the
// machinery of 64 calls a thread of a three-instruction logistic step,
// the instructions left 26 % of its time at the issue peak; its
// __forceinline__ twin ran 0.73 faster), never more than DRAM and L2
// leave.
func checkCallOverhead(p *Pass) {
	a := p.Kernel
	t, issue, ok := issueWindow(p)
	if !ok {
		return
	}
	c, ok := callMachinery(a)
	if !ok || !(c.inst > 0) {
		return
	}
	byIssue := (c.inst - c.machineInst) / issue / t
	bySamples := 1 - c.machineSamples/c.samples
	after := math.Min(1, math.Max(byIssue, bySamples))
	gain := math.Min(clamp01(1-after), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if gain < 0.05 {
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.3g calls of a device function not inlined (warp-level CALL.REL, each with a RET.REL and the ABI's register moves): %.0f%% of the warps' stall samples sit on the calls, the returns' branch resolution and the moves, %.0f%% of the executed instructions are theirs; inlined, the instructions left take %.0f%% of the kernel's time at the device's issue peak",
			c.calls, 100*c.machineSamples/c.samples, 100*c.machineInst/c.inst, 100*byIssue),
		Advice:    "inline the function: __forceinline__ (or drop __noinline__); under separate compilation (-rdc=true) put it in the caller's file or link with -dlto so the linker can inline it; a function called through a pointer or recursive cannot be inlined, so make the call direct (a template parameter or a switch) in the hot loop",
		Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("calls=%.4g", c.calls), fmt.Sprintf("call_sample_share=%.3f", c.machineSamples/c.samples)),
		Locations: topLines(p, func(op string, s profan.SourceRecord) bool { return c.sites[s.Address] }),
	})
}
