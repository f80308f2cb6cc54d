package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// invariantWork reports a kernel whose threads all compute the same
// values again and again: conversions and arithmetic whose operands are
// only constants, the kernel's arguments and loop counters (a rolled
// loop's coefficients from its counter, setup derived from the
// arguments), which unrolling or hoisting turns into constants.
var invariantWork = &Rule{
	ID:    "invariant-work",
	Title: "Every thread recomputes values fixed by constants and arguments",
	Text: `Values that depend only on constants, the kernel's arguments and a loop's counter
are the same in every thread of the grid, yet each thread computes them again: a
loop kept rolled (#pragma unroll 1, a run-time trip count) converts its counter to
float and rebuilds its coefficients on every trip, besides its counter, compare and
branch; coefficients derived from the arguments (a recurrence with rsqrtf and
__expf) are derived by all of a kernel's millions of threads. On a kernel its issue
slots or pipes hold, those instructions are its time. Unroll the loop with a
compile-time trip count so that the compiler folds the counter's conversions and the
coefficients into constants, and compute what depends on the arguments alone once, on
the host (passed as arguments or in __constant__ memory), or once per block. A loop
whose every thread folds words all threads load alike, for a trip count its own
index sets (each thread's start summed from the lengths before it), recomputes a
prefix: compute the prefix sums once and pass them in.`,
	Before: `for (int r = 0; r < 64; ++r) {
#pragma unroll 1
    for (int j = 0; j < 4; ++j) v = fmaf(v, 0.97f - 0.01f * float(j), 0.02f * float(j + 1));
}`,
	After: `for (int r = 0; r < 64; ++r) {
#pragma unroll
    for (int j = 0; j < 4; ++j) v = fmaf(v, 0.97f - 0.01f * float(j), 0.02f * float(j + 1));
}   // four FFMA a round, their coefficients constants`,
	Severity: profan.Warning,
	Cause:    CauseCompute,
	Scope:    Source,
	Locates:  true,
	// It reads the SASS: what each thread's registers hold.
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkInvariantWork,
}

