package rules

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// neighbourRecompute reports a compute-bound kernel in which each thread
// computes the same function again on its neighbours' inputs (a stencil
// over a computed field: f(x[i-1]), f(x[i]), f(x[i+1])), so that every
// value is computed as many times as the stencil has taps. Its SASS is
// the function's inlined code repeated: runs of one source line with the
// same instructions, executed as often, each after a load of one line
// at a shifted index.
var neighbourRecompute = &Rule{
	ID:    "neighbour-recompute",
	Title: "Each thread recomputes the values its neighbours compute",
	Text: `A stencil over a computed field (smoothing f(x[i-1]), f(x[i]), f(x[i+1]), a
finite difference of a costly function, a filter of a decoded value) that
calls the function on each tap computes every value as many times as the
stencil has taps: each thread's neighbours compute the same ones. In the
SASS the function's inlined code repeats, one copy a tap, each after a load of
the same array at a shifted index. Compute each value once: a block computes
its elements and a halo of one tap each side into shared memory, syncs, and
combines from there (or exchanges the neighbours' values with __shfl_up_sync
and __shfl_down_sync within a warp, the edges from a halo); the cost is the
halo's few values a block and one barrier. Where the function is cheaper
than a load, the recomputation is the better choice: check the limiter.`,
	Before: `y[i] = 0.25f * (f(x[i - 1]) + 2.0f * f(x[i]) + f(x[i + 1]));   // f three times an element`,
	After: `s[t + 1] = f(x[i]); if (t == 0) s[0] = f(x[i - 1]); if (t == B - 1) s[B + 1] = f(x[i + 1]);
__syncthreads(); y[i] = 0.25f * (s[t] + 2.0f * s[t + 1] + s[t + 2]);`,
	Severity:    profan.Warning,
	Cause:       CauseCompute,
	Scope:       Source,
	Locates:     true,
	NeedsSource: true,
	Requires:    []string{"duration"},
	Optional:    usageReads,
	Check:       checkNeighbourRecompute,
}

// recomputeMinRun is the fewest instructions a repeated run must have to
// be a function's copy rather than an idiom the compiler repeats (an
// index's few instructions).
const recomputeMinRun = 8

// recomputed finds the copies: for each source line, its runs of
// instructions contiguous in address, grouped by their opcode sequence
// and execution count; a group of two or more runs is a function's code
// inlined as many times. It returns the instructions (warp-level) the
// copies beyond the first take, the copies' largest count, the kernel's
// instructions and the lines.
func recomputed(a *analysis.Kernel) (dup, copies, total float64, locs []profan.Location) {
	type rec struct {
		addr uint64
		n    float64
		op   string
		sass string
		loc  profan.Location
	}
	var recs []rec
	for _, s := range instructions(a) {
		n := instExecuted(s)
		total += n
		addr, err := strconv.ParseUint(strings.TrimPrefix(s.Address, "0x"), 16, 64)
		if err != nil || s.Line <= 0 {
			continue
		}
		recs = append(recs, rec{addr, n, opcode(s.SASS), s.SASS, profan.Location{File: s.File, Line: s.Line}})
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].addr < recs[j].addr })
	type run struct {
		fed bool // its inputs hold one loaded value
		sig string
		n   float64 // its body's executions
		sum float64
		loc profan.Location
	}
	var runs []run
	for i := 0; i < len(recs); {
		// A run's body is its instructions executed as often as its
		// busiest (a loop's, without the set-up before it).
		j, top := i, 0.0
		for j < len(recs) && recs[j].loc == recs[i].loc {
			top = math.Max(top, recs[j].n)
			j++
		}
		var ops []string
		var sum float64
		for _, r := range recs[i:j] {
			if r.n == top {
				ops = append(ops, r.op)
				sum += r.n
			}
		}
		if len(ops) >= recomputeMinRun && top > 0 {
			runs = append(runs, run{oneLoaded(recs[:i], recs[i:j], func(r rec) string { return r.sass }), strings.Join(ops, " "), top, sum, recs[i].loc})
		}
		i = j
	}
	type group struct {
		fed bool
		k   int
		sum float64
		loc profan.Location
	}
	groups := map[string]*group{}
	var order []string
	for _, r := range runs {
		key := fmt.Sprintf("%s:%d|%.4g|%s", r.loc.File, r.loc.Line, r.n, r.sig)
		g := groups[key]
		if g == nil {
			g = &group{loc: r.loc, fed: true}
			groups[key] = g
			order = append(order, key)
		}
		g.k++
		g.sum += r.sum
		g.fed = g.fed && r.fed
	}
	for _, key := range order {
		g := groups[key]
		if g.k < 2 || !g.fed {
			continue
		}
		dup += g.sum * float64(g.k-1) / float64(g.k)
		copies = math.Max(copies, float64(g.k))
		if len(locs) < 3 {
			locs = append(locs, g.loc)
		}
	}
	return dup, copies, total, locs
}

