package rules

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// atomicSerialization reports kernels whose time goes to atomics on one
// address (the analysis's LimitAtomics): a sum or a counter that every warp
// updates.
var atomicSerialization = &Rule{
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
	Cause:    CauseAtomics,
	Scope:    Algorithm,
	Locates:  true,
	Requires: []string{"l2_atomic_requests", "l2_cycles"},
	Optional: gridReads,
	Check: func(p *Pass) {
		l := p.Kernel.Limiter
		if l.Unit != analysis.LimitAtomics {
			return
		}
		w, _ := analysis.Atomics(p.Kernel)
		n := w.Requests
		blocks := float64(p.Kernel.Record.Grid.Size())
		ev := append(p.evidence("l2_atomic_requests", "l2_cycles"), fmt.Sprintf("l2_atomic_ops=%.0f", w.Ops), fmt.Sprintf("grid_blocks=%.0f", blocks))
		// The limiter's sentence, word for word: one count of the atomic
		// operations, one share of the L2 cycles.
		what := w.Describe()
		_, _, triton := tritonKernel(p.Kernel.Record)
		if blocks > 0 && n >= 2*blocks {
			advice := "combine before the global atomic: reduce within each warp (__reduce_add_sync, __shfl_down_sync) and block, or privatise (per-block bins in shared memory), then one global atomic per block or per bin"
			if triton {
				// A Triton program is the block: its reduction is
				// tl.sum (or tl.histogram for bins), which Triton
				// lowers to the warp shuffles and shared memory above
				// (fixtures/sol-check12's tsum_each → tsum_block).
				advice = "combine within the program before the atomic: reduce its BLOCK_SIZE elements with tl.sum(x, axis=0) (tl.histogram for bins), then one tl.atomic_add per program (per bin); a larger BLOCK_SIZE, with num_warps to match, makes fewer programs and fewer atomics; or store each program's partial sum and add them in a second kernel"
				if f, ok := fences(p.Kernel); ok && f.guards >= 0.5*f.fences {
					// The fences go with the atomics they order
					// (fence-per-access leaves them to this finding).
					advice += "; and pass sem=\"relaxed\" to the atomics that remain where no other program reads what they publish: the default acq_rel puts a device-wide fence (MEMBAR) before each"
				}
			}
			p.report(estimate(atomicGain(p, w, blocks)), Note{
				Message:   fmt.Sprintf("%s; %.1f per block", what, w.Ops/blocks),
				Advice:    advice,
				Evidence:  ev,
				Locations: atomicLines(p.Kernel),
			})
			return
		}
		// No broken/fixed pair measured yet: the gain is not estimated.
		advice := "let each block write its partial result to an array and sum the array in a second pass (or in the last block to finish) instead of atomics on one address"
		if triton {
			advice = "let each program tl.store its partial result (tl.sum over its BLOCK_SIZE elements) to a buffer and sum the buffer in a second kernel instead of tl.atomic_add on one address; a larger BLOCK_SIZE, with num_warps to match, makes fewer partials"
		}
		p.report(unknownGain, Note{
			Message:   fmt.Sprintf("%s; about one per block", what),
			Advice:    advice,
			Evidence:  ev,
			Locations: atomicLines(p.Kernel),
		})
	},
}

// atomicLines returns the source lines of the kernel's global atomics
// (RED and ATOM instructions, not shared ATOMS), the most executed first.
func atomicLines(a *analysis.Kernel) []profan.Location {
	return linesOf(a, func(op string) bool {
		return (strings.HasPrefix(op, "RED") || strings.HasPrefix(op, "ATOM")) && !strings.HasPrefix(op, "ATOMS") && !strings.HasPrefix(op, "REDUX")
	})
}

// linesOf returns up to three source lines holding the executed SASS
// instructions whose operation match accepts, the most executed first,
// each line once.
func linesOf(a *analysis.Kernel, match func(op string) bool) []profan.Location {
	type cand struct {
		loc profan.Location
		n   float64
	}
	byLine := newPerLine(func(loc profan.Location) *cand { return &cand{loc: loc} })
	callers := callerLines(a)
	for _, s := range a.Record.Source {
		if s.SASS == "" || !match(opcode(s.SASS)) {
			continue
		}
		if c, ok := callers[s.Address]; ok {
			// Inlined from a toolkit header (atomicAdd on 64-bit
			// integers): the user's line that called it.
			s.File, s.Line = c.File, c.Line
		}
		n := instExecuted(s)
		if n <= 0 {
			continue
		}
		c := byLine.at(s)
		if c.loc.SASS == "" {
			c.loc.SASS = strings.TrimSpace(s.SASS)
		}
		c.n += n
	}
	cs := byLine.order
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].n > cs[j].n })
	var out []profan.Location
	for _, c := range cs {
		out = append(out, c.loc)
		if len(out) == 3 {
			break
		}
	}
	return out
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
