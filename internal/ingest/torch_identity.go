package ingest

import (
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/profan-dev/profan/internal/safe"
)

// A PyTorch trace's GPU events are each one activity: a kernel, copy or
// memset written twice (a line doubled, a trace joined with a part of
// itself) is refused at its second event, as the CSV readers refuse a row
// written twice, and so is a correlation ID that joins two launch calls,
// or two kernels but for the kernels of one CUDA graph launch, which share
// their cudaGraphLaunch's (fixtures/timeline/*graphs*): read, the trace
// would count launches twice. A graph launched before the profiler
// recorded its calls (the schedule's warm-up step) can run its kernels
// into the recorded window, their launch call unrecorded
// (fixtures/host26d mol.graphs: 282 kernels of one ID): kernels sharing an
// ID below every call's ID the trace holds are read as that launch's.

// Flags of a correlation ID: what was read with it.
const (
	corrKernel = 1 << iota // a kernel
	corrCall               // a launch call
	corrGraph              // the launch call is a graph's
	corrOther              // a runtime or driver call that launches nothing
)

// gpuIdentities are what the checks keep: per GPU activity, a 64-bit hash
// of its identity and its line; per correlation ID, what was read with it.
type gpuIdentities struct {
	seed  maphash.Seed
	h     maphash.Hash
	seen  map[uint64]int32 // identity → line of the activity
	corrs corrFlags
	// twice are the correlation IDs of a second kernel whose launch call
	// was not read yet (a graph's comes after its kernels): the line of
	// that kernel, refused unless a graph launch comes.
	twice map[int64]int
	// firstCall is the lowest correlation ID of the calls read, and
	// calls whether any was: an ID below it was launched before the
	// trace's first recorded call (correlation IDs grow with time).
	firstCall int64
	calls     bool
}

// identity refuses the GPU event being read when one read before had its
// device, stream, start, end and name.
func (r *torchReader) identity(off int64) error {
	g := &r.ids
	if g.seen == nil {
		g.seed = maphash.MakeSeed()
		g.seen = map[uint64]int32{}
	}
	e := &r.ev
	dev := e.Args.Device
	if !dev.set {
		dev = e.Args.InDevice
	}
	g.h.SetSeed(g.seed)
	g.h.WriteString(dev.s)
	g.h.WriteByte(0)
	g.h.WriteString(e.Args.Stream.s)
	g.h.WriteByte(0)
	g.h.WriteString(e.Tid.s)
	g.h.WriteByte(0)
	g.h.WriteString(e.Name)
	var b [16]byte
	for i := range 8 {
		b[i], b[8+i] = byte(e.TS.ns>>(8*i)), byte(e.Dur.ns>>(8*i))
	}
	g.h.Write(b[:])
	k := g.h.Sum64()
	line := r.lineAt(off)
	if first, ok := g.seen[k]; ok {
		at := ""
		if first > 0 {
			at = fmt.Sprintf(" at line %d", first)
		}
		return r.errorAt(off, "%q: the same %s as the event%s (device, stream, start, end and name): an event written twice", e.Name, e.Cat, at)
	}
	g.seen[k] = int32(min(line, 1<<31-1))
	return nil
}

// kernelCorr notes a kernel's correlation ID: a second kernel of one
// launch call is refused, at once when the call is known and launches one
// kernel, else when its call comes (or at the end), unless the call is a
// graph's.
func (r *torchReader) kernelCorr(corr int64, name string, off int64) error {
	g := &r.ids
	f := g.corrs.get(corr)
	if f&corrKernel != 0 && f&corrGraph == 0 {
		if f&corrCall != 0 {
			return r.errorAt(off, "%q: a second kernel of correlation ID %d, whose launch call launches one kernel (an event written twice, or of another trace?)", name, corr)
		}
		if g.twice == nil {
			g.twice = map[int64]int{}
		}
		if _, ok := g.twice[corr]; !ok {
			g.twice[corr] = r.lineAt(off)
		}
	}
	g.corrs.set(corr, f|corrKernel)
	return nil
}

