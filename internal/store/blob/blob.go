// Package blob holds the store's binary and JSON encodings, without SQL:
// a kernel's raw blob (its raw metrics, rule rows and source page), the
// finding templates the blob refers to, a stored verdict's JSON, and the
// varint primitives the store's other blobs (launch series, timeline
// strips) are written with. The store (internal/store) owns the tables
// and every query; this package turns their bytes into values and back,
// so that it can be fuzzed without building the database drivers.
package blob

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/profan-dev/profan"
)

// The raw blob of a kernel holds everything of a profan.Kernel that has no
// column of its own: the remaining identity fields, every raw metric, the
// profiler's rule rows and the source page. One blob per kernel keeps ingest
// to one row per kernel however many hundreds of raw metrics it has.
//
// A metric's name, section, unit and raw unit repeat in every kernel of a
// run, so they are stored once, as a row of raw_metric_keys, and the blob
// holds that row's ID. The rest is per kernel.
//
// Encoding, version 1. Integers are varints, unsigned u() or zig-zag s(); a
// string is u(len) and its bytes; f() is 8 bytes, the little-endian IEEE 754
// bits (so that NaN payloads and -0 survive).
//
//	blob    = 0x02 extras u(n) metric*n u(n) finding*n u(n) source*n
//	extras  = s(DeviceIndex) str(Process) str(Context) str(Stream) f(Start)
//	          s(Registers) f(StaticSMem) f(DynamicSMem)
//	metric  = u(key) u(flags) num(Value) num(Min) num(Max)
//	          [str(Text)] [str(Raw)] [u(n) f(sample)*n]
//	finding = u(0) str(Section) str(Rule) str(Type) str(Description)
//	          str(SpeedupType) f(Speedup)
//	        | u(template) u(n) str(number)*n f(Speedup)
//	source  = str(File) s(Line) str(Address) str(SASS) str(Source)
//	          u(n) metric*n
//
// flags holds three 2-bit number kinds, for Value (bits 0-1), Min (2-3) and
// Max (4-5): 0 is NaN and writes nothing, 1 is an integer written s(), 2 is
// f(). Bit 6 says Text follows, bit 7 Raw, bit 8 Samples. A finding is
// either written out (0) or the ID of its text_templates row and the
// numbers that fill the template's holes (template.go).
//
// Version 1 wrote every finding out, without the leading u(0); it is still
// read.
// Version is the kernel blob encoding this package writes.
const Version = 2

const (
	numNaN = iota
	numInt
	numFloat

	flagText    = 1 << 6
	flagRaw     = 1 << 7
	flagSamples = 1 << 8
)

// ErrCorrupt is the error of a blob that does not decode.
var ErrCorrupt = errors.New("corrupt kernel blob")

// Key is what a raw_metric_keys row holds.
type Key struct {
	Name, Section, Unit, RawUnit string
}

// KeyOf returns the raw_metric_keys row of m.
func KeyOf(m *profan.Metric) Key { return Key{m.Name, m.Section, m.Unit, m.RawUnit} }

// Encoder appends encoded values to B; the first error of Key or Text
// sticks in Err. One encoder may write many kernels: its template
// scratch is reused.
type Encoder struct {
	B   []byte
	Key func(m *profan.Metric, pos int) (uint64, error) // raw_metric_keys ID of a metric
	// Text returns the text_templates ID of a finding's template, 0 to
	// write the finding out; nil writes every finding out.
	Text func(tmpl []byte) (uint64, error)
	Err  error
	tmpl []byte
	nums []string
}

// finding writes f, by its template when it has one.
func (e *Encoder) finding(f *profan.ToolFinding) {
	var id uint64
	if e.Text != nil {
		var ok bool
		e.tmpl, e.nums, ok = splitFinding(e.tmpl[:0], e.nums[:0], f)
		if ok {
			var err error
			if id, err = e.Text(e.tmpl); err != nil && e.Err == nil {
				e.Err = err
			}
		}
	}
	e.U(id)
	if id == 0 {
		e.Str(f.Section)
		e.Str(f.Rule)
		e.Str(f.Type)
		e.Str(f.Description)
		e.Str(f.SpeedupType)
	} else {
		e.U(uint64(len(e.nums)))
		for _, n := range e.nums {
			e.Str(n)
		}
	}
	e.F(f.Speedup)
}

// U, S, F and Str append an unsigned varint, a zig-zag varint, a
// float's 8 bytes and a string (its length, then its bytes).
func (e *Encoder) U(v uint64)  { e.B = binary.AppendUvarint(e.B, v) }
func (e *Encoder) S(v int64)   { e.B = binary.AppendVarint(e.B, v) }
func (e *Encoder) F(v float64) { e.B = binary.LittleEndian.AppendUint64(e.B, math.Float64bits(v)) }
func (e *Encoder) Str(v string) {
	e.U(uint64(len(v)))
	e.B = append(e.B, v...)
}

