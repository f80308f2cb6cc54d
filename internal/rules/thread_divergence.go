package rules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

var (
	branchEfficiency = percent("branch_efficiency")
	warpEfficiency   = percent("warp_efficiency")
)

// threadDivergence reports warps whose threads take different paths.
var threadDivergence = &Rule{
	ID:    "thread-divergence",
	Title: "Threads of a warp diverge",
	Text: `A warp executes both sides of a branch its threads disagree on, with the threads
of the other side masked off. Branch efficiency (uniform branches / all
branches) and warp execution efficiency (active threads per instruction / 32)
measure the cost. Branch on warp-uniform values (warp index, not thread index)
or reorganize the data so neighbouring threads take the same path.`,
	Before:     `if (threadIdx.x % 2) heavy(); else light();`,
	After:      `if ((threadIdx.x / 32) % 2) heavy(); else light();  // uniform per warp`,
	Severity:   profan.Warning,
	Cause:      CauseCompute,
	Scope:      Source,
	Locates:    true,
	Thresholds: []*Threshold{branchEfficiency, warpEfficiency},
	Requires:   []string{"branch_efficiency|warp_execution_efficiency"},
	Optional:   join(usageReads, []string{"branch_instructions", "divergent_branches", "warp_nonpred_execution_efficiency", "duration"}),
	Check: func(p *Pass) {
		be, okb := p.Value("branch_efficiency")
		we, okw := p.Value("warp_execution_efficiency")
		// ncu prints 0 % branch efficiency for kernels without branches.
		// Trust 0 % only when the export shows branches were executed.
		n, okn := p.Value("branch_instructions")
		if (okn && n == 0) || (!okn && be == 0) {
			okb = false
		}
		if d, ok := p.Value("divergent_branches"); ok && d == 0 {
			okb = false
		}
		// All 32 threads active on average: whatever the branch counters
		// say, no warp ran with lanes masked off.
		if okw && we >= 95 {
			okb = false
		}
		// A block of fewer threads than a warp leaves lanes idle from the
		// launch on: that is no divergence (a one-thread kernel).
		if bs := p.Kernel.Record.Block.Size(); okw && bs > 0 && bs < 32 && we <= 100*float64(bs)/32*gpumodel.Slack {
			okw = false
		}
		// A branch the compiler predicated: every lane issues both sides
		// and the other side's lanes sit predicated off, so neither the
		// branch counters nor the active threads show it (a block
		// reduction's if (tid % (2*s) == 0) body: 31.9 active threads
		// per warp, 24.1 not predicated off, fixtures/sol-check2). It
		// counts inside a loop only (predicatedLoop), where every
		// iteration issues the idle lanes again.
		// A 64-bit division's own branches (its subroutine's, and the
		// calling line's test for operands that fit 32 bits) idle lanes
		// that int-division prices with the division: only the rest is
		// divergence of the kernel's own (fixtures/sol-check9's
		// rescale<long long>: 54.8 % warp execution efficiency, every
		// idle lane in the division's code).
		// Likewise a branch around an atomic (if (w) atomicAdd(&c, w)):
		// the lanes that skip it skip an atomic the hardware serialises
		// anyway, which the compiler often aggregates under the branch
		// already (REDUX.SUM and one elected ATOMS: fixtures/sol-check12's
		// countShared<0>, 78 % warp execution efficiency, every idle lane
		// on the atomic's line; its twin aggregating by
		// __reduce_add_sync ran 0.04 slower): a warp-uniform branch gives
		// no issue slots back. atomic-serialization speaks for the atomic.
		weOwn := we
		// A block whose threads do not fill its last warp leaves that
		// warp's other lanes idle from the launch on, a share of every
		// instruction the warp issues: no divergence, and the
		// efficiency the kernel's own paths leave is of the lanes its
		// threads fill (fixtures/sol-check19's blur3<48>: a warp and a
		// half-empty one, 75.1 % warp execution efficiency where its
		// threads fill 75 % of the lanes; tiny-blocks prices the blocks).
		if bs := p.Kernel.Record.Block.Size(); okw && bs > 0 && bs%32 != 0 {
			filled := float64(bs) / (32 * math.Ceil(float64(bs)/32))
			weOwn = math.Min(100, we/filled)
			if weOwn >= p.Thresholds.WarpEfficiency {
				okw = false
			}
		}
		divLines := map[string]bool{}
		if okw {
			var share float64
			share, divLines = divisionLaneShare(p.Kernel)
			share += guardedAtomicLaneShare(p.Kernel) + guardedLoadLaneShare(p.Kernel) + exchangeLaneShare(p.Kernel) + libraryBranchLaneShare(p.Kernel)
			weOwn = 100 - (100-weOwn)*(1-math.Min(1, share))
			if share > 0 && weOwn >= p.Thresholds.WarpEfficiency {
				okb, okw = false, false
			}
		}
		np, okp := p.Value("warp_nonpred_execution_efficiency")
		pred := okp && okw && we >= 95 && np < p.Thresholds.WarpEfficiency && !(okb && be < p.Thresholds.BranchEfficiency) && predicatedLoop(p.Kernel) && !predicatedNoPath(p.Kernel)
		if !(okb && be < p.Thresholds.BranchEfficiency) && !(okw && we < p.Thresholds.WarpEfficiency) && !pred {
			return
		}
		msg := ""
		gain := 0.0
		divides := false
		if okb {
			msg = fmt.Sprintf("branch efficiency %.1f%%", be)
		}
		if okw {
			if msg != "" {
				msg += ", "
			}
			msg += fmt.Sprintf("warp execution efficiency %.1f%% (%.1f of 32 threads active per instruction)", we, we*32/100)
			// Lanes masked off are issue slots lost: with every lane
			// active the same instructions take we of the slots. That
			// is the time only as far as the SM's issue is what the
			// kernel waits for (its compute throughput against the
			// ceiling); a memory-bound kernel hides it. Measured on an
			// H100 (fixtures/sweep): 2-, 4-, 32-way and data-dependent
			// divergence, TestSweepCalibration.
			w := 0.5
			if c, ok := p.Value("compute_throughput_pct"); ok {
				w = math.Min(1, c/100/ceiling[analysis.LimitPipe])
			}
			// Masked lanes move no global data: DRAM and L2 keep
			// their work, and their load bounds the gain.
			gain = math.Min((1-weOwn/100)*w, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
		}
		locs := divergentLines(p.Kernel, "thread_inst_executed")
		if len(divLines) > 0 {
			locs = slices.DeleteFunc(locs, func(l profan.Location) bool { return divLines[fmt.Sprintf("%s:%d", l.File, l.Line)] })
		}
		if pred {
			// Lanes predicated off are issue slots lost as masked ones
			// are, bounded alike.
			msg = fmt.Sprintf("warp execution efficiency %.1f%%, but only %.1f%% not predicated off (%.1f of 32 threads per instruction do work)", we, np, np*32/100)
			locs = divergentLines(p.Kernel, "thread_inst_executed_pred_on")
			// A condition that divides (tid % (2*s) == 0) goes with the
			// idle lanes when the branch is rewritten (tid < s): the
			// instructions left are the working lanes' less the
			// division's (fixtures/sol-check5's reduceModD<0>: 76 % of
			// the lanes at work, the modulo's line 81 % of the
			// instructions; its twin ran 0.52 faster).
			keep := np / 100
			if cut := divisionShare(p.Kernel, locs); cut > 0 {
				keep *= 1 - cut
				divides = true
			}
			w := 0.5
			if c, ok := p.Value("compute_throughput_pct"); ok {
				w = math.Min(1, c/100/ceiling[analysis.LimitPipe])
			}
			gain = math.Min((1-keep)*w, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
			if us, ok := usageOf(p); ok {
				if _, ok := us[analysis.LimitPipe]; ok {
					// The lanes that do work issue np of the slots; the
					// predicated loads and stores still move what their
					// working lanes ask for, so a kernel the shared
					// pipe limits keeps that time (fixtures/sol-check4's
					// blockMax: L1/shared at 79 %, its fix measured 2 %).
					gain = math.Min(gain, (1-us.timeAfter(scale{analysis.LimitPipe: keep}))*variableShare(p))
				}
			}
		}
		advice := "branch on values that are uniform across a warp (threadIdx.x / 32 rather than threadIdx.x % 2), or sort the work so neighbouring threads take the same path"
		if divides {
			msg += "; the branch's condition divides by a run-time value"
			advice += "; a reduction's tid % (2*s) == 0 becomes tid < s (with sdata[tid] += sdata[tid + s]), which drops the division with the idle lanes: the gain counts both"
		}
		p.report(estimate(clamp01(gain)), Note{
			Message:   msg + ": threads of a warp take different paths",
			Advice:    advice,
			Evidence:  p.evidence("branch_efficiency", "warp_execution_efficiency", "warp_nonpred_execution_efficiency"),
			Locations: locs,
		})
	},
}

// lineLoss is one source line's lanes sat idle: lost lane slots (32 ×
// its warp instructions less its thread instructions) and the most
// executions of any one of its instructions (above the warps launched:
// the line sits in a loop).
type lineLoss struct {
	loc        profan.Location
	lost, exec float64
	// copies is the most times one operation under a predicate guard
	// appears on the line with lanes idle, each at its own address: the
	// body of a loop the compiler unrolled, laid out once per iteration.
	copies int
	ops    map[string]int
	at     map[string]bool
}

// laneLoss returns the source page's lines by the lanes they left idle,
// the most first, counting thread instructions as counter
// (thread_inst_executed: masked lanes; thread_inst_executed_pred_on:
// predicated ones too), and the kernel's lost lane slots and all its
// lane slots (32 × its warp instructions).
func laneLoss(a *analysis.Kernel, counter string) (ls []*lineLoss, lost, slots float64) {
	byLine := newPerLine(func(loc profan.Location) *lineLoss { return &lineLoss{loc: loc} })
	for _, s := range a.Record.Source {
		if s.SASS == "" || s.Line <= 0 {
			continue
		}
		var inst, thr float64
		okT := false
		for _, c := range s.Counter {
			switch c.Name {
			case "inst_executed":
				inst = c.Value
			case counter:
				thr, okT = c.Value, true
			}
		}
		if !okT || inst <= 0 || math.IsNaN(thr) {
			continue
		}
		l := byLine.at(s)
		l.lost += math.Max(0, 32*inst-thr)
		l.exec = math.Max(l.exec, inst)
		if sass := strings.TrimSpace(s.SASS); strings.HasPrefix(sass, "@") && thr < 32*inst && !l.at[s.Address] {
			if l.ops == nil {
				l.ops, l.at = map[string]int{}, map[string]bool{}
			}
			l.at[s.Address] = true
			op := opcode(sass)
			l.ops[op]++
			l.copies = max(l.copies, l.ops[op])
		}
		lost += math.Max(0, 32*inst-thr)
		slots += 32 * inst
	}
	ls = byLine.order
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].lost > ls[j].lost })
	return ls, lost, slots
}

