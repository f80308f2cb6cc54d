package ingest

// What a table hands on to the run: kernels and their metrics, shared
// names, activities and API calls, each bounded (moved from table.go,
// which reads the rows).

import (
	"math"
	"unsafe"

	"github.com/profan-dev/profan"
)

// maxKernelNames bounds the distinct kernel names of one export: every
// name costs its analysis a few kB, and real exports have hundreds, a
// large model's trace a few thousand.
const maxKernelNames = 1 << 13

// maxKernelMetrics bounds the distinct metrics of one kernel as maxFields
// bounds those of a raw page's row (one launch): a launch captured with
// --set full has about 2,200; a flood of names in one kernel would grow its
// analysis and every later read of its run without end.
const maxKernelMetrics = maxFields

// AddMetric adds m to k, refusing at line a kernel past maxKernelMetrics
// distinct metrics.
func (t *table) AddMetric(k *profan.Kernel, m profan.Metric, line int) error {
	k.AddMetric(m)
	if len(k.Metrics) > maxKernelMetrics {
		return t.Errorf(line, "more than %d distinct metrics in one kernel launch (not a profiler export?)", maxKernelMetrics)
	}
	return nil
}

// maxNames bounds the distinct names (kernels, metrics) a reader keeps a
// table of; past it, strings are no longer shared.
const maxNames = 1 << 16

// Intern returns b as a string, sharing storage with earlier equal strings:
// exports repeat kernel, section and metric names on every row.
func (t *table) Intern(b []byte) string {
	slot := &t.s.recent[internSlot(b)]
	if string(b) == *slot {
		return *slot // a trace row's device, context and stream: as the row before's
	}
	if t.s.intern == nil {
		t.s.intern = make(map[string]string, 1024)
	}
	if s, ok := t.s.intern[string(b)]; ok {
		*slot = s
		return s
	}
	if len(t.s.intern) > maxNames {
		return string(b) // bound the table on exports with unbounded names
	}
	s := string(b)
	t.s.intern[s] = s
	*slot = s
	return s
}

// InternString is Intern of a string already made (a part of one).
func (t *table) InternString(s string) string {
	slot := &t.s.recent[internSlot(s)]
	if s == *slot {
		return *slot
	}
	if t.s.intern == nil {
		t.s.intern = make(map[string]string, 1024)
	}
	if v, ok := t.s.intern[s]; ok {
		*slot = v
		return v
	}
	if len(t.s.intern) > maxNames {
		return s
	}
	t.s.intern[s] = s
	*slot = s
	return s
}

// internSlot is the place of b among the strings interned last
// (stream.recent): by its length and its first and last bytes.
func internSlot[T string | []byte](b T) int {
	if len(b) == 0 {
		return 0
	}
	return int(uint(len(b))*31+uint(b[0])*7+uint(b[len(b)-1])) & (len(stream{}.recent) - 1)
}

// kernelSlab is how many kernels newKernel allocates at once.
const kernelSlab = 64

// newKernel returns a new kernel (profan.NewKernel) from a slab of
// kernelSlab: a trace of 600,000 launches makes one allocation a slab,
// not one a launch. Each is a kernel of its own, never reused: what the
// sink keeps of it stays as it was.
func (t *table) newKernel() *profan.Kernel {
	if len(t.slab) == 0 {
		t.slab = make([]profan.Kernel, kernelSlab)
	}
	k := &t.slab[0]
	t.slab = t.slab[1:]
	// The slab's kernels are zero: only NewKernel's other values are set
	// (TestNewKernelSlab holds the two equal), not the whole kernel
	// copied from a NewKernel allocated on the heap.
	nan := math.NaN()
	k.DeviceIndex, k.Invocations = -1, 1
	k.Start, k.Duration, k.Launched, k.StaticSMem, k.DynamicSMem = nan, nan, nan, nan, nan
	return k
}

// idString is string(b) for a launch ID (a few digits), made in a block
// of idBlock bytes shared with the IDs made before it: not an allocation
// per launch. The block's bytes are never written again once a string
// holds them; a kernel kept keeps its block.
func (t *table) idString(b []byte) string {
	if len(b) == 0 || len(b) > 64 {
		return string(b)
	}
	if cap(t.ids)-len(t.ids) < len(b) {
		t.ids = make([]byte, 0, idBlock)
	}
	start := len(t.ids)
	t.ids = append(t.ids, b...)
	return unsafe.String(&t.ids[start], len(b))
}

