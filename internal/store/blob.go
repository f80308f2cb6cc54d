package store

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
// numbers that fill the template's holes (store/template.go).
//
// Version 1 wrote every finding out, without the leading u(0); it is still
// read.
const blobVersion = 2

const (
	numNaN = iota
	numInt
	numFloat

	flagText    = 1 << 6
	flagRaw     = 1 << 7
	flagSamples = 1 << 8
)

var errBlob = errors.New("corrupt kernel blob")

// metricKey is what a raw_metric_keys row holds.
type metricKey struct {
	Name, Section, Unit, RawUnit string
}

func keyOf(m *profan.Metric) metricKey { return metricKey{m.Name, m.Section, m.Unit, m.RawUnit} }

type encoder struct {
	b   []byte
	key func(m *profan.Metric, pos int) (uint64, error) // raw_metric_keys ID of a metric
	// text returns the text_templates ID of a finding's template, 0 to
	// write the finding out; nil writes every finding out.
	text func(tmpl []byte) (uint64, error)
	err  error
	tmpl []byte
	nums []string
}

// finding writes f, by its template when it has one.
func (e *encoder) finding(f *profan.ToolFinding) {
	var id uint64
	if e.text != nil {
		var ok bool
		e.tmpl, e.nums, ok = splitFinding(e.tmpl[:0], e.nums[:0], f)
		if ok {
			var err error
			if id, err = e.text(e.tmpl); err != nil && e.err == nil {
				e.err = err
			}
		}
	}
	e.u(id)
	if id == 0 {
		e.str(f.Section)
		e.str(f.Rule)
		e.str(f.Type)
		e.str(f.Description)
		e.str(f.SpeedupType)
	} else {
		e.u(uint64(len(e.nums)))
		for _, n := range e.nums {
			e.str(n)
		}
	}
	e.f(f.Speedup)
}

