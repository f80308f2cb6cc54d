package ingest

import (
	"hash/maphash"
	"math"
	"strconv"

	"github.com/profan-dev/profan"
)

// A trace's rows (nvprof --print-gpu-trace, nsys cuda_gpu_trace and
// cuda_api_trace) are written in start order: a row written twice away
// from its place (or moved) starts before the row read last, and is
// refused at its line; a row written twice among rows of the same start
// is found by its identity among them. Counted, a launch, a copy or a
// call would count twice. Memory stays flat: only the identities of the
// rows at the latest start are kept (O(1) per row, a 64-bit hash each).

// rowOrder is the order check of one capture's trace rows.
type rowOrder struct {
	seed     maphash.Seed
	h        maphash.Hash
	set      bool
	mark     float64 // the latest start read
	markLine int
	ties     []tie            // the rows that start at mark
	big      map[uint64]int32 // the same, past maxTies of them
	// lazy is a kernel that started past mark, the one row at its start:
	// its identity is hashed only when a row of the same start follows
	// (a trace's launches rarely share a start).
	lazy     kernelIdent
	lazyLine int
	hasLazy  bool
}

// kernelIdent is what identifies a launch among the rows of its start.
type kernelIdent struct {
	pid, process, host, device string
	deviceIndex                int
	context, stream, name      string
	duration                   float64
}

// hashKernel writes the identity of a launch to h.
func hashKernel(h *maphash.Hash, id *kernelIdent) {
	h.WriteByte('k')
	writeField(h, id.pid)
	writeField(h, id.process)
	writeField(h, id.host)
	writeField(h, id.device)
	writeNum(h, uint64(id.deviceIndex))
	writeField(h, id.context)
	writeField(h, id.stream)
	writeField(h, id.name)
	writeNum(h, math.Float64bits(id.duration))
}

type tie struct {
	h    uint64
	line int32
}

// maxTies is how many rows of one start are looked up in a slice.
const maxTies = 32

// begin starts the hash of a row's identity, written by the caller to h.
func (o *rowOrder) begin() *maphash.Hash {
	if !o.set && o.ties == nil {
		o.seed = maphash.MakeSeed()
		o.ties = make([]tie, 0, 4)
	}
	o.h.SetSeed(o.seed)
	return &o.h
}

// reset forgets the rows read: a new capture's start again.
func (o *rowOrder) reset() {
	o.set, o.ties, o.big, o.hasLazy = false, o.ties[:0], nil, false
}

// first takes a kernel that starts past every row read (or is the first),
// id its identity, at line, without hashing it: false when it does not.
func (o *rowOrder) first(start float64, line int, id *kernelIdent) bool {
	if o.set && !(start > o.mark) {
		return false
	}
	if o.ties == nil {
		o.seed = maphash.MakeSeed()
		o.ties = make([]tie, 0, 4)
	}
	o.set, o.mark, o.markLine = true, start, line
	o.ties, o.big = o.ties[:0], nil
	o.lazy, o.lazyLine, o.hasLazy = *id, line, true
	return true
}

// unlazy hashes the kernel first took into the rows of its start.
func (o *rowOrder) unlazy() {
	if !o.hasLazy {
		return
	}
	o.hasLazy = false
	var h maphash.Hash
	h.SetSeed(o.seed)
	hashKernel(&h, &o.lazy)
	o.ties = append(o.ties, tie{h.Sum64(), int32(min(o.lazyLine, math.MaxInt32))})
}

// add checks the row hashed since begin, starting at start, at line: it
// returns the line of an earlier row of the same identity (twice; 0 when
// not known), or of the row read last when this one starts before it
// (back).
func (o *rowOrder) add(start float64, line int) (first int, twice bool, back int) {
	k := o.h.Sum64()
	switch {
	case !o.set || start > o.mark:
		o.set, o.mark, o.markLine = true, start, line
		o.ties, o.big, o.hasLazy = o.ties[:0], nil, false
	case start < o.mark:
		return 0, false, o.markLine
	default:
		o.unlazy()
	}
	if o.big != nil {
		if f, ok := o.big[k]; ok {
			return int(f), true, 0
		}
		o.big[k] = int32(min(line, math.MaxInt32))
		return 0, false, 0
	}
	for _, x := range o.ties {
		if x.h == k {
			return int(x.line), true, 0
		}
	}
	o.ties = append(o.ties, tie{k, int32(min(line, math.MaxInt32))})
	if len(o.ties) > maxTies {
		o.big = make(map[uint64]int32, 2*maxTies)
		for _, x := range o.ties {
			o.big[x.h] = x.line
		}
	}
	return 0, false, 0
}

