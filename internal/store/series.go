package store

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/store/blob"
)

// Launch series. A trace lists every launch of every kernel: hundreds of
// thousands of rows that repeat the same name, configuration, device and
// findings and differ only in launch ID, start and duration. The writer
// stores the first launch of each such group as a full kernels row and the
// later ones as members of its series: chunks of launch_series rows holding,
// per launch, only what varies. A launch joins a series only when
// everything else it would store is identical (its blob with the start left
// out, its canonical values but duration, its findings), so expanding a
// series gives back exactly the records that were added.
//
// Chunk encoding, per launch: u(ordinal - previous ordinal) id start
// duration canonicalDuration, where id is u(0) str(ID) or u(1) s(ID -
// previous numeric ID) when the ID is a decimal integer that formats back
// to itself, and the three times are f(). The previous values start at the
// series' first launch in every chunk, so chunks decode independently.

// seriesChunk is the most launches one launch_series row holds: it bounds
// the memory a writer holds for a series before it writes a chunk.
const seriesChunk = 1 << 14

// series is an open launch series of a run being written.
type series struct {
	kernelID int64 // kernels.id of the first launch
	ordinal  int   // the first launch's ordinal
	id       int64 // the first launch's numeric ID, when it has one
	chunk    int   // chunks written
	n        int   // launches in buf
	prevOrd  int
	prevID   int64
	buf      []byte
}

func (s *series) add(ordinal int, k *profan.Kernel, canonDur float64) {
	if s.n == 0 {
		s.prevOrd, s.prevID = s.ordinal, s.id
	}
	e := blob.Encoder{B: s.buf}
	e.U(uint64(ordinal - s.prevOrd))
	s.prevOrd = ordinal
	if id, ok := numericID(k.ID); ok {
		e.U(1)
		e.S(id - s.prevID)
		s.prevID = id
	} else {
		e.U(0)
		e.Str(k.ID)
	}
	e.F(k.Start)
	e.F(k.Duration)
	e.F(canonDur)
	s.buf = e.B
	s.n++
}