func (e *encoder) u(v uint64)  { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) s(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) f(v float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *encoder) str(v string) {
	e.u(uint64(len(v)))
	e.b = append(e.b, v...)
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

func (e *encoder) num(k uint64, v float64) {
	switch k {
	case numInt:
		e.s(int64(v))
	case numFloat:
		e.f(v)
	}
}

// metric writes m, the metric at position pos of the kernel's Metrics, or a
// source counter when pos is -1.
func (e *encoder) metric(m *profan.Metric, pos int) {
	key, err := e.key(m, pos)
	if err != nil && e.err == nil {
		e.err = err
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
	e.u(key)
	e.u(flags)
	e.num(kv, m.Value)
	e.num(kmin, m.Min)
	e.num(kmax, m.Max)
	if m.Text != "" {
		e.str(m.Text)
	}
	if m.Raw != "" {
		e.str(m.Raw)
	}
	if m.Samples != nil {
		e.u(uint64(len(m.Samples)))
		for _, v := range m.Samples {
			e.f(v)
		}
	}
}

// kernel appends the blob of k to e.b.
func (e *encoder) kernel(k *profan.Kernel) ([]byte, error) {
	e.b = append(e.b, blobVersion)
	e.s(int64(k.DeviceIndex))
	e.str(k.Process)
	e.str(k.Context)
	e.str(k.Stream)
	e.f(k.Start)
	e.s(int64(k.Registers))
	e.f(k.StaticSMem)
	e.f(k.DynamicSMem)
	e.u(uint64(len(k.Metrics)))
	for i := range k.Metrics {
		e.metric(&k.Metrics[i], i)
	}
	e.u(uint64(len(k.Findings)))
	for i := range k.Findings {
		e.finding(&k.Findings[i])
	}
	e.u(uint64(len(k.Source)))
	for _, s := range k.Source {
		e.str(s.File)
		e.s(int64(s.Line))
		e.str(s.Address)
		e.str(s.SASS)
		e.str(s.Source)
		e.u(uint64(len(s.Counter)))
		for i := range s.Counter {
			e.metric(&s.Counter[i], -1)
		}
	}
	return e.b, e.err
}

// decoder reads a blob; the first error sticks and zero values follow it.
type decoder struct {
	b    []byte
	key  func(uint64) (metricKey, bool)
	text func(uint64) (string, bool) // a text_templates row; nil: none
	err  error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errBlob
	}
	d.b = nil
}

func (d *decoder) u() uint64 { return varint(d, binary.Uvarint) }

func (d *decoder) s() int64 { return varint(d, binary.Varint) }

// varint reads one varint of d with read (binary.Uvarint or Varint).
func varint[T uint64 | int64](d *decoder, read func([]byte) (T, int)) T {
	v, n := read(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) f() float64 {
	if len(d.b) < 8 {
		d.fail()
		return math.NaN()
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *decoder) num(kind uint64) float64 {
	switch kind {
	case numNaN:
		return math.NaN()
	case numInt:
		return float64(d.s())
	case numFloat:
		return d.f()
	}
	d.fail()
	return math.NaN()
}

// bytes returns the next n bytes, aliasing the input.
func (d *decoder) bytes(n uint64) []byte {
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string { return string(d.bytes(d.u())) }

// count reads an element count and checks it against the bytes left, each
// element taking at least min bytes, so that a corrupt count cannot make the
// reader allocate more than the blob could hold.
func (d *decoder) count(min int) int {
	n := d.u()
	if n > uint64(len(d.b)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

// metric decodes one metric; with skip it only moves past it and returns
// the key ID and Value.
func (d *decoder) metric(m *profan.Metric, skip bool) (key uint64) {
	key = d.u()
	flags := d.u()
	if flags >= flagSamples<<1 {
		d.fail()
		return 0
	}
	m.Value = d.num(flags & 3)
	if skip {
		d.num(flags >> 2 & 3)
		d.num(flags >> 4 & 3)
		if flags&flagText != 0 {
			d.bytes(d.u())
		}
		if flags&flagRaw != 0 {
			d.bytes(d.u())
		}
		if flags&flagSamples != 0 {
			d.bytes(8 * uint64(d.count(8)))
		}
		return key
	}
	k, ok := d.key(key)
	if !ok {
		d.fail()
		return 0
	}
	m.Name, m.Section, m.Unit, m.RawUnit = k.Name, k.Section, k.Unit, k.RawUnit
	m.Min = d.num(flags >> 2 & 3)
	m.Max = d.num(flags >> 4 & 3)
	if flags&flagText != 0 {
		m.Text = d.str()
	}
	if flags&flagRaw != 0 {
		m.Raw = d.str()
	}
	if flags&flagSamples != 0 {
		m.Samples = make([]float64, d.count(8))
		for i := range m.Samples {
			m.Samples[i] = d.f()
		}
	}
	return key
}

func (d *decoder) metrics() []profan.Metric {
	n := d.count(2)
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
func (d *decoder) skipExtras() {
	d.s()
	d.bytes(d.u())
	d.bytes(d.u())
	d.bytes(d.u())
	d.f()
	d.s()
	d.f()
	d.f()
}

// knownVersion reports whether a blob's version is one this package reads.
func knownVersion(b []byte) bool { return len(b) > 0 && (b[0] == 1 || b[0] == blobVersion) }

// finding decodes one finding of a blob of version v.
func (d *decoder) finding(f *profan.ToolFinding, v byte) {
	id := uint64(0)
	if v >= 2 {
		id = d.u()
	}
	if id == 0 {
		f.Section = d.str()
		f.Rule = d.str()
		f.Type = d.str()
		f.Description = d.str()
		f.SpeedupType = d.str()
	} else {
		nums := make([]string, d.count(1))
		for i := range nums {
			nums[i] = d.str()
		}
		t, ok := "", false
		if d.text != nil && d.err == nil {
			t, ok = d.text(id)
		}
		if !ok || !joinFinding(f, t, nums) {
			d.fail()
		}
	}
	f.Speedup = d.f()
}

// decodeKernel fills the fields of k that blob b holds; key resolves the
// raw_metric_keys IDs, text the text_templates IDs.
func decodeKernel(b []byte, k *profan.Kernel, key func(uint64) (metricKey, bool), text func(uint64) (string, bool)) error {
	if !knownVersion(b) {
		return fmt.Errorf("%w: unknown version", errBlob)
	}
	v := b[0]
	d := decoder{b: b[1:], key: key, text: text}
	k.DeviceIndex = int(d.s())
	k.Process = d.str()
	k.Context = d.str()
	k.Stream = d.str()
	k.Start = d.f()
	// When a traced launch was queued, and what its aten op moves
	// (OpBytes), are read from the trace, not stored.
	k.Launched = math.NaN()
	k.Registers = int(d.s())
	k.StaticSMem = d.f()
	k.DynamicSMem = d.f()
	k.Metrics = d.metrics()
	if n := d.count(10); n > 0 {
		k.Findings = make([]profan.ToolFinding, n)
		for i := range k.Findings {
			d.finding(&k.Findings[i], v)
		}
	}
	if n := d.count(6); n > 0 {
		k.Source = make([]profan.SourceRecord, n)
		for i := range k.Source {
			s := &k.Source[i]
			s.File = d.str()
			s.Line = int(d.s())
			s.Address = d.str()
			s.SASS = d.str()
			s.Source = d.str()
			s.Counter = d.metrics()
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return d.err
}

// findMetric returns the value of the first raw metric of blob b whose key
// is in keys, skipping the others without decoding them. ok is false when
// the kernel has no such metric.
func findMetric(b []byte, keys map[uint64]bool) (v float64, ok bool, err error) {
	if !knownVersion(b) {
		return math.NaN(), false, fmt.Errorf("%w: unknown version", errBlob)
	}
	d := decoder{b: b[1:]}
	d.skipExtras()
	n := d.count(2)
	var m profan.Metric
	for range n {
		key := d.metric(&m, true)
		if d.err != nil {
			break
		}
		if keys[key] {
			return m.Value, true, nil
		}
	}
	return math.NaN(), false, d.err
}