// idBlock is the size of idString's blocks.
const idBlock = 16 << 10

// Kernel hands a completed kernel to the sink.
func (t *table) Kernel(k *profan.Kernel, line int) error {
	if err := k.CheckValid(); err != nil {
		return t.Errorf(line, "%v", err)
	}
	if err := t.kernelTwice(k, line); err != nil {
		return err
	}
	if k.Name != t.s.lastName || t.s.names == nil {
		if _, ok := t.s.names[k.Name]; !ok {
			if len(t.s.names) == maxKernelNames {
				return t.Errorf(line, "more than %d distinct kernel names (not a profiler export?)", maxKernelNames)
			}
			if t.s.names == nil {
				t.s.names = map[string]struct{}{}
			}
			t.s.names[k.Name] = struct{}{}
		}
		t.s.lastName = k.Name // a trace's next kernel is mostly this one
	}
	t.s.records++
	t.s.acct.Records++
	if k.Invocations > 1 {
		t.s.acct.Launches += k.Invocations
	} else {
		t.s.acct.Launches++
	}
	if t.s.sink.Kernel != nil {
		return t.s.sink.Kernel(t.s.run, k)
	}
	t.s.run.Kernels = append(t.s.run.Kernels, k)
	return nil
}

// Activity hands a memory activity to the sink.
func (t *table) Activity(a *profan.Activity) error {
	if a.Duration < 0 || a.Bytes < 0 {
		// Said here, at its row, as a kernel's is.
		return t.Errorf(t.row.Line, "%s: negative duration or size", a.Name)
	}
	if a.Bytes > maxActivityBytes || math.IsInf(a.Duration, 0) {
		// A size past any memory's (or infinite) is damage; summed
		// with others it would give infinite totals and rates.
		return t.Errorf(t.row.Line, "%s: a size of %g bytes or a duration of %g s: more than any copy or memset moves", a.Name, a.Bytes, a.Duration)
	}
	if err := t.activityTwice(a, t.row.Line); err != nil {
		return err
	}
	t.s.records++
	t.s.acct.Activities++
	if t.s.sink.Activity != nil {
		return t.s.sink.Activity(t.s.run, a)
	}
	if len(t.s.run.Activities) < maxActivities || a.Invocations != 1 {
		t.s.run.Activities = append(t.s.run.Activities, a)
		return nil
	}
	// Past maxActivities, the copies of a long trace are folded into one
	// record per kind, memory types, device and stream (Invocations, and
	// the mean duration and size, as a summary row gives them), so that
	// memory stays flat however long the trace.
	key := activityKey{a.Kind, a.Name, a.SrcMemType, a.DstMemType, a.Device, a.Stream}
	f := t.s.folded[key]
	if f == nil {
		if t.s.folded == nil {
			t.s.folded = map[activityKey]*profan.Activity{}
			t.note(t.s.lr.n, "memory activities", "more than %d: the later ones are folded into one record per kind, memory types and stream", maxActivities)
		}
		c := *a
		c.Correlation = ""
		t.s.folded[key] = &c
		t.s.run.Activities = append(t.s.run.Activities, &c)
		return nil
	}
	n := float64(f.Invocations)
	f.Duration = (f.Duration*n + a.Duration) / (n + 1)
	f.Bytes = (f.Bytes*n + a.Bytes) / (n + 1)
	f.Throughput = math.NaN()
	f.Invocations++
	return nil
}

// maxActivityBytes bounds the size of one copy or memset: a pebibyte,
// far past any GPU's or host's memory.
const maxActivityBytes = 1 << 50

// maxActivities is how many memory activities a run keeps one by one.
var maxActivities = 1 << 14 // a variable for tests

type activityKey struct{ kind, name, src, dst, device, stream string }

// API records a host API summary row.
func (t *table) API(c *profan.APICall) {
	t.s.records++
	t.s.run.APICalls = append(t.s.run.APICalls, c)
}
