package analysis

import (
	"encoding/binary"
	"math"

	"github.com/profan-dev/profan"
)

// Memo analyses the launches of a long trace once per distinct launch. A
// trace row (nvprof --print-gpu-trace, nsys gputrace) carries no metrics,
// only the name, configuration, device and times, and a trace of 600,000
// launches repeats a few kernels with a few thousand distinct durations
// (nanosecond timers): a launch equal to an earlier one in everything but
// its ID and start has the earlier one's verdict. Launches with metrics,
// source records or tool findings are always analysed afresh. A Memo is not
// safe for concurrent use.
type Memo struct {
	opt  Options
	run  *profan.Run
	seen map[string]*Kernel
	key  []byte
	// findings and suppressed back the verdicts analyze copies into a
	// caller's Kernel.
	findings   []profan.Finding
	suppressed []Suppressed
}

// maxMemo bounds the verdicts a Memo keeps (each holds its metrics): when
// full it starts afresh, so memory stays flat on traces of any length.
const maxMemo = 4096

// NewMemo returns a Memo that analyses with opt.
func NewMemo(opt Options) *Memo { return &Memo{opt: opt} }

// Analyze returns Analyze(run, k, opt), from memory when it can.
func (m *Memo) Analyze(run *profan.Run, k *profan.Kernel) *Kernel {
	return m.analyze(run, k, nil)
}

// analyze is Analyze; a verdict from memory is copied into dst when dst
// is not nil (its Findings and Suppressed into buffers of m reused by the
// next call), so a caller that is done with each verdict before asking
// for the next allocates nothing per repeated launch.
func (m *Memo) analyze(run *profan.Run, k *profan.Kernel, dst *Kernel) *Kernel {
	if len(k.Metrics) > 0 || len(k.Source) > 0 || len(k.Findings) > 0 {
		return Analyze(run, k, m.opt)
	}
	if run != m.run || m.seen == nil {
		m.run, m.seen = run, map[string]*Kernel{}
	}
	m.key = launchKey(m.key[:0], k)
	if a, ok := m.seen[string(m.key)]; ok {
		var fs []profan.Finding
		var ss []Suppressed
		if dst == nil {
			dst = new(Kernel)
			fs = make([]profan.Finding, len(a.Findings))
			ss = make([]Suppressed, len(a.Suppressed))
		} else {
			m.findings = append(m.findings[:0], a.Findings...)
			m.suppressed = append(m.suppressed[:0], a.Suppressed...)
			fs, ss = m.findings, m.suppressed
			if fs == nil {
				fs = []profan.Finding{}
			}
			if ss == nil {
				ss = []Suppressed{}
			}
		}
		*dst = *a
		dst.Record = k
		for i, f := range a.Findings {
			if f.Kernel == a.Record.ID {
				f.Kernel = k.ID
			}
			fs[i] = f
		}
		for i, x := range a.Suppressed {
			if x.Finding.Kernel == a.Record.ID {
				x.Finding.Kernel = k.ID
			}
			ss[i] = x
		}
		dst.Findings, dst.Suppressed = fs, ss
		return dst
	}
	a := Analyze(run, k, m.opt)
	if len(m.seen) >= maxMemo {
		clear(m.seen)
	}
	m.seen[string(m.key)] = a
	return a
}

// launchKey appends everything of a metric-less launch but its ID and start.
func launchKey(b []byte, k *profan.Kernel) []byte {
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	str(k.Name)
	str(k.Demangled)
	str(k.Device)
	str(k.CC)
	str(k.Process)
	str(k.Context)
	str(k.Stream)
	for _, v := range [...]int{k.DeviceIndex, k.Invocations, k.Registers, k.Grid[0], k.Grid[1], k.Grid[2], k.Block[0], k.Block[1], k.Block[2]} {
		b = binary.AppendVarint(b, int64(v))
	}
	num(k.Duration)
	num(k.StaticSMem)
	num(k.DynamicSMem)
	return b
}