// writeField hashes a string and a separator.
func writeField(h *maphash.Hash, s string) {
	h.WriteString(s)
	h.WriteByte(0)
}

// writeNum hashes the bits of a number.
func writeNum(h *maphash.Hash, v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.Write(b[:])
}

// kernelTwice refuses a kernel of a trace (one with a start) equal to an
// earlier one in its process, device, context, stream, start, duration
// and name, or out of start order. A PyTorch trace, whose events come in
// no order, checks them itself (torch_identity.go).
func (t *table) kernelTwice(k *profan.Kernel, line int) error {
	if math.IsNaN(k.Start) || t.s.doc != nil {
		return nil
	}
	id := kernelIdent{pid: k.PID, process: k.Process, host: k.Host, device: k.Device, deviceIndex: k.DeviceIndex,
		context: k.Context, stream: k.Stream, name: k.Name, duration: k.Duration}
	if t.s.order.first(k.Start, line, &id) {
		return nil // the usual: a launch past the rows before
	}
	hashKernel(t.s.order.begin(), &id)
	t.traceRow(k.Start, line, true, k.Name, "the same launch (process, device, stream, start, duration and name)")
	return nil
}

// activityTwice is kernelTwice for a copy or memset.
func (t *table) activityTwice(a *profan.Activity, line int) error {
	if math.IsNaN(a.Start) || t.s.doc != nil {
		return nil
	}
	h := t.s.order.begin()
	h.WriteByte('a')
	writeField(h, a.Device)
	writeField(h, a.Stream)
	writeField(h, a.Kind)
	writeField(h, a.Name)
	writeNum(h, math.Float64bits(a.Duration))
	writeNum(h, math.Float64bits(a.Bytes))
	t.traceRow(a.Start, line, false, a.Name, "the same copy or memset (device, stream, start, duration, size and name)")
	return nil
}

// callTwice is kernelTwice for a call of an nsys API trace.
func (t *table) callTwice(name, thread, corr string, start, dur float64, line int) {
	h := t.s.order.begin()
	h.WriteByte('c')
	writeField(h, name)
	writeField(h, thread)
	writeField(h, corr)
	writeNum(h, math.Float64bits(dur))
	t.traceRow(start, line, false, name, "the same call (name, thread, CorrID, start and duration)")
}

// traceRow checks the row hashed, of name (a kernel's, said "kernel
// NAME" shortened), starting at start: its error is kept to be returned
// when its table ends (see twice). The text is made only for an error.
func (t *table) traceRow(start float64, line int, kernel bool, name, same string) {
	first, twice, back := t.s.order.add(start, line)
	if !twice && back == 0 {
		return
	}
	what := name
	if kernel {
		what = "kernel " + shorten(name, 60)
	}
	switch {
	case twice:
		t.twice(t.Errorf(line, "%s: %s as %s: a row written twice", what, same, atLine(first)))
	case back > 0:
		t.twice(t.Errorf(line, "%s starts at %.9g s, before the row at line %d: a trace's rows are in start order (a row written twice or moved, or of another capture?)", what, start, back))
	}
}

// twice keeps the error of the first row written twice, returned when its
// capture ends (endCapture): a whole table written twice is said as such
// there first.
func (t *table) twice(err error) {
	if t.s.twiceErr == nil {
		t.s.twiceErr = err
	}
}

// atLine is "the row at line N", or "an earlier row" when N is not known.
func atLine(n int) string {
	if n > 0 {
		return "the row at line " + strconv.Itoa(n)
	}
	return "an earlier row"
}
