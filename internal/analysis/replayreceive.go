package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
)

// A multi-process DataLoader's batches reach the step's thread through
// the workers' result pipe: its iterator's get reads each batch's bytes
// and unpickles them (a batch of NumPy arrays crosses whole, pickled;
// tensors cross as handles to shared memory). That transfer is host work
// the step pays for every batch it consumes, but the trace may show it in
// a burst: the workers finish out of order, and the iterator receives
// every batch ahead of the one it needs, keeping the others for the
// steps after (fixtures/host36's vol: seven batches received in the
// first of four profiled steps, 459 ms, none in the three after). The
// median step, the first left out, would hold none of it; the replay
// spreads it instead over the batches received and pays one batch's
// worth where each __next__ begins (receiving).

// receiving sets the window's multi-process DataLoader transfer: the
// __next__ ranges' starts (r.nexts) and one batch's transfer as
// replayed (r.recv): the iterators' data spans but their blocked waits,
// at their keep, over the batches received, counted by the waits inside
// the iterators (each queue's get polls the pipe once: received, from
// loaderWaits). Nothing where the trace keeps no wait (no Python stack):
// each span then stays where it was traced.
func (r *replay) receiving(run *profan.Run, received int) {
	r.nexts, r.recv = nil, 0
	if received == 0 {
		return
	}
	for _, e := range run.Host.Events {
		if e.Kind == profan.HostAnnotation && strings.Contains(e.Name, "_MultiProcessingDataLoaderIter.__next__") && e.Start >= r.lo && e.Start < r.hi {
			r.nexts = append(r.nexts, e.Start)
		}
	}
	if len(r.nexts) == 0 {
		return
	}
	slices.Sort(r.nexts)
	d := 0.0
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if !r.iterSpan(s) {
			continue
		}
		lo, hi := math.Max(s.Start, r.lo), math.Min(s.End(), r.hi)
		if hi > lo {
			d += (hi - lo - r.blocked(lo, hi)) * r.keep(i)
		}
	}
	r.recv = math.Max(0, d) / float64(received)
}

// iterSpan reports a data span of a multi-process DataLoader's iterator.
func (r *replay) iterSpan(s profan.HostSpan) bool {
	return s.State == profan.HostData && s.Name >= 0 && int(s.Name) < len(r.snames) &&
		strings.Contains(r.snames[s.Name], "_MultiProcessingDataLoaderIter")
}

// iterFactor is the share of an iterator's data span (iterSpan) the walk
// keeps where its transfer is spread over the batches (r.recv > 0): its
// blocked waits alone, at their traced time where whole, else at unprof
// as the rest of the walk takes them.
func (r *replay) iterFactor(s profan.HostSpan, unprof float64) float64 {
	if !(s.Dur > 0) {
		return 0
	}
	b := math.Min(1, r.blocked(s.Start, s.End())/float64(s.Dur))
	if r.whole {
		return b
	}
	return b * unprof
}

// received is the step's thread's transfer a step under lever l, as
// replayed: a batch's worth for each __next__ in the window, over its
// steps; none where the loading goes to workers or the transfer to the
// pin-memory thread (Lever.Receive).
func (r *replay) received(l Lever) float64 {
	if r.recv == 0 || l.Workers > 0 || l.Receive || r.steps == 0 {
		return 0
	}
	return r.recv * float64(len(r.nexts)) / float64(r.steps)
}

// batchCost is a batch's transfer under lever l, which the walk pays
// where each __next__ begins: 0 where received prices none.
func (r *replay) batchCost(l Lever) float64 {
	if r.received(l) > 0 {
		return r.recv
	}
	return 0
}