// numericID returns ID as an integer when it is one that formats back to
// itself (no sign, no leading zeros).
func numericID(id string) (int64, bool) {
	if id == "" || len(id) > 18 || (id[0] == '0' && len(id) > 1) {
		return 0, false
	}
	var v int64 // 18 digits at most: no overflow
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// seriesLaunch is one decoded member of a series.
type seriesLaunch struct {
	ordinal                   int
	id                        string
	start, duration, canonDur float64
}

// decodeSeries decodes a chunk of the series whose first launch has the
// given ordinal and ID.
func decodeSeries(b []byte, n int, ordinal int, firstID string, out []seriesLaunch) ([]seriesLaunch, error) {
	d := blob.Decoder{B: b}
	prevOrd := ordinal
	prevID, _ := numericID(firstID)
	for i := 0; i < n && d.Err == nil; i++ {
		var l seriesLaunch
		l.ordinal = prevOrd + int(d.U())
		prevOrd = l.ordinal
		switch d.U() {
		case 1:
			prevID += d.S()
			l.id = strconv.FormatInt(prevID, 10)
		case 0:
			l.id = d.Str()
		default:
			d.Fail()
		}
		l.start, l.duration, l.canonDur = d.F(), d.F(), d.F()
		out = append(out, l)
	}
	if d.Err == nil && len(d.B) != 0 {
		d.Fail()
	}
	if d.Err != nil {
		return nil, fmt.Errorf("launch series: %w", d.Err)
	}
	return out, nil
}

// seriesKey appends to buf what a launch must share with the others of its
// series: its name, columns, blob (encoded with the start left out),
// canonical values but duration, findings and the rest of the verdict
// (verdict, as kernels.verdict holds it). It returns the canonical
// duration apart (NaN when none).
func seriesKey(buf []byte, nameID int64, k *profan.Kernel, raw []byte, rec *KernelRecord, verdict string) ([]byte, float64) {
	e := blob.Encoder{B: buf}
	e.S(nameID)
	e.Str(verdict)
	e.Str(k.Device)
	e.Str(k.CC)
	for _, v := range k.Grid {
		e.S(int64(v))
	}
	for _, v := range k.Block {
		e.S(int64(v))
	}
	e.S(int64(k.Invocations))
	e.U(uint64(len(raw)))
	e.B = append(e.B, raw...)
	canonDur := math.NaN()
	for _, v := range rec.Canonical {
		if v.Name == "duration" {
			canonDur = v.Value
			continue
		}
		e.Str(v.Name)
		e.F(v.Value)
	}
	for _, f := range rec.Findings {
		e.Str(f.Rule)
		e.S(int64(f.Severity))
		if f.Kernel == k.ID { // the usual: the finding names its launch
			e.U(1)
		} else {
			e.U(0)
			e.Str(f.Kernel)
		}
		e.Str(f.Message)
		e.Str(f.Advice)
		e.F(f.Gain)
		e.U(uint64(len(f.Evidence)))
		for _, s := range f.Evidence {
			e.Str(s)
		}
		e.U(uint64(len(f.Locations)))
		for _, l := range f.Locations {
			e.Str(l.File)
			e.S(int64(l.Line))
			e.Str(l.SASS)
		}
	}
	return e.B, canonDur
}

// startOffset is where an encoded blob holds the kernel's start: after the
// version byte, DeviceIndex, Process, Context and Stream.
func startOffset(raw []byte) (int, bool) {
	if len(raw) == 0 || raw[0] != blob.Version {
		return 0, false
	}
	i := 1
	if _, n := binary.Varint(raw[i:]); n > 0 {
		i += n
	} else {
		return 0, false
	}
	for range 3 {
		l, n := binary.Uvarint(raw[i:])
		if n <= 0 || uint64(len(raw)-i-n) < l {
			return 0, false
		}
		i += n + int(l)
	}
	if len(raw)-i < 8 {
		return 0, false
	}
	return i, true
}

// noStart stands for the start in a series key: a NaN pattern.
var noStart = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// withoutStart returns raw with its 8 start bytes set to a NaN pattern, in
// scratch.
func withoutStart(scratch, raw []byte) ([]byte, bool) {
	i, ok := startOffset(raw)
	if !ok {
		return nil, false
	}
	scratch = append(scratch[:0], raw...)
	copy(scratch[i:i+8], noStart[:])
	return scratch, true
}

// lastLaunch is what a launch that started or joined a series shares with
// the others of it (its series key, seriesKey), kept to know the next
// launch as one of them without encoding its blob and key: the launches
// of a trace repeat the launch before but for ID, start and duration.
// Only kernels without metrics, tool findings and source records are
// kept (their blob is the fields below).
type lastLaunch struct {
	ok       bool
	s        *series
	nameID   int64
	verdict  string
	k        profan.Kernel // the fields the blob and the key hold; no slices
	canon    []NamedValue  // the canonical values but duration
	findings []profan.Finding
	// byID: the finding named its launch (f.Kernel == k.ID), as the key
	// tells it.
	byID []bool
}

// set keeps the launch k of series s (rec its record, verdict its
// encoded verdict).
func (l *lastLaunch) set(s *series, nameID int64, k *profan.Kernel, rec *KernelRecord, verdict string) {
	l.ok, l.s, l.nameID, l.verdict = true, s, nameID, verdict
	l.k = profan.Kernel{DeviceIndex: k.DeviceIndex, Process: k.Process, Context: k.Context, Stream: k.Stream, Registers: k.Registers,
		StaticSMem: k.StaticSMem, DynamicSMem: k.DynamicSMem, Device: k.Device, CC: k.CC, Grid: k.Grid, Block: k.Block, Invocations: k.Invocations}
	l.canon = l.canon[:0]
	for _, v := range rec.Canonical {
		if v.Name != "duration" {
			l.canon = append(l.canon, v)
		}
	}
	l.findings, l.byID = l.findings[:0], l.byID[:0]
	for _, f := range rec.Findings {
		f.Evidence, f.Locations = slices.Clone(f.Evidence), slices.Clone(f.Locations)
		l.findings = append(l.findings, f)
		l.byID = append(l.byID, f.Kernel == k.ID)
	}
}

// again reports whether launch k (rec its record, verdict its encoded
// verdict) would have the series key of the launch kept, and returns
// that launch's series and k's canonical duration (NaN when none) if so.
// Every part of the key is compared as seriesKey encodes it: strings by
// their bytes, numbers by their bits.
func (l *lastLaunch) again(nameID int64, k *profan.Kernel, rec *KernelRecord, verdict string) (*series, float64, bool) {
	p := &l.k
	if !l.ok || nameID != l.nameID || verdict != l.verdict ||
		k.DeviceIndex != p.DeviceIndex || k.Process != p.Process || k.Context != p.Context || k.Stream != p.Stream ||
		k.Registers != p.Registers || !sameBits(k.StaticSMem, p.StaticSMem) || !sameBits(k.DynamicSMem, p.DynamicSMem) ||
		k.Device != p.Device || k.CC != p.CC || k.Grid != p.Grid || k.Block != p.Block || k.Invocations != p.Invocations ||
		len(rec.Findings) != len(l.findings) {
		return nil, 0, false
	}
	canonDur, i := math.NaN(), 0
	for _, v := range rec.Canonical {
		if v.Name == "duration" {
			canonDur = v.Value
			continue
		}
		if i == len(l.canon) || v.Name != l.canon[i].Name || !sameBits(v.Value, l.canon[i].Value) {
			return nil, 0, false
		}
		i++
	}
	if i != len(l.canon) {
		return nil, 0, false
	}
	for j, f := range rec.Findings {
		g := &l.findings[j]
		byID := f.Kernel == k.ID
		if byID != l.byID[j] || !byID && f.Kernel != g.Kernel || f.Rule != g.Rule || f.Severity != g.Severity ||
			f.Message != g.Message || f.Advice != g.Advice || !sameBits(f.Gain, g.Gain) ||
			!slices.Equal(f.Evidence, g.Evidence) || !slices.Equal(f.Locations, g.Locations) {
			return nil, 0, false
		}
	}
	return l.s, canonDur, true
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
