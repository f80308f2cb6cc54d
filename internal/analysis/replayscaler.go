package analysis

import (
	"cmp"
	"math"
	"slices"

	"github.com/profan-dev/profan"
)

// scalerSite is the prefix splitScaler gives GradScaler's found_inf
// reads where their site is one the user's own reads share.
const scalerSite = "scaler.step() → "

// splitScaler names apart GradScaler.step's reads of found_inf (inside
// its _maybe_opt_step, or right after its unscale where the trace has no
// Python frames) whose site the user's own reads share: a sync site is
// named by the user's innermost frame, and a step that calls
// scaler.step(opt) from the frame that reads the scale or the loss with
// .item() holds both under one name (fixtures/host33's w2v: the
// scale's .item() and found_inf's, both at host33.py(390): step). A
// lever dropping the user's read then dropped the scaler's too, and with
// it the wait before the optimizer's step that keeps the next batch's
// loading off the GPU's backward: step-read priced 15.3% there, measured
// 4.4%. The scaler's reads take their own site (scalerSite and the
// name), Site.Scaler: no lever but the fused optimizer's drops them. A
// site all of whose reads are the scaler's keeps its name. The spans
// and names are copied first (the run's stay as read).
func (r *replay) splitScaler() {
	scaler := joined(r.callsOf(profan.ScalerFrame))
	var in []int
	user := map[int32]bool{}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostSync || s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		if rangeOf(scaler, s.Start) >= 0 || r.afterUnscale(i) {
			in = append(in, i)
		} else {
			user[s.Name] = true
		}
	}
	renamed := map[int32]int32{}
	for _, i := range in {
		n := r.spans[i].Name
		if !user[n] {
			continue
		}
		if len(renamed) == 0 {
			r.spans, r.snames = slices.Clone(r.spans), slices.Clip(r.snames)
		}
		to, ok := renamed[n]
		if !ok {
			to = int32(len(r.snames))
			r.snames = append(r.snames, scalerSite+r.snames[n])
			renamed[n] = to
		}
		r.spans[i].Name = to
	}
}

// stepBusy is a step's GPU time as traced: the union of its kernels' and
// copies' intervals (those issued in it), and their summed length; side
// and sdur the same of the copies a lever moves beside the kernels
// (onSide), left out of union and dur.
type stepBusy struct{ union, dur, side, sdur float64 }

// floor is the least a step takes on the GPU, its work on the compute
// lanes at dur replayed and its side lane's at sdur: each lane set's
// traced union scaled by its replayed length over its traced one. A
// copy moved to the side lane runs beside the kernels, so the two
// unions bound the step apart, not in series (fixtures/host38's sat: a
// 218 MB copy ahead of the kernels, moved to a side stream, measured
// 34.5% faster; held at the traced union of both, priced 2.2%).
func (b stepBusy) floor(dur, sdur float64) float64 {
	f := 0.0
	if b.dur > 0 {
		f = b.union * dur / b.dur
	}
	if b.sdur > 0 {
		f = math.Max(f, b.side*sdur/b.sdur)
	}
	return f
}

// sideLane is the replay's lane of copies moved beside the kernels.
const sideLane = math.MaxUint32

// onSide reports a copy lever l moves to the side lane: a host-to-device
// copy from pinned memory, or from pageable memory made pinned.
func onSide(l Lever, k replayKernel) bool {
	return l.Overlap && int32(k.copy)&copyToDevice != 0 && (int32(k.copy)&copyPinned != 0 || l.Pinned > 0)
}

// busyFor is each step's GPU busy time as traced with lever l's side
// copies apart (busyTraced); r.busy where l moves none.
func (r *replay) busyFor(l Lever) []stepBusy {
	if !l.Overlap {
		return r.busy
	}
	return r.busyTraced(l)
}

// busyTraced is each step's GPU busy time as traced, the copies lever l
// moves to the side lane apart (onSide). The replay runs
// each lane in order, a kernel starting when issued and its lane free;
// it does not see the events that order one lane's work after
// another's (cuDNN's grouped convolutions fork onto side streams and
// join back: fixtures/host33's w2v runs 15% of its kernel time on 16
// side streams). With the host run ahead, the lanes then overlap more
// than they can: host33's w2v replayed without its reads in 161.75 ms
// a step, its GPU busy 171.05 as traced. No step replays shorter than
// its kernels' traced union, scaled by their replayed length over
// their traced one (walk, stepBusy.floor).
func (r *replay) busyTraced(l Lever) []stepBusy {
	if len(r.bounds) < 2 {
		return nil
	}
	out := make([]stepBusy, len(r.bounds))
	var iv, sv [][2]float64
	union := func(iv [][2]float64) float64 {
		slices.SortFunc(iv, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
		u, e := 0.0, math.Inf(-1)
		for _, x := range iv {
			if x[1] > e {
				u += x[1] - math.Max(x[0], e)
				e = x[1]
			}
		}
		return u
	}
	flush := func(i int) {
		if i < len(out) {
			out[i].union, out[i].side = union(iv), union(sv)
		}
		iv, sv = iv[:0], sv[:0]
	}
	step := 0
	for _, k := range r.kernels {
		i, _ := slices.BinarySearch(r.bounds, k.issued)
		if i != step {
			flush(step)
			step = i
		}
		if i >= len(out) {
			continue
		}
		x := [2]float64{k.start, k.start + float64(k.dur)}
		if onSide(l, k) {
			out[i].sdur += float64(k.dur)
			sv = append(sv, x)
		} else {
			out[i].dur += float64(k.dur)
			iv = append(iv, x)
		}
	}
	flush(step)
	return out
}