// checkInvariantWork prices the invariant instructions from the issue
// slots: unrolled and hoisted, they go, and the kernel's time falls with
// its instructions, never below what DRAM and L2 leave
// (fixtures/sol-check17's loopOvh<0>: 89 % of its 277 M instructions
// are the rolled inner loop's counter, conversions, coefficients and
// branch; its unrolled twin ran 0.87 faster). Only where conversions and
// floating-point math are a quarter of the instructions or more
// (analysis.InvariantWork.Worth).
func checkInvariantWork(p *Pass) {
	a := p.Kernel
	if _, _, ok := issueWindow(p); !ok {
		return
	}
	w, ok := analysis.GridInvariant(a)
	if !ok || !w.Worth() {
		prefixLoop(p)
		return
	}
	// Where the invariant values are a quarter of the instructions, the
	// issue slots carry them and the time falls with the instructions;
	// below that (Worth by the warps' samples), the time the warps spend
	// at them goes (fixtures/sol-check21's gaussRow<0>: 28 % of its
	// instructions, 16 % of its stall samples, the 17 loads a pixel
	// through L1 left; its weights in __constant__ ran 0.16 faster).
	share := w.Share()
	if !w.IssueHeld() {
		share = math.Min(share, w.Held)
	}
	left := leftBy(p, analysis.LimitDRAM, analysis.LimitL2)
	behind := loadsBehindStores(a, w.Loads)
	if behind {
		// Its loads wait behind its stores, which the fix keeps (the
		// pointers may alias still): its stream, one load a thread in
		// flight, runs DRAM at the stream's line, not at its ceiling
		// (fixtures/sol-check22's paramScale<0>: 1 − 35 %/(0.6 · 85 %)
		// = 0.32 against 0.36 measured; its twin, the parameters read
		// once, ran DRAM at 54.5 % of its peak).
		left = math.Min(leftBy(p, analysis.LimitL2), leftByStream(p, streamLine*ceiling[analysis.LimitDRAM]))
	}
	gain := math.Min(share, left)
	if gain < 0.05 {
		return
	}
	var parts []string
	for _, c := range []struct {
		n    float64
		what string
	}{
		{w.Conv, "conversions between integer and float"},
		{w.Math, "floating-point arithmetic"},
		{w.Control, "counters, moves, compares and branches"},
	} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", c.what, 100*c.n/w.All))
		}
	}
	if w.MUFU > 0 {
		parts = append(parts, fmt.Sprintf("%.3g transcendentals (MUFU) among them", w.MUFU))
	}
	held := "issue slots"
	if l := a.Limiter; l.Unit == analysis.LimitPipe && l.Pipe != "" {
		held = l.Pipe + " pipe and issue slots"
	}
	falls := "the kernel's time falls with its instructions"
	if behind {
		falls += ", until its loads, each behind the store before it, hold its DRAM stream at the line a stream with one load a thread in flight runs at"
	}
	if !w.IssueHeld() {
		falls = fmt.Sprintf("the %.0f%% of the warps' sampled time spent at them goes", 100*w.Held)
	}
	from := "from constants, the kernel's arguments and loop counters alone"
	advice := "unroll the loop whose counter feeds them (#pragma unroll with a compile-time trip count: a template parameter or constexpr) so the compiler folds the counter's int-to-float conversions and the coefficients into constants; compute what depends on the kernel's arguments alone once, on the host (pass it as arguments or in __constant__ memory) or once per block in shared memory, not in every thread"
	if len(w.Loads) > 0 {
		loads, words := uniformWords(a, w.Loads)
		from = fmt.Sprintf("from constants, the kernel's arguments, loop counters and %d words every thread loads from the same addresses (%d loads a thread: parameters read through a pointer", words, loads)
		if loads > words {
			from += ", loaded again"
			if behind {
				from += " after the stores, which may alias them"
			}
		}
		from += ")"
		advice = "read the parameters once, before the loop, into registers (const Params q = *p, or pass the struct by value as a kernel argument; __restrict__ on the pointers lets the compiler keep them across the stores), and compute what depends on them alone (a powf, a sqrtf, a reciprocal) once: on the host, or once a thread before the loop, so that each element is one multiply-add; unroll a loop whose counter feeds them"
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the executed instructions (%.3g warp-level) compute values that are the same in every thread of the grid, %s (%s), on the %s; unrolled and hoisted they go, and %s",
			100*w.Share(), w.Inst, from, strings.Join(parts, ", "), held, falls),
		Advice:   advice,
		Evidence: append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("invariant_inst=%.4g", w.Inst), fmt.Sprintf("invariant_share=%.3f", w.Share()), fmt.Sprintf("invariant_values_share=%.3f", (w.Conv+w.Math)/w.All)),
		Locations: topLines(p, func(op string, s profan.SourceRecord) bool {
			return w.Values[s.Address] && !toolkitHeader(s.File)
		}),
	})
}

// loadsBehindStores reports whether most of a kernel's global loads of
// its threads' own data (not the loads of one address in every thread,
// uniform) follow a global store in program order: the compiler keeps
// each load behind the store before it, the pointers possibly aliasing
// (fixtures/sol-check22's paramScale<0>, 7 of its 8 loads of x[i] each
// after the store of the element before, as in its fixed twin).
func loadsBehindStores(a *analysis.Kernel, uniform map[string]bool) bool {
	stored := false
	var loads, behind int
	for _, s := range addressOrder(a) {
		ld, st := globalAccess(opcode(s.SASS))
		switch {
		case st:
			stored = true
		case ld && !uniform[s.Address]:
			loads++
			if stored {
				behind++
			}
		}
	}
	return loads > 0 && 2*behind >= loads
}

// uniformWords counts a kernel's loads of one address in every thread
// (their instructions) and the words they read (their distinct
// operands).
func uniformWords(a *analysis.Kernel, uniform map[string]bool) (loads, words int) {
	seen := map[string]bool{}
	for _, s := range instructions(a) {
		if !uniform[s.Address] {
			continue
		}
		loads++
		w := memOperand(strings.Fields(strings.ReplaceAll(s.SASS, ",", " ")))
		if !seen[w] {
			seen[w] = true
			words++
		}
	}
	return loads, words
}