// divergentLines returns the source lines where the most lanes sat idle
// (laneLoss), the largest first, those with at least a tenth of the
// kernel's idle lanes, at most three; led by the line of a loop whose
// lanes leave it at different trips (divergentLoop), where that is not
// among them.
func divergentLines(a *analysis.Kernel, counter string) []profan.Location {
	ls, total, _ := laneLoss(a, counter)
	var out []profan.Location
	for _, l := range ls {
		if l.lost < 0.1*total || len(out) == 3 {
			break
		}
		out = append(out, l.loc)
	}
	if loop, ok := divergentLoop(a); ok && len(out) > 0 && !slices.Contains(out, loop) {
		out = append([]profan.Location{loop}, out...)
	}
	return out
}

// divergentLoop is the line of the loop whose lanes leave it at
// different trips: a conditional backward branch (the loop's test) run
// by fewer active lanes an instruction than the instruction before the
// loop's head, by which the warp entered it. The body's lines are where
// the idle lanes show (an inlined function's, fixtures/sol-check18's
// rejSample<0>: cauchyCand's lines 347 to 350, 10 lanes of 32), the
// branch's line is the loop to change (its do ... while (!ok), line 365,
// entered at 32 lanes). Active lanes, not predicated-on ones: a loop
// every lane leaves at the same trip (a reduction's for over s, its
// divergent if inside) runs its test at every lane, its last trip's
// predicate off. ok is false without such a loop, or where the branch
// idles fewer than a tenth of the entry's lanes.
func divergentLoop(a *analysis.Kernel) (profan.Location, bool) {
	const counter = "thread_inst_executed"
	type inst struct {
		addr      uint64
		loc       profan.Location
		sass      string
		inst, thr float64
	}
	var prog []inst
	seen := map[string]bool{}
	for _, s := range a.Record.Source {
		if s.SASS == "" || s.Address == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		at, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s.Address), "0x"), 16, 64)
		if err != nil {
			continue
		}
		x := inst{addr: at, loc: profan.Location{File: s.File, Line: s.Line}, sass: strings.TrimSpace(s.SASS), thr: -1}
		for _, c := range s.Counter {
			switch c.Name {
			case "inst_executed":
				x.inst = c.Value
			case counter:
				x.thr = c.Value
			}
		}
		prog = append(prog, x)
	}
	slices.SortFunc(prog, func(x, y inst) int { return cmp.Compare(x.addr, y.addr) })
	lanes := func(x inst) float64 {
		if x.inst > 0 && x.thr >= 0 {
			return x.thr / x.inst
		}
		return math.NaN()
	}
	best, most := profan.Location{}, 0.0
	for _, x := range prog {
		op, args := analysis.SASSFields(x.sass)
		if !strings.HasPrefix(x.sass, "@") || !strings.HasPrefix(op, "BRA") || len(args) == 0 || x.loc.Line <= 0 {
			continue
		}
		t, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(args[len(args)-1]), "0x"), 16, 64)
		if err != nil || t > x.addr {
			continue
		}
		head, ok := slices.BinarySearchFunc(prog, t, func(y inst, t uint64) int { return cmp.Compare(y.addr, t) })
		if !ok || head == 0 {
			continue
		}
		in, body := lanes(prog[head-1]), lanes(x)
		if !(body < 0.9*in) {
			continue
		}
		if lost := (in - body) * x.inst; lost > most {
			best, most = x.loc, lost
		}
	}
	return best, most > 0
}

