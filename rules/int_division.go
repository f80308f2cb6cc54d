package rules

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
)

// IntDivision reports kernels whose issue slots go to integer division or
// modulo by a value known only at run time: each is a reciprocal on the XU
// pipe (I2F.RP, MUFU.RCP, F2I) and a dozen integer instructions around it.
var IntDivision = &Rule{
	ID:    "int-division",
	Title: "Integer division or modulo by a run-time value",
	Text: `The GPU has no integer divide instruction: x / d and x % d with d known only at run
time compile to a float reciprocal on the slow XU pipe and about a dozen
instructions that correct it. In a loop or a reduction's index test
(tid % (2*s) == 0) they can take most of the kernel's issue slots. Divide by
powers of two with shifts and masks, index so no modulo is needed (2*s*tid),
hoist the division out of the loop, or precompute the reciprocal once.`,
	Before: `if (tid % (2 * s) == 0) s_data[tid] += s_data[tid + s];`,
	After: `unsigned i = 2 * s * tid;
if (i < blockDim.x) s_data[i] += s_data[i + s];`,
	Severity: profan.Warning,
	Requires: []string{"compute_throughput_pct"},
	Optional: usageReads,
	Check: func(p *Pass) {
		type line struct {
			loc      profan.Location
			inst     float64
			division bool
		}
		lines := map[string]*line{}
		total := 0.0
		for _, s := range p.A.K.Source {
			if s.SASS == "" {
				continue
			}
			n := 0.0
			for _, c := range s.Counter {
				if c.Name == "inst_executed" {
					n = c.Value
				}
			}
			total += n
			key := fmt.Sprintf("%s:%d", s.File, s.Line)
			l := lines[key]
			if l == nil {
				l = &line{loc: profan.Location{File: s.File, Line: s.Line}}
				lines[key] = l
			}
			l.inst += n
			op := strings.Fields(s.SASS)
			if len(op) > 0 && strings.HasPrefix(op[0], "@") {
				op = op[1:]
			}
			// The division's reciprocal starts with the divisor rounded
			// toward +inf to float: I2F.U32.RP (I2F.RP when signed).
			if len(op) > 0 && strings.HasPrefix(op[0], "I2F") && strings.Contains(op[0], ".RP") && n > 0 && s.Line > 0 {
				l.division = true
				if l.loc.SASS == "" {
					l.loc.SASS = s.SASS
				}
			}
		}
		var div []*line
		inDiv := 0.0
		for _, l := range lines {
			if l.division {
				div = append(div, l)
				inDiv += l.inst
			}
		}
		if len(div) == 0 || total <= 0 {
			return
		}
		share := inDiv / total
		comp, _ := p.Value("compute_throughput_pct")
		if share < 0.1 || comp < p.T.Bound {
			return
		}
		sort.Slice(div, func(i, j int) bool { return div[i].inst > div[j].inst })
		var locs []profan.Location
		for _, l := range div {
			locs = append(locs, l.loc)
			if len(locs) == 3 {
				break
			}
		}
		// The fix replaces those lines' instructions with a shift, a
		// mask or an index: the time shrinks with their share of the
		// issue slots, as far as the SM's issue is what the kernel
		// waits for.
		// The memory units keep their work: their load bounds it.
		gain := math.Min(share*math.Min(1, comp/100/ceiling[analysis.LimitPipe]), leftBy(p, memoryUnits...))
		p.Report(Estimate(clamp01(gain)), Note{
			Message:   fmt.Sprintf("%.0f%% of the executed instructions are on %d line(s) with an integer division or modulo by a run-time value (a reciprocal on the XU pipe and its corrections)", 100*share, len(div)),
			Advice:    "divide by powers of two with shifts and masks, index without a modulo (2*s*tid instead of tid % (2*s)), or hoist the division out of the loop",
			Evidence:  p.Evidence("compute_throughput_pct"),
			Locations: locs,
		})
	},
}
