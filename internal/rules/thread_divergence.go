package rules

import (
	"fmt"
	"math"
	"sort"

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
	Optional:   join(usageReads, []string{"branch_instructions", "divergent_branches"}),
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
		if !(okb && be < p.Thresholds.BranchEfficiency) && !(okw && we < p.Thresholds.WarpEfficiency) {
			return
		}
		msg := ""
		gain := 0.0
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
			gain = math.Min((1-we/100)*w, leftBy(p, analysis.LimitDRAM, analysis.LimitL2))
		}
		p.report(estimate(clamp01(gain)), Note{
			Message:   msg + ": threads of a warp take different paths",
			Advice:    "branch on values that are uniform across a warp (threadIdx.x / 32 rather than threadIdx.x % 2), or sort the work so neighbouring threads take the same path",
			Evidence:  p.evidence("branch_efficiency", "warp_execution_efficiency"),
			Locations: divergentLines(p.Kernel),
		})
	},
}

// divergentLines returns the source lines where the most lanes sat masked
// off: per line, 32 × the warp instructions executed less the thread
// instructions (the source page's per-line counts), the largest first,
// those with at least a tenth of the kernel's idle lanes, at most three.
func divergentLines(a *analysis.Kernel) []profan.Location {
	type line struct {
		loc  profan.Location
		lost float64
	}
	byLine := newPerLine(func(loc profan.Location) *line { return &line{loc: loc} })
	total := 0.0
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
			case "thread_inst_executed":
				thr, okT = c.Value, true
			}
		}
		if !okT || inst <= 0 || math.IsNaN(thr) {
			continue
		}
		lost := math.Max(0, 32*inst-thr)
		l := byLine.at(s)
		l.lost += lost
		total += lost
	}
	ls := byLine.order
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].lost > ls[j].lost })
	var out []profan.Location
	for _, l := range ls {
		if l.lost < 0.1*total || len(out) == 3 {
			break
		}
		out = append(out, l.loc)
	}
	return out
}