// neighbourTaps counts the global loads of one source line that read a
// coalesced stream (at most half a sector a request above their ideal:
// the same array at shifted indices), the line with most: the taps the
// copies are fed from. A word every lane reads (a broadcast) is no tap,
// and the loads of a line through one register a block's width apart
// (their offsets' step a multiple of the block's threads times the
// access's bytes: x[i0 + 256·k] in 256-thread blocks) are one: each
// reads the thread's own element of the next slab, which no other
// thread reads (fixtures/sol-check22's paramScale<0> and sol-check14's
// selHeavy<0>, eight elements a thread, the loop over them unrolled into
// eight copies of the work).
func neighbourTaps(a *analysis.Kernel) int {
	type key struct {
		line string
		base int // the address's register, -1 for none
	}
	type group struct {
		n     int
		bytes float64
		offs  []int64
	}
	groups := map[key]*group{}
	var order []key
	for _, in := range a.Model.Instructions {
		if in.Space != "global" || in.Operation != "load" || in.Indirect || !(in.IdealSectors > 0) || in.Pattern.Kind == gpumodel.Broadcast {
			continue
		}
		if in.SectorsPerRequest > in.IdealSectorsPerRequest+1.01 {
			continue
		}
		base, off, ok := analysis.MemAddress(in.SASS)
		if !ok {
			base = -1
		}
		k := key{fmt.Sprintf("%s:%d", in.File, in.Line), base}
		g := groups[k]
		if g == nil {
			g = &group{bytes: in.Pattern.AccessBytes}
			groups[k] = g
			order = append(order, k)
		}
		g.n++
		g.offs = append(g.offs, off)
	}
	by := map[string]int{}
	best := 0
	span := int64(a.Record.Block.Size())
	for _, k := range order {
		g := groups[k]
		n := g.n
		if step := minStep(g.offs); k.base >= 0 && step > 0 && g.bytes > 0 && step%(span*int64(g.bytes)) == 0 {
			n = 1 // a slab a block wide a load: the thread's own elements
		}
		by[k.line] += n
		best = max(best, by[k.line])
	}
	return best
}