var nanBits = math.Float64bits(math.NaN())

// kind returns how v is written.
func kind(v float64) uint64 {
	switch {
	case math.Float64bits(v) == nanBits:
		return numNaN
	case v == math.Trunc(v) && math.Abs(v) < 1<<53 && !(v == 0 && math.Signbit(v)):
		return numInt
	}
	return numFloat
}

func (e *Encoder) num(k uint64, v float64) {
	switch k {
	case numInt:
		e.S(int64(v))
	case numFloat:
		e.F(v)
	}
}

// metric writes m, the metric at position pos of the kernel's Metrics, or a
// source counter when pos is -1.
func (e *Encoder) metric(m *profan.Metric, pos int) {
	key, err := e.Key(m, pos)
	if err != nil && e.Err == nil {
		e.Err = err
	}
	kv, kmin, kmax := kind(m.Value), kind(m.Min), kind(m.Max)
	flags := kv | kmin<<2 | kmax<<4
	if m.Text != "" {
		flags |= flagText
	}
	if m.Raw != "" {
		flags |= flagRaw
	}
	if m.Samples != nil {
		flags |= flagSamples
	}
	e.U(key)
	e.U(flags)
	e.num(kv, m.Value)
	e.num(kmin, m.Min)
	e.num(kmax, m.Max)
	if m.Text != "" {
		e.Str(m.Text)
	}
	if m.Raw != "" {
		e.Str(m.Raw)
	}
	if m.Samples != nil {
		e.U(uint64(len(m.Samples)))
		for _, v := range m.Samples {
			e.F(v)
		}
	}
}

// kernel appends the blob of k to e.B.
func (e *Encoder) Kernel(k *profan.Kernel) ([]byte, error) {
	e.B = append(e.B, Version)
	e.S(int64(k.DeviceIndex))
	e.Str(k.Process)
	e.Str(k.Context)
	e.Str(k.Stream)
	e.F(k.Start)
	e.S(int64(k.Registers))
	e.F(k.StaticSMem)
	e.F(k.DynamicSMem)
	e.U(uint64(len(k.Metrics)))
	for i := range k.Metrics {
		e.metric(&k.Metrics[i], i)
	}
	e.U(uint64(len(k.Findings)))
	for i := range k.Findings {
		e.finding(&k.Findings[i])
	}
	e.U(uint64(len(k.Source)))
	for _, s := range k.Source {
		e.Str(s.File)
		e.S(int64(s.Line))
		e.Str(s.Address)
		e.Str(s.SASS)
		e.Str(s.Source)
		e.U(uint64(len(s.Counter)))
		for i := range s.Counter {
			e.metric(&s.Counter[i], -1)
		}
	}
	return e.B, e.Err
}

// Decoder reads a blob from B; the first error sticks in Err and zero
// values follow it.
type Decoder struct {
	B    []byte
	key  func(uint64) (Key, bool)
	text func(uint64) (string, bool) // a text_templates row; nil: none
	Err  error
}

// Fail marks the blob corrupt.
func (d *Decoder) Fail() {
	if d.Err == nil {
		d.Err = ErrCorrupt
	}
	d.B = nil
}

// U, S, F and Str read what Encoder's methods of the same names write.
func (d *Decoder) U() uint64 { return varint(d, binary.Uvarint) }

func (d *Decoder) S() int64 { return varint(d, binary.Varint) }

// varint reads one varint of d with read (binary.Uvarint or Varint).
func varint[T uint64 | int64](d *Decoder, read func([]byte) (T, int)) T {
	v, n := read(d.B)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

func (d *Decoder) F() float64 {
	if len(d.B) < 8 {
		d.Fail()
		return math.NaN()
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.B))
	d.B = d.B[8:]
	return v
}

func (d *Decoder) num(kind uint64) float64 {
	switch kind {
	case numNaN:
		return math.NaN()
	case numInt:
		return float64(d.S())
	case numFloat:
		return d.F()
	}
	d.Fail()
	return math.NaN()
}

// bytes returns the next n bytes, aliasing the input.
func (d *Decoder) Bytes(n uint64) []byte {
	if n > uint64(len(d.B)) {
		d.Fail()
		return nil
	}
	v := d.B[:n]
	d.B = d.B[n:]
	return v
}

func (d *Decoder) Str() string { return string(d.Bytes(d.U())) }

// count reads an element count and checks it against the bytes left, each
// element taking at least min bytes, so that a corrupt count cannot make the
// reader allocate more than the blob could hold.
func (d *Decoder) Count(min int) int {
	n := d.U()
	if n > uint64(len(d.B)/min) {
		d.Fail()
		return 0
	}
	return int(n)
}