// callCorr notes a launch call's correlation ID: a second call of one ID
// is refused, and so is a call, not a graph's, of an ID two kernels share.
func (r *torchReader) callCorr(corr int64, graph bool, off int64) error {
	mark := uint8(corrCall)
	if graph {
		mark |= corrGraph
	}
	if err := r.markCall(corr, mark, off); err != nil {
		return err
	}
	g := &r.ids
	if line, ok := g.twice[corr]; ok {
		if !graph {
			return &syntaxError{File: r.src, Line: line, Msg: fmt.Sprintf("a second kernel of correlation ID %d, whose launch call %s launches one kernel (an event written twice, or of another trace?)", corr, safe.Term(r.ev.Name))}
		}
		delete(g.twice, corr)
	}
	return nil
}

// otherCallCorr notes the correlation ID of a runtime or driver call that
// launches nothing: each call has its own, and a call written twice would
// count twice (a synchronisation's wait, a copy's).
func (r *torchReader) otherCallCorr(corr int64, off int64) error {
	return r.markCall(corr, corrOther, off)
}

// markCall adds mark to a call's correlation ID, refused where a call of
// that ID came before.
func (r *torchReader) markCall(corr int64, mark uint8, off int64) error {
	g := &r.ids
	f := g.corrs.get(corr)
	if f&(corrCall|corrOther) != 0 {
		return r.errorAt(off, "%q: a second CUDA call of correlation ID %d (an event written twice, or of another trace?)", r.ev.Name, corr)
	}
	g.corrs.set(corr, f|mark)
	if !g.calls || corr < g.firstCall {
		g.firstCall, g.calls = corr, true
	}
	return nil
}

// corrsEnd refuses, at the end of the trace, the first second kernel of a
// correlation ID that no graph launch came for, but for an ID below every
// call's: a graph launched before the trace recorded its calls.
func (r *torchReader) corrsEnd() error {
	g := &r.ids
	lines := make([]int, 0, len(g.twice))
	for corr, l := range g.twice {
		if g.calls && corr < g.firstCall && g.corrs.get(corr)&(corrCall|corrOther) == 0 {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return nil
	}
	line := slices.Min(lines)
	return &syntaxError{File: r.src, Line: line, Msg: "a second kernel of a correlation ID that no CUDA graph launch joins: a launch call launches one kernel (an event written twice, or of another trace?)"}
}

// corrFlags are the marks of each correlation ID (corrKernel, ...): in
// pages of corrPage IDs, a byte each, the page of the ID before kept at
// hand (a trace's IDs come near one another), a map lookup per page
// change instead of one per event, and a byte an ID instead of a map
// entry. Past maxCorrPages pages (sparse IDs), IDs go to a map.
type corrFlags struct {
	pages    map[int64]*[corrPage]uint8
	lastKey  int64
	lastPage *[corrPage]uint8
	rest     map[int64]uint8
}

const (
	corrPageBits = 12
	corrPage     = 1 << corrPageBits
	maxCorrPages = 1024 // 4 MB of pages
)

// page is the page of id, made when add is set and the bound allows;
// nil else.
func (c *corrFlags) page(id int64, add bool) *[corrPage]uint8 {
	key := id >> corrPageBits
	if c.lastPage != nil && key == c.lastKey {
		return c.lastPage
	}
	p := c.pages[key]
	if p == nil {
		if !add || len(c.pages) >= maxCorrPages {
			return nil
		}
		if c.pages == nil {
			c.pages = map[int64]*[corrPage]uint8{}
		}
		p = new([corrPage]uint8)
		c.pages[key] = p
	}
	c.lastKey, c.lastPage = key, p
	return p
}

func (c *corrFlags) get(id int64) uint8 {
	if p := c.page(id, false); p != nil {
		return p[id&(corrPage-1)]
	}
	return c.rest[id]
}

func (c *corrFlags) set(id int64, f uint8) {
	if p := c.page(id, true); p != nil {
		p[id&(corrPage-1)] = f
		return
	}
	if c.rest == nil {
		c.rest = map[int64]uint8{}
	}
	c.rest[id] = f
}