// predicatedLoop reports whether a branch the compiler predicated sits in
// a loop and costs lanes that matter: the source line that idles the most
// predicated-off lanes runs at least twice per warp launched, or holds
// the same guarded operation at least twice (a loop the compiler
// unrolled: fixtures/sol-check4's blockMax lays out its nine steps, each
// instruction run once per warp, the max of two shared words nine times
// under ever fewer lanes), and idles at least a tenth of the kernel's
// lane slots. A predicated guard run once per thread (if (threadIdx.x ==
// 0) ...) is none: its lanes cost one instruction per warp.
func predicatedLoop(a *analysis.Kernel) bool {
	k := a.Record
	warps := float64(k.Grid.Size()) * math.Ceil(float64(k.Block.Size())/32)
	ls, _, slots := laneLoss(a, "thread_inst_executed_pred_on")
	if len(ls) == 0 || !(warps > 0) || !(slots > 0) {
		return false
	}
	return (ls[0].exec >= 2*warps || ls[0].copies >= 2) && ls[0].lost >= 0.1*slots
}

// predicatedNoPath reports whether the predicated-off lanes of the line
// that idles the most of them (laneLoss's first) are no divergent path
// worth pricing, read from the line's guarded instructions (those run
// with lanes off):
//   - a single-thread guard between barriers: they ran one lane a block
//     or fewer, in a kernel that executes a BAR.SYNC (fixtures/
//     sol-check18's bcastSync<0>, if (threadIdx.x == 0) s = __sinf(...)
//     between two __syncthreads: one lane of 1024 at line 427, 0.39
//     priced; its twin gained 0.55 by dropping the barriers, which is
//     barrier-stalls' or a broadcast's territory);
//   - a select chain: every one is a move or a select (MOV, IMAD.MOV,
//     SEL, FSEL), a register-indexed array's element chosen by a
//     predicate (sol-check18's movMax<0>, ring[r & 31] = v as 32
//     predicated moves, the predicate the same for the warp's lanes:
//     0.25 priced, the unrolled twin's 0.29 not a branch's);
//   - untaken special cases: they ran under 1 % of their lane slots,
//     the other path all but never runs (sol-check18's powSeries<0>,
//     __powf's scaling fix-ups, 0.05 priced);
//   - a bound on the thread index (threadBoundGuards): a shared tree's
//     if (threadIdx.x < h) with h a constant of each unrolled step,
//     whose warps sit wholly on or wholly off but one a block
//     (sol-check22's rowNorm1k<0>: 61.7 % of the lanes not predicated
//     off at line 568, the tree's idle warps; barrier-stalls prices the
//     shuffles that replace it).
//
// A reduction's tid < s body (loads, the combine, a store on ever fewer
// lanes of each block) is none of these.
func predicatedNoPath(a *analysis.Kernel) bool {
	ls, _, _ := laneLoss(a, "thread_inst_executed_pred_on")
	if len(ls) == 0 {
		return false
	}
	top := ls[0].loc
	var inst, on float64
	moves, n, bar := true, 0, false
	for _, s := range instructions(a) {
		op := opcode(s.SASS)
		if strings.HasPrefix(op, "BAR.SYNC") && instExecuted(s) > 0 {
			bar = true
		}
		if s.File != top.File || s.Line != top.Line || !strings.HasPrefix(strings.TrimSpace(s.SASS), "@") {
			continue
		}
		i := instExecuted(s)
		for _, c := range s.Counter {
			if c.Name != "thread_inst_executed_pred_on" || !(i > 0) || math.IsNaN(c.Value) || c.Value >= 32*i {
				continue
			}
			inst += i
			on += c.Value
			n++
			base, _, _ := strings.Cut(op, ".")
			moves = moves && (base == "MOV" || strings.HasPrefix(op, "IMAD.MOV") || base == "SEL" || base == "FSEL")
		}
	}
	if n == 0 || !(inst > 0) {
		return false
	}
	if moves || on < 0.01*32*inst || threadBoundGuards(a, top) {
		return true
	}
	warps := math.Ceil(float64(a.Record.Block.Size()) / 32)
	return bar && warps > 1 && on*warps <= inst*gpumodel.Slack
}