// metric decodes one metric; with skip it only moves past it and returns
// the key ID and Value.
func (d *Decoder) metric(m *profan.Metric, skip bool) (key uint64) {
	key = d.U()
	flags := d.U()
	if flags >= flagSamples<<1 {
		d.Fail()
		return 0
	}
	m.Value = d.num(flags & 3)
	if skip {
		d.num(flags >> 2 & 3)
		d.num(flags >> 4 & 3)
		if flags&flagText != 0 {
			d.Bytes(d.U())
		}
		if flags&flagRaw != 0 {
			d.Bytes(d.U())
		}
		if flags&flagSamples != 0 {
			d.Bytes(8 * uint64(d.Count(8)))
		}
		return key
	}
	k, ok := d.key(key)
	if !ok {
		d.Fail()
		return 0
	}
	m.Name, m.Section, m.Unit, m.RawUnit = k.Name, k.Section, k.Unit, k.RawUnit
	m.Min = d.num(flags >> 2 & 3)
	m.Max = d.num(flags >> 4 & 3)
	if flags&flagText != 0 {
		m.Text = d.Str()
	}
	if flags&flagRaw != 0 {
		m.Raw = d.Str()
	}
	if flags&flagSamples != 0 {
		m.Samples = make([]float64, d.Count(8))
		for i := range m.Samples {
			m.Samples[i] = d.F()
		}
	}
	return key
}

func (d *Decoder) metrics() []profan.Metric {
	n := d.Count(2)
	if n == 0 {
		return nil
	}
	ms := make([]profan.Metric, n)
	for i := range ms {
		d.metric(&ms[i], false)
	}
	return ms
}

// skipExtras moves past the extras.
func (d *Decoder) skipExtras() {
	d.S()
	d.Bytes(d.U())
	d.Bytes(d.U())
	d.Bytes(d.U())
	d.F()
	d.S()
	d.F()
	d.F()
}

// knownVersion reports whether a blob's version is one this package reads.
func knownVersion(b []byte) bool { return len(b) > 0 && (b[0] == 1 || b[0] == Version) }

// finding decodes one finding of a blob of version v.
func (d *Decoder) finding(f *profan.ToolFinding, v byte) {
	id := uint64(0)
	if v >= 2 {
		id = d.U()
	}
	if id == 0 {
		f.Section = d.Str()
		f.Rule = d.Str()
		f.Type = d.Str()
		f.Description = d.Str()
		f.SpeedupType = d.Str()
	} else {
		nums := make([]string, d.Count(1))
		for i := range nums {
			nums[i] = d.Str()
		}
		t, ok := "", false
		if d.text != nil && d.Err == nil {
			t, ok = d.text(id)
		}
		if !ok || !joinFinding(f, t, nums) {
			d.Fail()
		}
	}
	f.Speedup = d.F()
}

// DecodeKernel fills the fields of k that blob b holds; key resolves the
// raw_metric_keys IDs, text the text_templates IDs.
func DecodeKernel(b []byte, k *profan.Kernel, key func(uint64) (Key, bool), text func(uint64) (string, bool)) error {
	if !knownVersion(b) {
		return fmt.Errorf("%w: unknown version", ErrCorrupt)
	}
	v := b[0]
	d := Decoder{B: b[1:], key: key, text: text}
	k.DeviceIndex = int(d.S())
	k.Process = d.Str()
	k.Context = d.Str()
	k.Stream = d.Str()
	k.Start = d.F()
	// When a traced launch was queued, and what its aten op moves
	// (OpBytes), are read from the trace, not stored.
	k.Launched = math.NaN()
	k.Registers = int(d.S())
	k.StaticSMem = d.F()
	k.DynamicSMem = d.F()
	k.Metrics = d.metrics()
	if n := d.Count(10); n > 0 {
		k.Findings = make([]profan.ToolFinding, n)
		for i := range k.Findings {
			d.finding(&k.Findings[i], v)
		}
	}
	if n := d.Count(6); n > 0 {
		k.Source = make([]profan.SourceRecord, n)
		for i := range k.Source {
			s := &k.Source[i]
			s.File = d.Str()
			s.Line = int(d.S())
			s.Address = d.Str()
			s.SASS = d.Str()
			s.Source = d.Str()
			s.Counter = d.metrics()
		}
	}
	if d.Err == nil && len(d.B) != 0 {
		d.Fail()
	}
	return d.Err
}

// FindMetric returns the value of the first raw metric of blob b whose key
// is in keys, skipping the others without decoding them. ok is false when
// the kernel has no such metric.
func FindMetric(b []byte, keys map[uint64]bool) (v float64, ok bool, err error) {
	if !knownVersion(b) {
		return math.NaN(), false, fmt.Errorf("%w: unknown version", ErrCorrupt)
	}
	d := Decoder{B: b[1:]}
	d.skipExtras()
	n := d.Count(2)
	var m profan.Metric
	for range n {
		key := d.metric(&m, true)
		if d.Err != nil {
			break
		}
		if keys[key] {
			return m.Value, true, nil
		}
	}
	return math.NaN(), false, d.Err
}
