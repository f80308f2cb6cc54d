package report

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/stats"
)

// maxStepMoves is how many causes and categories a diff's step lines name.
const maxStepMoves = 4

// stepLines are what moved in the step as a whole, said before the
// kernels: the wall, the busy share, the kernel time and the launches;
// then the idle time by cause, the kernel time by category, and the
// changes advised on either side.
func stepLines(s *DiffStep) []string {
	if s == nil {
		return nil
	}
	var head []string
	if w := s.StepWall; w != nil {
		head = append(head, fmt.Sprintf("wall per step %s %s → %s %s (%+.1f%%, %s)", metrics.Format(w.A, "s"), spreadN(w.SpreadA, w.NA),
			metrics.Format(w.B, "s"), spreadN(w.SpreadB, w.NB), (w.B/w.A-1)*100, stepTest(w.Changed, w.Test, w.P)))
		if b := w.Busy; b != nil {
			head = append(head, fmt.Sprintf("GPU busy per step %s %s → %s %s (%s)", metrics.ShareText(b.A), spreadN(b.SpreadA, w.NA),
				metrics.ShareText(b.B), spreadN(b.SpreadB, w.NB), stepTest(b.Changed, b.Test, b.P)))
		} else {
			head = append(head, fmt.Sprintf("GPU busy %s → %s", metrics.ShareText(s.BusyA), metrics.ShareText(s.BusyB)))
		}
	} else if s.WallA > 0 && s.WallB > 0 {
		head = append(head, "wall "+moveText(s.WallA, s.WallB, "s"),
			fmt.Sprintf("GPU busy %s → %s", metrics.ShareText(s.BusyA), metrics.ShareText(s.BusyB)))
	} else {
		head = append(head, "wall: "+noTimeline(s))
	}
	head = append(head, "kernel time "+moveText(s.KernelA, s.KernelB, "s"), fmt.Sprintf("launches %d → %d", s.LaunchesA, s.LaunchesB))
	out := []string{"step: " + strings.Join(head, " · ")}
	if l := movesLine(s.Causes); l != "" {
		out = append(out, "idle by cause: "+l)
	}
	if l := movesLine(s.Categories); len(s.Categories) > 1 {
		out = append(out, "kernel time by category: "+l)
	}
	var levers []string
	for _, l := range s.Levers {
		levers = append(levers, leverText(l))
	}
	if len(levers) > 0 {
		out = append(out, "changes advised: "+strings.Join(levers, "; "))
	}
	return out
}

// noTimeline says which side lacks a timeline.
func noTimeline(s *DiffStep) string {
	switch {
	case s.WallA <= 0 && s.WallB <= 0:
		return "neither side has a timeline (nsys or torch.profiler measures the wall)"
	case s.WallA <= 0:
		return "the old side has no timeline (nsys or torch.profiler measures the wall)"
	}
	return "the new side has no timeline (nsys or torch.profiler measures the wall)"
}

// moveText is "62.96 ms → 8.635 ms (-86.3%)".
func moveText(a, b float64, unit string) string {
	s := metrics.Format(a, unit) + " → " + metrics.Format(b, unit)
	if a > 0 {
		s += fmt.Sprintf(" (%+.1f%%)", (b/a-1)*100)
	}
	return s
}

// movesLine names the largest moves, the rest counted.
func movesLine(ms []StepMove) string {
	var parts []string
	for i, m := range ms {
		if i == maxStepMoves {
			parts = append(parts, fmt.Sprintf("%d more", len(ms)-i))
			break
		}
		parts = append(parts, m.Name+" "+metrics.Format(m.A, "s")+" → "+metrics.Format(m.B, "s"))
	}
	return strings.Join(parts, ", ")
}

// leverText is one change advised: "cuda-graphs ~49.3 ms → in use
// (resolved)", "bf16-autocast ~1.2 ms → ~2.761 ms".
func leverText(l LeverMove) string {
	unit := ""
	if l.StepA != nil || l.StepB != nil {
		l.A, l.B, unit = l.StepA, l.StepB, " a step"
	}
	side := func(g *float64) string {
		if g == nil {
			return "not advised"
		}
		if !finite(*g) {
			return "advised"
		}
		return "~" + metrics.Format(*g, "s") + unit
	}
	s := l.Rule + " " + side(l.A) + " → "
	switch {
	case l.InUse:
		return s + "in use (resolved)"
	case l.B == nil:
		return s + "not advised (resolved)"
	case l.A == nil:
		return s + side(l.B) + " (new)"
	}
	return s + side(l.B)
}

// stepTest says what decided whether a figure per step moved.
func stepTest(changed bool, m stats.Method, p float64) string {
	if changed {
		return testText(MetricDelta{Test: m, P: p}) + ", significant"
	}
	return testText(MetricDelta{Test: m, P: p}) + ", not significant"
}