// threadBoundGuards reports whether every guarded instruction on a line
// (at loc) that ran with lanes predicated off is guarded by a predicate
// an ISETP set from the thread index (S2R SR_TID.X) against a constant
// (ISETP.GT.U32.AND P0, PT, R2, 0x1ff, PT: threadIdx.x < 512): a bound
// that splits a block's warps at a multiple of 32 idles whole warps, the
// rest at most one warp a block, no warp's lanes taking two paths.
func threadBoundGuards(a *analysis.Kernel, loc profan.Location) bool {
	recs := addressOrder(a)
	tid := map[string]bool{}
	guarded := 0
	for i, s := range recs {
		op, args := analysis.SASSFields(s.SASS)
		if op == "S2R" && len(args) == 2 && args[1] == "SR_TID.X" {
			tid[args[0]] = true
		}
		sass := strings.TrimSpace(s.SASS)
		if s.File != loc.File || s.Line != loc.Line || !strings.HasPrefix(sass, "@") {
			continue
		}
		inst := instExecuted(s)
		on := math.NaN()
		for _, c := range s.Counter {
			if c.Name == "thread_inst_executed_pred_on" {
				on = c.Value
			}
		}
		if !(inst > 0) || math.IsNaN(on) || on >= 32*inst {
			continue
		}
		pred := strings.TrimPrefix(strings.TrimPrefix(strings.Fields(sass)[0], "@"), "!")
		bound := false
		for j := i - 1; j >= 0; j-- {
			o, as := analysis.SASSFields(recs[j].SASS)
			if len(as) == 0 || as[0] != pred {
				continue
			}
			bound = strings.HasPrefix(o, "ISETP") && len(as) >= 4 && tid[as[2]] && (as[3] == "RZ" || strings.HasPrefix(as[3], "0x"))
			break
		}
		if !bound {
			return false
		}
		guarded++
	}
	return guarded > 0
}
