package ingest

import (
	"hash/maphash"
	"math"
	"strconv"

	"github.com/profan-dev/profan"
)

// identitySet holds the identities of the activities read (a 64-bit hash
// of each, and its line), so that one written twice, adjacent or not, is
// refused at its second line: counted twice, a kernel or copy would be
// two launches, or twice the bytes. O(1) per activity, 12 bytes or so.
type identitySet struct {
	seed maphash.Seed
	h    maphash.Hash
	seen map[uint64]int32
}

// begin starts the hash of an identity, written by the caller to h.
func (s *identitySet) begin() *maphash.Hash {
	if s.seen == nil {
		s.seed = maphash.MakeSeed()
		s.seen = map[uint64]int32{}
	}
	s.h.SetSeed(s.seed)
	return &s.h
}

// add records the identity hashed since begin at line, and returns the
// line of an earlier activity of that identity (0 when its line is not
// known) and whether there was one.
func (s *identitySet) add(line int) (first int, twice bool) {
	k := s.h.Sum64()
	if f, ok := s.seen[k]; ok {
		return int(f), true
	}
	s.seen[k] = int32(min(line, math.MaxInt32))
	return 0, false
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
// and name: a row written twice away from its place (the one before it
// is found by the table's reader), or an export joined with part of
// itself. A PyTorch trace checks its events itself (torch_identity.go).
func (t *table) kernelTwice(k *profan.Kernel, line int) error {
	if math.IsNaN(k.Start) || t.s.doc != nil {
		return nil
	}
	h := t.s.ids.begin()
	h.WriteByte('k')
	writeField(h, k.PID)
	writeField(h, k.Process)
	writeField(h, k.Host)
	writeField(h, k.Device)
	writeNum(h, uint64(k.DeviceIndex))
	writeField(h, k.Context)
	writeField(h, k.Stream)
	writeField(h, k.Name)
	writeNum(h, math.Float64bits(k.Start))
	writeNum(h, math.Float64bits(k.Duration))
	if first, twice := t.s.ids.add(line); twice {
		t.twice(t.Errorf(line, "kernel %s: the same launch (process, device, stream, start, duration and name) as %s: a row written twice", shorten(k.Name, 60), atLine(first)))
	}
	return nil
}

// activityTwice is kernelTwice for a copy or memset.
func (t *table) activityTwice(a *profan.Activity, line int) error {
	if math.IsNaN(a.Start) || t.s.doc != nil {
		return nil
	}
	h := t.s.ids.begin()
	h.WriteByte('a')
	writeField(h, a.Device)
	writeField(h, a.Stream)
	writeField(h, a.Kind)
	writeField(h, a.Name)
	writeNum(h, math.Float64bits(a.Start))
	writeNum(h, math.Float64bits(a.Duration))
	writeNum(h, math.Float64bits(a.Bytes))
	if first, twice := t.s.ids.add(line); twice {
		t.twice(t.Errorf(line, "%s: the same copy or memset (device, stream, start, duration, size and name) as %s: a row written twice", a.Name, atLine(first)))
	}
	return nil
}

// twice keeps the error of the first row written twice, returned when its
// table ends (endCapture): a whole table written twice is said as such
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
