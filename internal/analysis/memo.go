package analysis

import (
	"math"
	"slices"

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
	opt Options
	run *profan.Run
	// shapes are the launches seen, by everything but their times, the
	// most recent first; each holds its verdicts by times. A trace
	// repeats a few kernels: a launch is matched with the few shapes
	// seen last, its strings mostly the very strings of the launch
	// before (compared by pointer), and no key is built or hashed.
	shapes []*memoShape
	n      int // verdicts kept
	// findings and suppressed back the verdicts analyze copies into a
	// caller's Kernel.
	findings   []profan.Finding
	suppressed []Suppressed
}

// maxMemo bounds the verdicts a Memo keeps (each holds its metrics): when
// full it starts afresh, so memory stays flat on traces of any length.
const maxMemo = 4096

// maxShapes bounds the shapes a Memo keeps: the least recent goes.
const maxShapes = 64

// memoShape is everything of a metric-less launch but its ID, start and
// the times launchTimes keys, and the verdicts of its launches.
type memoShape struct {
	name, demangled, device, cc, process, context, stream string
	ints                                                  [9]int
	byTimes                                               map[[3]uint64]*Kernel
	// missing and skipped are the notes of its first verdict, which the
	// verdicts of its other times share when equal: the launches of a
	// trace then carry one slice, which CountMissing and the store's
	// writer know by its address.
	missing []Missing
	skipped []string
}

func shapeInts(k *profan.Kernel) [9]int {
	return [9]int{k.DeviceIndex, k.Invocations, k.Registers, k.Grid[0], k.Grid[1], k.Grid[2], k.Block[0], k.Block[1], k.Block[2]}
}

func (s *memoShape) is(k *profan.Kernel) bool {
	return s.name == k.Name && s.demangled == k.Demangled && s.device == k.Device && s.cc == k.CC && s.process == k.Process &&
		s.context == k.Context && s.stream == k.Stream && s.ints == shapeInts(k)
}

// launchTimes are the numbers of a launch's key: their bits, so that a
// NaN matches a NaN, and 0 and -0 differ.
func launchTimes(k *profan.Kernel) [3]uint64 {
	return [3]uint64{math.Float64bits(k.Duration), math.Float64bits(k.StaticSMem), math.Float64bits(k.DynamicSMem)}
}

// shape returns k's shape, made when none matches, moved to the front.
func (m *Memo) shape(k *profan.Kernel) *memoShape {
	for i, s := range m.shapes {
		if s.is(k) {
			if i > 0 {
				copy(m.shapes[1:i+1], m.shapes[:i])
				m.shapes[0] = s
			}
			return s
		}
	}
	if len(m.shapes) == maxShapes {
		m.n -= len(m.shapes[maxShapes-1].byTimes)
		m.shapes = m.shapes[:maxShapes-1]
	}
	s := &memoShape{name: k.Name, demangled: k.Demangled, device: k.Device, cc: k.CC, process: k.Process, context: k.Context, stream: k.Stream,
		ints: shapeInts(k), byTimes: map[[3]uint64]*Kernel{}}
	m.shapes = append(m.shapes, nil)
	copy(m.shapes[1:], m.shapes)
	m.shapes[0] = s
	return s
}

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
	if run != m.run {
		m.run, m.shapes, m.n = run, nil, 0
	}
	sh, times := m.shape(k), launchTimes(k)
	if a, ok := sh.byTimes[times]; ok {
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
	if m.n >= maxMemo {
		clear(m.shapes)
		m.shapes, m.n = m.shapes[:0], 0
		sh = m.shape(k)
	}
	if len(a.Missing) > 0 && slices.Equal(sh.missing, a.Missing) {
		a.Missing = sh.missing
	} else if sh.missing == nil {
		sh.missing = a.Missing
	}
	if len(a.Skipped) > 0 && slices.Equal(sh.skipped, a.Skipped) {
		a.Skipped = sh.skipped
	} else if sh.skipped == nil {
		sh.skipped = a.Skipped
	}
	sh.byTimes[times] = a
	m.n++
	return a
}
