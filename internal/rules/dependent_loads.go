package rules

import (
	"fmt"
	"math"
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
or prefetch the next node while working on this one. Values boxed behind
pointers (y[i] = *p[i]) are a chain two loads deep whose second load lands
where each pointer leads: store the values themselves, in the order they are
read.`,
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
	Optional:    trafficReads,
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
		checkWalkLoads(p)
		return
	}
	chased, loads, at := chasedLoads(a)
	if !(chased > 0) || chased < 0.5*loads {
		checkComposedLoads(p)
		return
	}
	gain := leftBy(p, analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared)
	msg := fmt.Sprintf("%.0f%% of the global load requests (%.3g) take their address from the value a load of their loop returned (a pointer chase, or a search whose compare of the loaded value picks the next address): a warp has one of them in flight at a time, and no memory unit is near its peak",
		100*chased/loads, chased)
	advice := "break the chain: compute the addresses up front (an index table, a closed form), walk several independent chains a thread or a warp so their loads overlap, or prefetch the next node while working on this one"
	if laid, share := chainLayoutGain(p, at); laid > gain {
		gain = laid
		msg = fmt.Sprintf("%.0f%% of the global load requests (%.3g) chase pointers, each address the value a load of their loop returned (e = pool[e].next): a warp has one hop in flight at a time, and each lane's hop lands where its link leads, a sector of its own, so %.0f%% of the sectors the chain moves are beyond what its threads ask for",
			100*chased/loads, chased, 100*share)
		advice = "lay each chain's entries out in the order it visits them (a hash bucket's keys contiguous, read in one or two vector loads): the hops become one contiguous read a thread, independent of each other, and the sectors the scattered hops waste go"
	}
	p.report(estimate(gain), Note{
		Message:   msg,
		Advice:    advice,
		Evidence:  p.evidence("dram_sol_pct", "l2_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return slices.Contains(at, s.Address) }),
	})
}

// chainLayoutGain prices laying a pointer chase's entries out in the
// order the chain visits them (analysis.PointerChased: a hash bucket's
// linked entries through a pool, each hop e = pool[e].next): each lane's
// hop is a sector of its own where the chain lies at random, and laid
// out contiguous a thread's hops read the bytes they use, so the sectors
// the chased loads move beyond their ideal go (trafficGain), which
// leftBy's units-busy price misses when the scattered hops themselves
// keep L2 busy. fixtures/sol-check20's hashChain<0>, chains of 8 linked
// 8-byte entries through a 256 MiB pool, 32 sectors a request where 8
// would do, L2 at 89 %: its twin, the bucket's 8 keys contiguous in two
// uint4, ran 0.89 faster. share is the chased loads' sectors beyond
// their ideal as a share of their sectors; 0, 0 for no pointer chase.
func chainLayoutGain(p *Pass, at []string) (gain, share float64) {
	var sectors, wasted float64
	for _, in := range p.Kernel.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" || !slices.Contains(at, in.Address) || !analysis.PointerChased(p.Kernel, in.Address) {
			continue
		}
		sectors += in.Sectors
		wasted += max(0, in.Sectors-in.IdealSectors)
	}
	if !(wasted > 0) {
		return 0, 0
	}
	return trafficGain(p, traffic{GlobalSectors: wasted}), wasted / sectors
}

// walkTrips is the fewest trips a warp's walk must average for
// dependent-loads to read a memory-bound walk: a short chain's loads are
// few whatever their order.
const walkTrips = 4

// checkWalkLoads reads a memory-bound kernel whose global loads walk a
// loop-carried chain (the load's address the value the same load returned
// the trip before, r = parent[r] until a root): the memory units are
// busy, but with the walk's trips, each a load that depends on the last,
// not with the data a thread needs. Computing the end of the walk up front
// (the links compressed, an index table, a closed form) leaves one load a
// thread where the warps issue trips of them: 1 − 1/trips of the walk's
// loads go. fixtures/sol-check16's findRoot<0>, parent walks of 7.5 hops
// a node on average, 15.9 a warp (the warp waits for its longest lane),
// L2 at 97 %: 1 − 1/15.9 = 0.94 against 0.97 measured (the twin,
// path-compressed, loads once).
func checkWalkLoads(p *Pass) {
	a := p.Kernel
	switch a.Limiter.Unit {
	case analysis.LimitDRAM, analysis.LimitL2, analysis.LimitL1Shared:
	default:
		return
	}
	k := a.Record
	warps := math.Ceil(float64(k.Block.Size())/32) * float64(k.Grid.Size())
	if !(warps > 0) {
		return
	}
	var walked, loads float64
	var at []string
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" {
			continue
		}
		loads += in.Requests
		if in.Requests >= walkTrips*warps && analysis.SelfChased(a, in.Address) {
			walked += in.Requests
			at = append(at, in.Address)
		}
	}
	if !(walked > 0) || walked < 0.5*loads {
		checkUnrolledWalk(p)
		return
	}
	trips := walked / (warps * float64(len(at)))
	gain := (walked / loads) * (1 - 1/trips)
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the global load requests (%.3g) walk a chain, each load's address the value the same load returned the trip before (r = parent[r]): %.1f trips a warp, each waiting for the last, keep the memory units busy with the walk",
			100*walked/loads, walked, trips),
		Advice:    "compute the end of the walk up front (compress the links so each node names its root, an index table, a closed form): one load a thread instead of a chain of them",
		Evidence:  p.evidence("dram_sol_pct", "l2_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return slices.Contains(at, s.Address) }),
	})
}

// unrolledHops is the fewest dependent global loads a straight-line chain
// must hold for dependent-loads to read it as a walk: a gather's index
// levels (x[idx[i]], two) are not one.
const unrolledHops = 8

// checkUnrolledWalk reads a memory-bound kernel whose walk the compiler
// unrolled (a fixed number of hops, node = next[node], no loop left): a
// straight-line chain of global loads, each address the value the one
// before returned, with the loads beside it that take the same chased
// address (val[node]) part of the walk. The nodes lie wherever the chain
// leads, so each lane's load is a sector of its own and the memory units
// are busy with sectors the walk mostly wastes; computed up front, the
// walk's order lets the nodes be laid out in it (node j of list i at
// j·L + i) and read coalesced: the sectors the walk's loads move beyond their ideal
// go. fixtures/sol-check17's listSum<0>, 64 hops a list
// unrolled, 128 of its 129 global loads on the chain, L2-bound, against
// its flattened twin.
func checkUnrolledWalk(p *Pass) {
	a := p.Kernel
	if !slices.ContainsFunc(a.Model.Instructions, func(in analysis.Instruction) bool { return in.Space == "global" && in.Indirect }) {
		return // no load gathers: no hop of a walk wastes a sector
	}
	depth := analysis.ChainDepths(a)
	if depth == nil {
		return
	}
	var walked, loads, wasted float64
	var at []string
	hops := 0
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" {
			continue
		}
		loads += in.Requests
		d := depth[in.Address]
		hops = max(hops, d)
		if d >= 2 {
			walked += in.Requests
			wasted += max(0, in.Sectors-in.IdealSectors)
			at = append(at, in.Address)
		}
	}
	if hops < unrolledHops || !(walked > 0) || walked < 0.5*loads {
		return
	}
	gain := trafficGain(p, traffic{GlobalSectors: wasted})
	if gain < p.Thresholds.MinGain {
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the global load requests (%.3g) walk an unrolled chain %d loads deep, each address the value a load before it returned (node = next[node]): the nodes lie where the chain leads, a sector a lane, and the memory units are busy with the walk's scattered reads",
			100*walked/loads, walked, hops),
		Advice:    "compute the walk up front and lay the nodes out in the order it visits them (node j of chain i at j·chains + i), so each hop is one coalesced load, independent of the last",
		Evidence:  p.evidence("dram_sol_pct", "l2_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return slices.Contains(at, s.Address) }),
	})
}

// composedShare is the least share of a kernel's global load requests
// the middle links of its chains must hold for dependent-loads to read
// them: a lone lookup through two tables beside a kernel's own loads is
// little of its time.
const composedShare = 0.2

// checkComposedLoads reads a latency-bound kernel whose global loads
// chain in straight-line code (y[i] = v[p1[p2[i]]], analysis.ComposedLinks):
// each link waits a round trip for the last one's value, and the
// middle links' gathers (p1[·] at random) load L2 and DRAM besides. With
// the composition computed once (p12 = p1∘p2), the middle links go, their
// sectors with them (L2 by its lookups: a sector each for a gather whose
// lanes each read their own line, a line's four for a coalesced load),
// and the one index load left and the gather overlap across warps: the
// kernel runs at its busiest unit's ceiling on the work left, as a chain
// broken into independent loads does (leftBy). fixtures/sol-check22's
// perm2<0>: 3 loads deep, its middle link half its L2 lookups, L2 at
// 87 %: 0.50 against 0.62 measured (its twin, y[i] = v[p12[i]], ran L2
// at 94 %, its DRAM bytes 0.43 of the chain's).
func checkComposedLoads(p *Pass) {
	a := p.Kernel
	links := analysis.ComposedLinks(a)
	if len(links) == 0 {
		checkBoxedLoads(p)
		return
	}
	us, ok := usageOf(p)
	if !ok {
		return
	}
	var loads, linked, sectors, linkSectors, lookups, linkLookups float64
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || !(in.Sectors > 0) {
			continue
		}
		l := in.Sectors / 4
		if ownLines(in) && in.SectorsPerRequest >= 0.9*32 {
			l = in.Sectors // a lookup a lane: its own line
		}
		sectors += in.Sectors
		lookups += l
		if in.Operation == "load" {
			loads += in.Requests
		}
		if links[in.Address] {
			linked += in.Requests
			linkSectors += in.Sectors
			linkLookups += l
		}
	}
	if !(linked > 0) || linked < composedShare*loads || !(sectors > 0) {
		return
	}
	keep := 1 - linkSectors/sectors
	f := scale{analysis.LimitDRAM: keep, analysis.LimitL1Shared: keep, analysis.LimitL2: 1 - linkLookups/lookups, analysis.LimitMemory: keep}
	gain := clamp01((1 - math.Min(1, us.norm(f))) * variableShare(p))
	if gain < p.Thresholds.MinGain {
		return
	}
	depth := 0
	for _, d := range analysis.ChainDepths(a) {
		depth = max(depth, d)
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the global load requests (%.3g) are the middle links of a chain of dependent loads %d deep, each address the value the load before returned (y[i] = v[p1[p2[i]]]): a warp waits a memory round trip for each link before it can issue the next, and the links' own sectors, %.0f%% of its global sectors, load L2 and DRAM besides",
			100*linked/loads, linked, depth, 100*linkSectors/sectors),
		Advice:    "compose the index maps once (p12[i] = p1[p2[i]], in a pass of their own, or where the maps are built) and load through the composition, y[i] = v[p12[i]]: one index load and the gather, the middle links' round trips and sectors gone; where the maps change every call, compose them in the kernel that builds them",
		Evidence:  append(p.evidence("dram_sol_pct", "l2_sol_pct", "duration"), fmt.Sprintf("chain_depth=%d", depth), fmt.Sprintf("link_sector_share=%.3f", linkSectors/sectors)),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return links[s.Address] }),
	})
}

// checkBoxedLoads reads a latency-bound kernel whose values are boxed
// behind pointers (analysis.BoxedLoads: y[i] = s·*p[i], the value's
// address the pointer a load before it returned): a warp waits a memory
// round trip for its pointers before it can issue the values' loads, and
// each lane's value lies where its pointer leads, a sector of its own.
// Unboxed beforehand (the values stored in the order the pointers are
// read, y[i] = s·v[i]) the pointers' loads go and the values' loads read
// only the bytes they use, coalesced: the pointers' sectors and the boxed
// loads' sectors beyond their ideal go (trafficGain), and the kernel, no
// longer waiting on a chain, runs at its units' ceilings on the rest.
// fixtures/sol-check24's boxedLoad<0>, 16 Mi pointers to floats at random
// in a 512 MiB pool, latency-bound: its twin, the values unboxed, ran
// 0.89 faster.
func checkBoxedLoads(p *Pass) {
	a := p.Kernel
	boxed := analysis.BoxedLoads(a)
	if len(boxed) == 0 {
		return
	}
	ptr := map[string]bool{}
	for _, at := range boxed {
		ptr[at] = true
	}
	var loads, boxedReq, removed float64
	seen := map[string]bool{}
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" || seen[in.Address] {
			continue
		}
		seen[in.Address] = true
		loads += in.Requests
		switch {
		case boxed[in.Address] != "":
			boxedReq += in.Requests
			removed += max(0, in.Sectors-in.IdealSectors)
		case ptr[in.Address]:
			removed += in.Sectors
		}
	}
	if !(boxedReq > 0) || boxedReq < composedShare*loads || !(removed > 0) {
		return
	}
	gain := trafficGain(p, traffic{GlobalSectors: removed})
	if gain < p.Thresholds.MinGain {
		return
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%.0f%% of the global load requests (%.3g) load values boxed behind pointers, each address the pointer a load before it returned (y[i] = *p[i]): a warp waits a memory round trip for its pointers before it can load the values, and each lane's value lies where its pointer leads, a sector of its own",
			100*boxedReq/loads, boxedReq),
		Advice:    "unbox the values: store them in an array in the order the pointers are read (y[i] = s·v[i]), filled where the pointers are made or in a pass of their own, so that one coalesced load a value replaces the pointer's load and the scattered one",
		Evidence:  p.evidence("dram_sol_pct", "l2_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return boxed[s.Address] != "" }),
	})
}
