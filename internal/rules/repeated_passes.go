package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// repeatedPasses reports a memory-bound kernel whose loops each read the
// same data again, one pass a result: the passes after the first move
// bytes the first already moved.
var repeatedPasses = &Rule{
	ID:    "repeated-passes",
	Title: "Several loops read the same data again",
	Text: `A kernel that reads an array once per result (a sum, then a sum of squares, then a
minimum, each its own loop over the data) moves the array through DRAM or L2 once per
loop: where it does not fit in L2, each pass costs a full read, and a memory-bound
kernel takes as many times longer. One loop that loads each element once and updates
every result from it moves the data once. Where the passes depend on each other (a
mean before a variance), keep the first pass's result and fuse the rest, or use a
one-pass algorithm (Welford's for the variance).`,
	Before: `for (int i = t; i < n; i += stride) s  += x[i];
for (int i = t; i < n; i += stride) s2 += x[i] * x[i];   // x read again`,
	After:    `for (int i = t; i < n; i += stride) { float v = x[i]; s += v; s2 += v * v; }`,
	Severity: profan.Warning,
	Cause:    CauseMemory,
	Scope:    Source,
	Locates:  true,
	Requires: []string{"duration", "gld_transactions"},
	Optional: join([]string{"gst_transactions"}, usageReads, memoryWeightReads),
	Check:    checkRepeatedPasses,
}

// checkRepeatedPasses prices the fix as the passes' re-read share of the
// kernel's global traffic (its load sectors over its load and store
// sectors), at the share of its time the memory unit that limits it
// keeps busy against that unit's ceiling: fixtures/sol-check10's
// moments<0>, four grid-stride passes over 256 MiB (1 GiB through DRAM,
// 93 % of its peak), whose one-pass twin ran 0.74 faster. Only for a
// kernel DRAM or L2 limits: a kernel its arithmetic holds keeps its time
// whatever it loads.
func checkRepeatedPasses(p *Pass) {
	l := p.Kernel.Limiter
	if !(l.Unit == analysis.LimitDRAM || l.Unit == analysis.LimitL2) {
		return
	}
	ps, ok := analysis.RereadPasses(p.Kernel)
	if !ok {
		if ip, ok := analysis.InPlacePasses(p.Kernel); ok {
			inPlacePasses(p, ip)
		}
		return
	}
	ld, _ := p.Value("gld_transactions")
	st, okS := p.Value("gst_transactions")
	if !okS || !(st > 0) {
		st = 0
	}
	if !(ld > 0) {
		return
	}
	busy := 1.0
	if !math.IsNaN(l.Percent) {
		busy = math.Min(1, l.Percent/100/ceiling[l.Unit])
	}
	share := ps.Share * ld / (ld + st)
	gain := clamp01(share * busy)
	var names []string
	var locs []profan.Location
	for i, n := range ps.Lines {
		names = append(names, strconv.Itoa(n))
		if i == 0 {
			continue // the first pass's reads are needed: the others re-read
		}
		for _, s := range instructions(p.Kernel) {
			if s.Line == n && strings.HasPrefix(opcode(s.SASS), "LDG") {
				locs = append(locs, profan.Location{File: s.File, Line: s.Line, SASS: s.SASS})
				break
			}
		}
	}
	advice := "fuse the loops into one that loads each element once and updates every result from it (a one-pass algorithm where a pass needs the one before: Welford's variance)"
	if _, _, triton := tritonKernel(p.Kernel.Record); triton {
		// A Triton program's passes over its row (fixtures/sol-check22's
		// lse_2pass: a max loop, then a sum-of-exp loop, each tl.load of
		// the same pointer).
		advice = "fuse the loops into one that loads each block of the row once and updates every result from it (an online max and sum of exponentials: m_new = tl.maximum(m, x); s = s * tl.exp(m - m_new) + tl.exp(x - m_new)), or load the whole row once with a BLOCK_SIZE as large as the row and num_warps to match, keeping it in registers between the passes"
	} else if ps.Held > 0 {
		advice += fmt.Sprintf("; a loop that writes after a reduction can take its data from the first loop, which keeps each block's %s in registers or shared memory (a thread's elements in an array the compiler unrolls into registers)", kib(ps.Held))
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("%d loops (lines %s) each read the same data: %.0f %% of its global load sectors re-read what a loop before read, with %s at %.0f %% of its peak",
			len(ps.Lines), strings.Join(names, ", "), 100*ps.Share, l.Unit, l.Percent),
		Advice:    advice,
		Evidence:  p.evidence("gld_transactions", "gst_transactions"),
		Locations: locs,
	})
}

// inPlacePasses prices passes over an array the kernel writes in place
// (analysis.InPlacePasses) from the bytes they move against one pass's:
// fused, the kernel's global sectors shrink by the passes' share
// (the later passes' loads of what it wrote, every store but the last),
// through DRAM, L2 and L1 alike, and the time model (usage.timeAfter)
// says what that leaves: fixtures/sol-check16's sweep4<0>, four sweeps
// of 256 MiB (L2 at 84 %, DRAM at 82 % of their peaks), whose one-sweep
// twin ran 0.75 faster.
func inPlacePasses(p *Pass, ip analysis.InPlace) {
	l := p.Kernel.Limiter
	f := 1 - ip.Share
	var gain float64
	if us, ok := usageOf(p); ok {
		gain = 1 - us.timeAfter(scale{analysis.LimitDRAM: f, analysis.LimitL2: f, analysis.LimitL1Shared: f, analysis.LimitMemory: f})
	} else {
		gain = ip.Share * memoryWeight(p)
	}
	var names []string
	var locs []profan.Location
	for _, n := range ip.Lines {
		names = append(names, strconv.Itoa(n))
		for _, s := range instructions(p.Kernel) {
			if s.Line == n && strings.HasPrefix(opcode(s.SASS), "LDG") {
				locs = append(locs, profan.Location{File: s.File, Line: s.Line, SASS: s.SASS})
				break
			}
		}
	}
	p.report(estimate(clamp01(gain)), Note{
		Message: fmt.Sprintf("%d loops each store the same array, the loads of the later ones (lines %s) reading back in place what the loop before wrote: %.0f %% of its global sectors are those re-reads and the stores a later loop overwrites, with %s at %.0f %% of its peak",
			ip.Passes, strings.Join(names, ", "), 100*ip.Share, l.Unit, l.Percent),
		Advice:    "fuse the loops into one that loads each element once, applies every step to the value in registers and stores it once",
		Evidence:  append(p.evidence("gld_transactions", "gst_transactions"), fmt.Sprintf("in_place_passes=%d", ip.Passes), fmt.Sprintf("in_place_share=%.3f", ip.Share)),
		Locations: locs,
	})
}
