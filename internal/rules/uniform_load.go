package rules

import (
	"fmt"
	"maps"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// uniformLoad reports warps whose threads all read one address.
var uniformLoad = &Rule{
	ID:    "uniform-load",
	Title: "Every thread of a warp loads the same address",
	Text: `A global load whose 32 threads read one address costs one request and one
sector for one useful word. Values that every thread needs belong in constant
memory (served by a broadcast cache), in a kernel argument, or loaded once per
block into shared memory or a register outside the loop.`,
	Before: `out[i] = in[i] * scale[0];   // every thread loads scale[0]`,
	After: `__constant__ float c_scale;  // cudaMemcpyToSymbol(c_scale, ...)
out[i] = in[i] * c_scale;`,
	Severity: profan.Info,
	Cause:    CauseMemory,
	Scope:    Source,
	Requires: []string{"gld_transactions_per_request"},
	Optional: join(memoryWeightReads, []string{"gld_efficiency", "global_load_requests"}),
	Check: func(p *Pass) {
		x := p.Kernel.Model.GlobalLoad
		// A broadcast whose value every lane then computes on alike is
		// warp-redundant-work's: one lane a row loads it once, coalesced
		// with the other rows', where a constant would save nothing of
		// the work (fixtures/sol-check16's warpDup<0>, seed[g >> 5]
		// before a 256-step chain).
		redundant := map[string]bool{}
		if w, ok := analysis.LaneRedundant(p.Kernel); ok && redundantShare(w) {
			redundant = w.Loads
		}
		// Likewise a word of one address in every thread whose value
		// the grid's invariant work reads is invariant-work's: hoisted,
		// it is loaded once (fixtures/sol-check22's paramScale<0>, the
		// parameters powf and sqrtf read, reloaded for each element).
		if w, ok := analysis.GridInvariant(p.Kernel); ok && w.Worth() && len(w.Loads) > 0 {
			redundant = maps.Clone(redundant)
			maps.Copy(redundant, w.Loads)
		}
		var locs []profan.Location
		bcast := map[string]bool{}
		for _, in := range p.Kernel.Model.Instructions {
			// A math library's table (double sin's coefficients) is
			// not the kernel's to move to __constant__ memory.
			if in.Space == "global" && in.Operation == "load" && in.Pattern.Kind == gpumodel.Broadcast && !analysis.LibraryTable(p.Kernel, in.Address) && !redundant[in.Address] {
				locs = append(locs, profan.Location{File: in.File, Line: in.Line, SASS: in.SASS})
				bcast[in.Address] = true
			}
		}
		if (x == nil || x.Pattern.Kind != gpumodel.Broadcast) && len(locs) == 0 {
			return
		}
		if len(locs) == 0 && len(redundant) > 0 {
			return // every broadcast the kernel makes is one of those
		}
		// Priced against the unit that limits the kernel: a broadcast is
		// one sector a warp, which L1 or L2 serves after the first warp
		// has read it, so on a kernel whose speed of light is DRAM's it
		// adds none of the bytes DRAM moves, and a constant or an
		// argument would save none of its time (fixtures/sol-check13's
		// pitchRow<4001>, a row's scale g[r] a warp beside four sectors
		// of the row in and out, and scalebias_rt, s[row] beside 16-byte
		// streams: both at 79 % or half of DRAM's peak, twins with the
		// same load within 3 %; sol-check11's chase<1>, a table's word).
		if h := p.Kernel.Limiter.Headroom; h.Known() && h.Unit == "DRAM" {
			return
		}
		// Nor on a kernel L2 limits: after the first warp the
		// broadcast's sector is an L1 hit and adds nothing to L2's work
		// (fixtures/sol-check14's aliasAcc0, w[k] a warp beside a
		// store of y[i] a step: L2 at 77 % with the stores, 98.7 % of
		// the load sectors L1 hits; its twin, with the same loads of
		// w, ran 0.84 faster).
		if p.Kernel.Limiter.Unit == analysis.LimitL2 {
			return
		}
		msg := "the threads of a warp read one address"
		if x != nil && x.Pattern.Kind == gpumodel.Broadcast {
			msg = fmt.Sprintf("global loads take %.2f sectors per request: %s", x.SectorsPerRequest, msg)
		} else {
			msg = fmt.Sprintf("%d global load instruction(s) where %s", len(locs), msg)
		}
		if len(locs) > 3 {
			locs = locs[:3]
		}
		gain := 0.1 * memoryWeight(p)
		// On a kernel L1/shared limits, a broadcast's one request a warp
		// is its share of the requests that unit serves, all the time a
		// constant or an argument could give back: an epilogue's
		// qn[i] and kn[j] once a thread beside a shared-tile GEMM's two
		// shared loads an FMA is none (fixtures/sol-check27's cosSim<1>:
		// L1/shared at 92 %, 1.3e5 broadcast requests of 7.2e7).
		if p.Kernel.Limiter.Unit == analysis.LimitL1Shared {
			var mine, all float64
			for _, in := range p.Kernel.Model.Instructions {
				if in.Space != "global" && in.Space != "shared" {
					continue
				}
				all += in.Requests
				if bcast[in.Address] {
					mine += in.Requests
				}
			}
			if all > 0 && mine > 0 {
				gain = math.Min(gain, memoryWeight(p)*mine/all)
			}
		}
		p.report(estimate(clamp01(gain)), Note{
			Message:   msg,
			Advice:    "put the value in __constant__ memory or a kernel argument, or load it once per block into shared memory",
			Evidence:  p.evidence("gld_transactions_per_request", "gld_efficiency", "global_load_requests"),
			Locations: locs,
		})
	},
}
