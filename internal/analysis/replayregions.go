package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/stats"
)

// Regions sums the annotated ranges whose name begins with prefix,
// inside the replayed steps, by name in order of first start: the
// kernels issued inside them, the ops dispatched, the user's frame with
// the most Python time; Host is scaled to an unprofiled host as the
// replay scales it.
func (r *replay) Regions(prefix string) []Region {
	var out []Region
	by := map[string]int{}
	py := map[string]map[string]float64{}
	for _, a := range r.ranges {
		if !strings.HasPrefix(a.name, prefix) {
			continue
		}
		i, ok := by[a.name]
		if !ok {
			i = len(out)
			by[a.name] = i
			out = append(out, Region{Name: a.name, Kernels: map[string]int{}, Ops: map[string]int{}})
			py[a.name] = map[string]float64{}
		}
		r.sumRange(&out[i], a, py[a.name])
	}
	for i := range out {
		out[i].Frame = topFrame(py[out[i].Name])
	}
	return out
}

// topFrame is the frame of py (Python time by frame) with the most time.
func topFrame(py map[string]float64) (top string) {
	best := 0.0
	for f, d := range py {
		if d > best || d == best && f < top {
			top, best = f, d
		}
	}
	return top
}

// sumRange adds range a to region g: a range more, its host time
// scaled as the replay scales it, the update's, the kernels issued
// inside, the ops dispatched and, to py, the Python time by frame.
func (r *replay) sumRange(g *Region, a annRange, py map[string]float64) {
	g.Count++
	g.Host += r.unprofiledIn(a.lo, a.hi)
	if cs, framed := r.updateOf(a, 0); framed {
		for _, c := range cs {
			g.Update += r.unprofiledIn(c.lo, c.hi)
		}
	}
	j, _ := slices.BinarySearchFunc(r.kernels, a.lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
	for ; j < len(r.kernels) && r.kernels[j].issued < a.hi; j++ {
		if k := r.kernels[j]; k.copy == 0 && k.name >= 0 {
			g.Launches++
			g.Kernel += float64(k.dur)
			g.Kernels[r.names[k.name]]++
		}
	}
	j, _ = slices.BinarySearchFunc(r.spans, a.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	in := false
	for ; j < len(r.spans) && r.spans[j].Start < a.hi; j++ {
		s := r.spans[j]
		if s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		switch s.State {
		case profan.HostDispatch:
			g.Ops[r.snames[s.Name]]++
		case profan.HostPython:
			py[r.snames[s.Name]] += math.Min(s.End(), a.hi) - math.Max(s.Start, a.lo)
			own := r.snames[s.Name] == g.Name
			if own {
				g.Items++
				if !in {
					g.Entries++
				}
			}
			in = own
		}
	}
}

// Loops sums, for each user frame that Python spans name, each step's
// stretch from the first span in the frame to the end of its last
// (frameLoops), as Regions sums annotated ranges: Name is the frame,
// Count the stretches, Items the frame's Python spans inside (about
// one an iteration of a loop on that line). Frames whose stretches
// overlap an annotated range (an optimizer's step) are left out.
func (r *replay) Loops() []Region {
	seen := map[string]bool{}
	var out []Region
	for _, s := range r.spans {
		if s.State != profan.HostPython || s.Name < 0 || int(s.Name) >= len(r.snames) || seen[r.snames[s.Name]] {
			continue
		}
		f := r.snames[s.Name]
		seen[f] = true
		loops := r.frameLoops(f)
		inside := false
		for _, l := range loops {
			for _, a := range r.ranges {
				inside = inside || a.lo < l.hi && l.lo < a.hi
			}
		}
		if len(loops) == 0 || inside {
			continue
		}
		g := Region{Name: f, Kernels: map[string]int{}, Ops: map[string]int{}}
		py := map[string]float64{}
		for _, l := range loops {
			r.sumRange(&g, l, py)
			g.Layers += r.layersIn(l, s.Name)
		}
		g.Frame = f
		out = append(out, g)
	}
	return out
}

// layersIn counts the calls of the user's forward methods (r.frames)
// that lie inside stretch l and hold no Python span named name (the
// stretch's frame): the model's layers run between two entries of the
// frame, not inside one.
func (r *replay) layersIn(l annRange, name int32) int {
	n := 0
	i, _ := slices.BinarySearchFunc(r.frames, l.lo, func(f annRange, x float64) int { return cmp.Compare(f.lo, x) })
	for ; i < len(r.frames) && r.frames[i].lo < l.hi; i++ {
		f := r.frames[i]
		if f.hi > l.hi || !profan.ForwardFrame(f.name) {
			continue
		}
		own := false
		j, _ := slices.BinarySearchFunc(r.spans, f.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.Start, x) })
		for ; j < len(r.spans) && r.spans[j].Start < f.hi && !own; j++ {
			own = r.spans[j].State == profan.HostPython && r.spans[j].Name == name
		}
		if !own {
			n++
		}
	}
	return n
}

// gpuGap is the median time, as traced, between a kernel's end and the
// next kernel's start on its lane where the next was issued before it
// ended (queued: the GPU's own time between two kernels, no host in
// it); 0 with fewer than minGaps such pairs.
func (r *replay) gpuGap() float64 {
	var gaps []float64
	last := map[uint32]int{}
	for i, k := range r.kernels {
		if j, ok := last[k.lane]; ok {
			p := r.kernels[j]
			if end := p.start + float64(p.dur); k.copy == 0 && p.copy == 0 && k.issued < end && k.start >= end {
				gaps = append(gaps, k.start-end)
			}
		}
		last[k.lane] = i
	}
	if len(gaps) < minGaps {
		return 0
	}
	return stats.Median(gaps)
}

// minGaps is the fewest queued pairs of kernels a GPU's gap is read from.
const minGaps = 20
