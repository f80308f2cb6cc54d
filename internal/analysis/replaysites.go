package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/verdict"
)

// The replay's syncs and sites: which spans the host waits at, under a
// lever, and the sites of the replayed steps' syncs and allocator calls.

// waits reports a span at whose end the host waits for the GPU to drain
// under lever l: a sync, and a cudaFree (which synchronises the device
// before it frees), unless the lever drops it; a graph's replay frees
// nothing.
func (r *replay) waits(l Lever, s profan.HostSpan) bool {
	switch s.State {
	case profan.HostSync:
		return !r.dropped(l, s)
	case profan.HostAlloc:
		return !l.Graphs && !r.dropped(l, s) && s.Name >= 0 && int(s.Name) < len(r.snames) && FreeSyncs(r.snames[s.Name])
	}
	return false
}

// FreeSyncs reports an allocator site whose call frees device or pinned
// memory synchronously (cudaFree, cudaFreeHost, cuMemFree: each waits
// for the device to finish its work first), not a stream-ordered
// cudaFreeAsync.
func FreeSyncs(site string) bool {
	call, _, _ := strings.Cut(site, " at ")
	if i := strings.LastIndex(call, "→ "); i >= 0 {
		call = call[i+len("→ "):]
	}
	return (strings.HasPrefix(call, "cudaFree") || strings.HasPrefix(call, "cuMemFree")) && !strings.Contains(call, "Async")
}

// dropped reports a sync span the lever no longer waits for.
func (r *replay) dropped(l Lever, s profan.HostSpan) bool {
	if l.Drop == nil || s.Name < 0 || int(s.Name) >= len(r.snames) {
		return false
	}
	return l.Drop(r.snames[s.Name])
}

// SyncSites lists the syncs inside the replayed steps, the longest first.
func (r *replay) SyncSites() []Site { return r.sitesOf(profan.HostSync) }

// AllocSites lists the allocator's calls (cudaMalloc, cudaFree) inside the
// replayed steps, the longest first.
func (r *replay) AllocSites() []Site { return r.sitesOf(profan.HostAlloc) }

// sitesOf lists the spans of state inside the replayed steps by name, the
// longest first: each with its count, time as traced, the times it sat
// between two launches of its step and the steps it occurs in.
func (r *replay) sitesOf(state profan.HostState) []Site {
	by := map[string]*Site{}
	var out []*Site
	in := map[*Site]int{} // the step it was seen in last, +1
	var scaler []annRange
	scaled := map[*Site]int{}
	if state == profan.HostSync {
		scaler = joined(r.callsOf(profan.ScalerFrame))
	}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != state || s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		name := r.snames[s.Name]
		x := by[name]
		if x == nil {
			x = &Site{Site: name}
			x.Method, x.Frame = verdict.SiteParts(name)
			by[name] = x
			out = append(out, x)
		}
		x.Count++
		x.Seconds += float64(s.Dur)
		if rangeOf(scaler, s.Start) >= 0 {
			scaled[x]++
		}
		if r.inside(s) {
			x.Inside++
		}
		if step, _ := slices.BinarySearch(r.bounds, s.Start); in[x] != step+1 {
			in[x] = step + 1
			x.Steps++
		}
	}
	slices.SortStableFunc(out, func(a, b *Site) int { return cmp.Compare(b.Seconds, a.Seconds) })
	sites := make([]Site, len(out))
	for i, x := range out {
		// GradScaler's read: most of the site's syncs inside its
		// _maybe_opt_step.
		x.Scaler = 2*scaled[x] > x.Count
		sites[i] = *x
	}
	return sites
}

// consumes reports a Python span after its step's last kernel launch
// (the host using the step's results: storing a feature map, logging),
// which no graph of the step holds; false where the trace marks no step.
func (r *replay) consumes(s profan.HostSpan) bool {
	if len(r.bounds) == 0 {
		return false
	}
	hi := r.hi
	if i, _ := slices.BinarySearch(r.bounds, s.Start); i < len(r.bounds) {
		hi = r.bounds[i]
	}
	i, _ := slices.BinarySearchFunc(r.kernels, s.End(), func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
	for ; i < len(r.kernels) && r.kernels[i].issued < hi; i++ {
		if r.kernels[i].copy == 0 {
			return false
		}
	}
	return true
}

// inside reports a span with kernel launches of its own step both before
// and after it; false where the trace marks no step (ProfilerStep#N):
// a sync that recurs between launches is then the loop's, between steps
// (a decode loop's token read).
func (r *replay) inside(s profan.HostSpan) bool {
	if len(r.bounds) == 0 {
		return false
	}
	lo, hi := r.lo, r.hi
	if i, _ := slices.BinarySearch(r.bounds, s.Start); i < len(r.bounds) {
		hi = r.bounds[i]
		if i > 0 {
			lo = r.bounds[i-1]
		}
	}
	launched := func(from, to float64) bool {
		i, _ := slices.BinarySearchFunc(r.kernels, from, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; i < len(r.kernels) && r.kernels[i].issued < to; i++ {
			if r.kernels[i].copy == 0 {
				return true
			}
		}
		return false
	}
	return launched(lo, s.Start) && launched(s.End(), hi)
}
