package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// constantSerialization reports a __constant__ table read at indices that
// differ across a warp's lanes: the constant cache serves one address a
// request, so the warp's load is replayed once per distinct address.
var constantSerialization = &Rule{
	ID:    "constant-serialization",
	Title: "A __constant__ table read at a different index in each lane",
	Text: `Constant memory is made for values every thread of a warp reads at once: the
constant cache serves one address per request and broadcasts it to the lanes. A
warp whose lanes index a __constant__ table each at their own place (a lookup
table at data-dependent indices, a per-thread coefficient) is served one
distinct address after another, up to 32 requests for one load, and a table
larger than the SM's small constant cache misses to the GPC's, which the whole
GPU then waits on. Read such a table from global memory through the read-only
path (const __restrict__ pointers, __ldg), or copy it once per block into
shared memory, where a warp's 32 lanes read 32 banks at a time.`,
	Before: `__constant__ float lut[2048];
t = lut[h & 2047];          // h differs in every lane`,
	After: `__shared__ float s_lut[2048];
for (int j = threadIdx.x; j < 2048; j += blockDim.x) s_lut[j] = lut_global[j];
__syncthreads();
t = s_lut[h & 2047];`,
	Severity:    profan.Warning,
	Cause:       CauseOwn,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    join(usageReads, []string{"constant_requests", "constant_cache_pct", "mio_stall_pct"}),
	Check:       checkConstantSerialization,
}

// checkConstantSerialization prices the fix from the serialised replays:
// the constant cache set the kernel's time (analysis.ConstantWork.Limits),
// and the same loads at one request each take 1/replays of it; what the
// kernel's DRAM and L2 traffic need stays (fixtures/sol-check9's
// lutConst<0>: 31.8 requests a load, 0.97 against the 0.99 its
// shared-memory twin ran faster).
func checkConstantSerialization(p *Pass) {
	a := p.Kernel
	w, ok := analysis.Constants(a)
	if !ok || !w.Limits() {
		return
	}
	r, _ := w.Replays()
	gain := math.Min(clamp01(1-1/r), leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if t, ok := p.Value("duration"); ok && t > 0 {
		gain = math.Min(gain, math.Max(0, 1-launchFloor/t))
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%s: the warp's loads are replayed once per distinct address", w.Describe()),
		Advice:  "read the table from global memory through the read-only path (const __restrict__ pointer, __ldg) or copy it once per block into shared memory; keep __constant__ for values a whole warp reads at one index",
		Evidence: append(p.evidence("constant_requests", "constant_cache_pct", "duration"),
			fmt.Sprintf("indexed_constant_loads=%.4g", w.Loads)),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return analysis.IndexedConstantLoad(s.SASS) }),
	})
}
