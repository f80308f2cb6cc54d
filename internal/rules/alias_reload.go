package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// aliasReload reports a loop that stores to a global address it does not
// change at every step and loads fixed addresses again after each store:
// through pointers that may alias, the compiler can keep neither value in
// a register.
var aliasReload = &Rule{
	ID:    "alias-reload",
	Title: "A loop stores and re-loads through pointers that may alias",
	Text: `When a kernel's pointers may alias (no __restrict__), a store through one may
change what another points to: a loop that accumulates into memory (y[i] += ...)
stores the sum at every step, and loads again after each store every value it reads
through another pointer (x[i]), though neither address changes in the loop. Each
step issues a store that goes through L1 to L2 and loads that wait behind it, where
registers would hold both. Declaring the pointers __restrict__ (const for the
inputs) and accumulating in a local variable, stored once after the loop, keeps
the values in registers.`,
	Before: `__global__ void k(float* y, const float* x, const float* w, int n) {
    // ...
    for (int k = 0; k < 64; ++k) y[i] += w[k] * x[i];   // a store of y[i], a load of x[i] a step`,
	After: `__global__ void k(float* __restrict__ y, const float* __restrict__ x, const float* __restrict__ w, int n) {
    // ...
    const float v = x[i];
    float acc = 0.0f;
    for (int k = 0; k < 64; ++k) acc += w[k] * v;
    y[i] = acc;`,
	Severity:    profan.Warning,
	Cause:       CauseMemory,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    join(usageReads, []string{"inst_executed", "gst_transactions", "gld_transactions", "l1_hit_rate"}),
	Check:       checkAliasReload,
}

// aliasWork is what aliasReload reads from a source page, in warp
// instructions executed: the stores a loop repeats at an address it does
// not change and the loads it repeats at such addresses after them (each
// execution after the loop's first), what the fix removes of them (all
// but one store an address and one load an address a loop entry), the
// global stores and every memory instruction, and the addresses of the
// instructions repeated.
type aliasWork struct {
	stores, loads                float64
	removedStores, removedLoads  float64
	globalStores, memory, global float64
	at                           map[string]bool
}

// globalAccess reports whether a SASS opcode is a plain global (or
// generic) load or store: not a volatile one (.STRONG: fences and
// volatile-reread read those), not an atomic.
func globalAccess(op string) (load, store bool) {
	if strings.Contains(op, ".STRONG.") {
		return false, false
	}
	base, _, _ := strings.Cut(op, ".")
	return base == "LDG" || base == "LD", base == "STG" || base == "ST"
}

// aliasReloads reads a kernel's loops that store to a fixed global
// address at every step.
func aliasReloads(a *analysis.Kernel) (w aliasWork) {
	recs, loops := sassLoops(a)
	w.at = map[string]bool{}
	for _, s := range recs {
		op := opcode(s.SASS)
		if memoryOp(op) {
			w.memory += instExecuted(s)
		}
		base, _, _ := strings.Cut(op, ".")
		switch base {
		case "LDG", "LD", "STG", "ST", "ATOMG", "ATOM", "RED", "REDG":
			w.global += instExecuted(s)
		}
		if _, st := globalAccess(op); st {
			w.globalStores += instExecuted(s)
		}
	}
	for _, l := range loops {
		stored := map[string]bool{}
		for _, b := range l.body {
			if _, st := globalAccess(opcode(b.SASS)); st && l.invariant(b.SASS) && instExecuted(b) > l.entries {
				stored[memOperand(strings.Fields(strings.ReplaceAll(b.SASS, ",", " ")))] = true
			}
		}
		if len(stored) == 0 {
			continue
		}
		loaded := map[string]bool{}
		var st, ld float64
		for _, b := range l.body {
			ldOp, stOp := globalAccess(opcode(b.SASS))
			n := instExecuted(b)
			if !(ldOp || stOp) || w.at[b.Address] || !l.invariant(b.SASS) || !(n > l.entries) {
				continue
			}
			w.at[b.Address] = true
			if stOp {
				w.stores += n - l.entries
				st += n
			} else {
				w.loads += n - l.entries
				ld += n
				loaded[memOperand(strings.Fields(strings.ReplaceAll(b.SASS, ",", " ")))] = true
			}
		}
		w.removedStores += math.Max(0, st-l.entries*float64(len(stored)))
		w.removedLoads += math.Max(0, ld-l.entries*float64(len(loaded)))
	}
	return w
}

// checkAliasReload prices the stores and loads the fix removes with the
// time model: the LSU's requests (L1 and the pipe that issues them) fall
// with the memory instructions kept, L2's sectors with the stores (L1
// writes through; the re-loads hit L1), DRAM keeps its bytes.
// fixtures/sol-check14's aliasAcc0, y[i] += w[k]·x[i] over 64 k: eight
// STG of y[i] and eight LDG of x[i] a step of eight, 65 % of its memory
// instructions, L2 at 77 % of its peak; __restrict__ and a register sum
// ran 0.84 faster, held by its 64 loads of w[k] (L1 at 95 %).
func checkAliasReload(p *Pass) {
	if !inLoop(p.Kernel, "global", "store") {
		return // no store a loop repeats
	}
	w := aliasReloads(p.Kernel)
	removed := w.removedStores + w.removedLoads
	if !(w.removedStores > 0) || !(w.removedLoads > 0) || !(w.global > 0) || removed < 0.5*w.global || !(w.memory >= removed) {
		return
	}
	t, ok := p.Value("duration")
	us, okU := usageOf(p)
	if !ok || !(t > 0) || !okU {
		return
	}
	kept := (w.memory - removed) / w.memory
	f := scale{analysis.LimitL1Shared: kept, analysis.LimitMemory: kept}
	if pipe := p.Kernel.Limiter.Pipe; pipe == "LSU" || pipe == "MIO" || pipe == "" {
		f[analysis.LimitPipe] = kept
	} else if n, ok := p.Value("inst_executed"); ok && n > removed {
		f[analysis.LimitPipe] = 1 - removed/n
	}
	gst, okS := p.Value("gst_transactions")
	gld, okL := p.Value("gld_transactions")
	hit, okH := p.Value("l1_hit_rate")
	if okS && okL && okH && gst > 0 && w.globalStores > 0 {
		l2 := gst + gld*(1-hit/100)
		f[analysis.LimitL2] = clamp01((l2 - gst*w.removedStores/w.globalStores) / l2)
	}
	// The loads no longer wait behind the stores: the kernel runs at
	// its busiest unit's ceiling, not at the share of it the chain of
	// store and re-load left it (aliasAcc1: L1 at 95 % where its twin
	// held L2 at 77 %).
	gain := clamp01((1 - math.Max(math.Min(1, us.norm(f)), math.Min(1, launchFloor/t))) * variableShare(p))
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("a loop stores to an address it does not change at every step (%.3g stores after each loop's first) and loads fixed addresses again after each store (%.3g loads): the pointers may alias, so neither value stays in a register; %.0f%% of the kernel's global memory instructions go with them",
			w.stores, w.loads, 100*removed/w.global),
		Advice:    "declare the kernel's pointers __restrict__ (const __restrict__ for inputs), load the loop's fixed inputs once before it and accumulate in a local variable, stored once after the loop",
		Evidence:  p.evidence("l2_sol_pct", "l1_sol_pct", "duration"),
		Locations: topLines(p, func(_ string, s profan.SourceRecord) bool { return w.at[s.Address] }),
	})
}