// checkNeighbourRecompute prices computing each value once: the copies
// beyond the first go from the issue slots and the pipes, the time
// following them as far as the SM is what the kernel waits for (the
// units' loads in the time model, as int-division's), never more than
// DRAM and L2 leave (fixtures/sol-check11's fieldSmooth<0>: three copies
// of a 16-step __sinf loop an element, FP32 pipe 69 %; its twin, each
// value once through shared memory with a one-element halo, ran 0.49
// faster).
func checkNeighbourRecompute(p *Pass) {
	a := p.Kernel
	// The taps first: a kernel without two loads of one line has no
	// copies to find, and the SASS is read only for one that has.
	taps := neighbourTaps(a)
	if taps < 2 {
		return
	}
	dup, copies, total, locs := recomputed(a)
	if !(total > 0) || copies < 2 || len(locs) == 0 || taps < int(copies) {
		return
	}
	share := dup / total
	if share < 0.2 {
		return
	}
	gain := math.NaN()
	if us, ok := usageOf(p); ok {
		if _, ok := us[analysis.LimitPipe]; ok {
			gain = clamp01((1 - us.timeAfter(scale{analysis.LimitPipe: 1 - share})) * variableShare(p))
		}
	}
	if math.IsNaN(gain) {
		comp, _ := p.Value("compute_throughput_pct")
		gain = clamp01(share * math.Min(1, comp/100/ceiling[analysis.LimitPipe]))
	}
	gain = math.Min(gain, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
	if gain < 0.05 {
		return
	}
	var where []string
	for _, l := range locs {
		where = append(where, fmt.Sprintf("%s:%d", filepath.Base(l.File), l.Line))
	}
	p.report(estimate(gain), Note{
		Message: fmt.Sprintf("the code of %s runs %.0f times a thread, each copy after a load of one line at a shifted index: each thread computes the values its neighbours compute; the copies beyond the first are %.0f%% of the executed instructions",
			strings.Join(where, ", "), copies, 100*share),
		Advice:    "compute each value once: the block computes its elements and a one-tap halo each side into shared memory, __syncthreads(), and combines the taps from there (or shares the neighbours' values with __shfl_up_sync / __shfl_down_sync in a warp, the warp's edges from a halo); the halo costs a few values a block",
		Evidence:  append(p.evidence("duration", "compute_throughput_pct"), fmt.Sprintf("copies=%.0f", copies), fmt.Sprintf("recomputed_inst_share=%.3f", share)),
		Locations: locs,
	})
}

// oneLoaded reports whether a run of instructions reads exactly one
// register that a global load before it wrote last, among the registers
// it reads before writing them: a function of one tap's value (each copy
// of fieldSmooth's f(x[j])), not a weight of two (a bilateral filter's
// w(x[j] − x[i]): each tap's weight differs from its neighbour's). A
// register a load wrote and another instruction wrote since holds no
// tap: fixtures/sol-check22's paramScale<0> reads in each unrolled copy
// of its line the element's index i + 256·k, an IADD3's, in R0, which
// the copy before had loaded p->base into; its copies load their inputs
// (x[i] and the parameters) themselves.
func oneLoaded[R any](before, run []R, sass func(R) string) bool {
	loaded := map[string]bool{}
	for _, r := range before {
		s := sass(r)
		op := opcode(s)
		f := sassOperands(s)
		if len(f) == 0 || memoryStore(op) {
			continue
		}
		for _, g := range writtenRegs(op, f[0]) {
			loaded[g] = strings.HasPrefix(op, "LDG")
		}
	}
	written := map[string]bool{}
	inputs := map[string]bool{}
	for _, r := range run {
		f := sassOperands(sass(r))
		if len(f) == 0 {
			continue
		}
		for _, x := range f[1:] {
			if g := baseReg(x); g != "" && !written[g] && loaded[g] {
				inputs[g] = true
			}
		}
		if g := baseReg(f[0]); g != "" {
			written[g] = true
		}
	}
	return len(inputs) == 1
}

// baseReg is the general register an operand names (R7 of -|R7|.reuse or
// R6.64), "" for another operand (RZ, a predicate, a constant).
func baseReg(x string) string {
	x = strings.TrimLeft(x, "-|!~")
	if !strings.HasPrefix(x, "R") || x == "RZ" || strings.HasPrefix(x, "RZ.") {
		return ""
	}
	end := 1
	for end < len(x) && x[end] >= '0' && x[end] <= '9' {
		end++
	}
	if end == 1 {
		return ""
	}
	return x[:end]
}

// writtenRegs are the general registers an instruction of opcode op
// writes through its first operand dst: two for a 64-bit result (R4.64,
// LDG.E.64, IMAD.WIDE), four for a 128-bit load; none for a memory
// operand or a predicate.
func writtenRegs(op, dst string) []string {
	g := baseReg(dst)
	if g == "" || strings.Contains(dst, "[") {
		return nil
	}
	n := 1
	switch {
	case strings.Contains(op, ".128"):
		n = 4
	case strings.Contains(op, ".64") || strings.Contains(op, ".WIDE") || strings.HasSuffix(dst, ".64"):
		n = 2
	}
	k, err := strconv.Atoi(g[1:])
	if err != nil {
		return []string{g}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = "R" + strconv.Itoa(k+i)
	}
	return out
}
