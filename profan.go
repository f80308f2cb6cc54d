// Package profan holds the normalized model every part of profan shares: a
// Run read from one profiler export, its kernel launches with their metrics in
// base units, memory activities, the profiler's own rule results, and the
// source-level records of ncu's source page.
//
// Importers in ingest/ produce these values; metrics/, rules/, store/ and the
// report writers consume them. The package imports only the standard library
// so that every other package can depend on it.
package profan

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Tools that produce the exports profan reads.
const (
	ToolNCU    = "ncu"
	ToolNvprof = "nvprof"
	ToolNsys   = "nsys"
	// ToolTorch is the PyTorch profiler (torch.profiler, through Kineto):
	// its Chrome trace JSON.
	ToolTorch = "torch"
)

// Run is one profiler export: one file, one tool invocation (or several
// concatenated runs of the same tool, which nvprof logs sometimes hold).
type Run struct {
	Tool        string // ToolNCU, ToolNvprof, ToolNsys or ToolTorch
	Format      string // importer name, e.g. "ncu-details"
	ToolVersion string // when the export says it; mostly empty
	Source      string // path as given on the command line
	Digest      string // "sha256:<hex>" of the file's bytes
	Size        int64  // bytes read
	// Captured is when the capture was taken, where the export says (a
	// PyTorch trace's baseTimeNanoseconds), UTC; zero when it does not.
	Captured time.Time

	Kernels    []*Kernel
	Activities []*Activity // memcpy, memset, unified-memory rows
	APICalls   []*APICall  // host API summary rows
	Host       *Host       // the host side of a timeline trace; nil when the export has none
	Messages   []Message   // the tool's own message lines (==PROF==, ==ERROR==, ...)
	Findings   []Finding   // profan's run-level findings (host transfers), set by the analysis
	// Replay, on an nvprof --metrics or --events export read with a trace
	// of the same program, says how its per-kernel aggregates joined the
	// trace's launches; nil otherwise.
	Replay *ReplayJoin

	Accounting Accounting // what reading the export found and skipped
}

// ReplayJoin is how an nvprof metrics or events export joined a trace
// read with it. nvprof replays the application to collect counters, so the
// export's per-kernel aggregates come from a run of their own: they are
// joined to the trace's launches by kernel name and invocation count, the
// times the trace's and the counters the replay's.
type ReplayJoin struct {
	Trace       string   // the trace's source (the first one joined)
	Kernels     int      // aggregates in the export
	Joined      int      // of them, joined to traced launches
	Invocations int      // launches the joined aggregates stand for
	Launches    int      // traced launches they were joined to
	Unequal     []string // kernels whose invocations differ from their traced launches (up to 8)
}

// Accounting says what reading an export found: the data rows, the kernel
// records and launches they held, and every line skipped, by rule.
type Accounting struct {
	Lines      int // lines read: Headers + Rows + the skipped lines
	Headers    int // table headers and units rows
	Rows       int // data rows read (units rows excluded)
	Records    int // kernel records: one per launch, or per aggregate
	Launches   int // launches the records stand for (aggregates count their invocations)
	Activities int // memcpy, memset and unified-memory records
	Skipped    []SkipCount
}

// SkipCount is the number of lines skipped under one rule, and the first.
type SkipCount struct {
	Rule  string
	Lines int
	First int
}

// String is the accounting in one line, for -v.
func (a Accounting) String() string {
	s := fmt.Sprintf("%d lines: %d launches in %d kernel records, %d activities, %d data rows, %d header lines", a.Lines, a.Launches, a.Records, a.Activities, a.Rows, a.Headers)
	for _, k := range a.Skipped {
		s += fmt.Sprintf("; skipped %d %s (first at line %d)", k.Lines, k.Rule, k.First)
	}
	return s
}

// Dim3 is a CUDA grid or block shape. A zero value means unknown.
type Dim3 [3]int

// Size is the number of threads (or blocks) in d; 0 when unknown.
func (d Dim3) Size() int {
	if d[0] == 0 {
		return 0
	}
	n := 1
	for _, v := range d {
		if v > 0 {
			n *= v
		}
	}
	return n
}

// Known reports whether d holds a shape.
func (d Dim3) Known() bool { return d[0] > 0 }

func (d Dim3) String() string { return fmt.Sprintf("(%d, %d, %d)", d[0], d[1], d[2]) }

// Kernel is one kernel launch, or one aggregate of launches when the export
// aggregates (nvprof --metrics, ncu --print-summary, nsys summaries): then
// Invocations says how many launches it stands for.
type Kernel struct {
	ID          string // launch ID as exported (ncu "ID", nvprof correlation id), else the 0-based ordinal
	Name        string // name as printed
	Demangled   string // demangled form when Name is a mangled symbol, else empty
	Device      string // device name as printed, e.g. "Tesla K20c"; ncu details give only an index
	DeviceIndex int    // -1 when unknown
	CC          string // compute capability "major.minor", empty when unknown
	Process     string // process name or ID, when exported
	PID         string // process ID, when exported apart from the name (ncu)
	Host        string // host name, when exported (ncu)
	Line        int    // line of the launch's first row in its export; 0 when unknown
	Context     string
	Stream      string
	Grid        Dim3
	Block       Dim3
	Invocations int     // launches aggregated into this record; 1 for a single launch
	Start       float64 // seconds since the profiler started; NaN when unknown
	Duration    float64 // seconds; NaN when unknown
	// Launched is when the host's launch call of a traced kernel returned
	// (seconds, Start's clock): work queued before the GPU went idle, or
	// after. NaN when unknown.
	Launched float64
	// OpBytes is what the aten op that launched a traced kernel moves,
	// from the shapes the profiler recorded (record_shapes=True): the
	// bytes its tensor inputs span and the output it writes, estimated
	// (ingest's torch_shapes.go). 0 when unknown.
	OpBytes     float64
	Registers   int     // registers per thread; 0 when unknown
	StaticSMem  float64 // bytes; NaN when unknown
	DynamicSMem float64 // bytes; NaN when unknown

	Metrics  []Metric
	Findings []ToolFinding  // the profiler's own rule results (ncu rule rows)
	Source   []SourceRecord // ncu source page rows for this kernel

	index map[string]int
	like  *MetricIndex // see IndexedLike
}

// MetricIndex is the names of a kernel's metrics, in order, and where
// each is, shared read-only by the kernels whose metrics have the same
// names in the same order (IndexedLike): the launches of an ncu details
// page print the same metric rows, so each need not index its own.
type MetricIndex struct {
	names []string
	index map[string]int
}

// IndexOf returns the index of k's metrics, for kernels read after k;
// nil when their names are not distinct.
func IndexOf(k *Kernel) *MetricIndex {
	x := &MetricIndex{names: make([]string, len(k.Metrics)), index: make(map[string]int, len(k.Metrics))}
	for i, m := range k.Metrics {
		x.names[i] = m.Name
		x.index[m.Name] = i
	}
	if len(x.index) != len(x.names) {
		return nil
	}
	return x
}

// IndexedLike makes k, which has no metrics yet, use x (nil: none) as
// its index for as long as the metrics added to it (AddMetric) have x's
// names in x's order: each is then new to k, and once k has all of them
// x is where Metric looks a name up. A name out of that order gives k an
// index of its own, as without x.
func (k *Kernel) IndexedLike(x *MetricIndex) {
	if len(k.Metrics) == 0 {
		k.like, k.index = x, nil
	}
}

// IndexedBy reports whether x is k's index (IndexedLike): k's metrics
// have x's names, all of them, in x's order.
func (k *Kernel) IndexedBy(x *MetricIndex) bool {
	return x != nil && k.like == x && len(k.Metrics) == len(x.names)
}

// Index returns k's index (IndexedLike) while k's metrics have its names,
// all of them, in its order; nil else.
func (k *Kernel) Index() *MetricIndex {
	if k.IndexedBy(k.like) {
		return k.like
	}
	return nil
}

// Place returns where the metric called name lies among the metrics of
// the kernels x indexes, -1 when they have none of that name.
func (x *MetricIndex) Place(name string) int {
	if i, ok := x.index[name]; ok {
		return i
	}
	return -1
}

// Clone returns a copy of k whose metric, finding and source slices are its
// own.
func (k *Kernel) Clone() *Kernel {
	c := *k
	c.Metrics = append([]Metric(nil), k.Metrics...)
	c.Findings = append([]ToolFinding(nil), k.Findings...)
	c.Source = append([]SourceRecord(nil), k.Source...)
	c.index = nil
	return &c
}

// DisplayName is the demangled name when there is one, else the name.
func (k *Kernel) DisplayName() string {
	if k.Demangled != "" {
		return k.Demangled
	}
	return k.Name
}

// AddMetric appends m. A name seen before with the same value is dropped:
// ncu prints some metrics in several sections. A name seen before with
// another value (ncu's "Memory Throughput" is a percentage in one section and
// bytes per second in another) is kept as "<section>/<name>".
func (k *Kernel) AddMetric(m Metric) {
	if x := k.like; x != nil {
		if k.addLike(x, m) {
			return
		}
		k.like = nil // an index of k's own, made below
	}
	if k.index == nil || len(k.index) != len(k.Metrics) {
		k.index = make(map[string]int, 64+len(k.Metrics))
		for i, x := range k.Metrics {
			k.index[x.Name] = i
		}
	}
	if i, dup := k.index[m.Name]; dup {
		if dropped(k.Metrics[i], m) {
			return
		}
		m.Name = m.Section + "/" + m.Name
		if _, dup := k.index[m.Name]; dup {
			return
		}
	}
	k.index[m.Name] = len(k.Metrics)
	k.Metrics = append(k.Metrics, m)
}

// dropped reports whether AddMetric drops m, whose name old has.
func dropped(old, m Metric) bool {
	return old.Value == m.Value || (math.IsNaN(old.Value) && math.IsNaN(m.Value) && old.Text == m.Text) || old.Section == m.Section
}

// addLike is AddMetric of m to k, whose metrics have x's first names:
// it reports whether they still do once m is added (or dropped), and
// changes nothing when they would not. x's index of those names is k's.
func (k *Kernel) addLike(x *MetricIndex, m Metric) bool {
	n := len(k.Metrics)
	if n >= len(x.names) {
		return false
	}
	next := x.names[n]
	if next == m.Name {
		k.Metrics = append(k.Metrics, m) // new to k: x's names are distinct
		return true
	}
	i, dup := x.index[m.Name]
	if !dup || i >= n {
		return false
	}
	if dropped(k.Metrics[i], m) {
		return true
	}
	// Kept as <section>/<name>, unless that name is k's already.
	if len(next) == len(m.Section)+1+len(m.Name) && strings.HasPrefix(next, m.Section) &&
		next[len(m.Section)] == '/' && strings.HasSuffix(next, m.Name) {
		m.Name = next
		k.Metrics = append(k.Metrics, m)
		return true
	}
	j, dup := x.index[m.Section+"/"+m.Name]
	return dup && j < n
}

// Grow makes room for n more metrics, so that a reader that knows about how
// many a kernel has (the previous launch's count) adds them without
// regrowing the slice and its index.
func (k *Kernel) Grow(n int) {
	if n <= 0 {
		return
	}
	k.Metrics = slices.Grow(k.Metrics, n)
	if k.index == nil && k.like == nil && len(k.Metrics) == 0 {
		k.index = make(map[string]int, n)
	}
}

// SortMetrics orders the metrics by name, for deterministic output.
func (k *Kernel) SortMetrics() {
	sort.SliceStable(k.Metrics, func(i, j int) bool { return k.Metrics[i].Name < k.Metrics[j].Name })
	k.index, k.like = nil, nil
}

// durationMetrics are the names under which an export prints a launch's
// duration, the summaries' first.
var durationMetrics = []string{"duration", "gpu__time_duration.sum", "gpu__time_duration", "Duration"}

// DurationSpread is what an aggregate record (a summary row standing for
// Invocations launches) says of its launches' durations: the shortest and
// longest as the export printed them, and the standard deviation when it
// printed one (NaN otherwise). A single launch's spread is its duration
// and 0; ok is false when the record gives no range.
func (k *Kernel) DurationSpread() (lo, hi, sd float64, ok bool) {
	if k.Invocations <= 1 {
		if math.IsNaN(k.Duration) {
			return math.NaN(), math.NaN(), math.NaN(), false
		}
		return k.Duration, k.Duration, 0, true
	}
	sd = math.NaN()
	if m, found := k.MetricIn("duration_stddev", "s"); found && m.IsNumber() {
		sd = m.Value
	}
	for _, name := range durationMetrics {
		if m, found := k.MetricIn(name, "s"); found && m.HasRange() {
			return m.Min, m.Max, sd, true
		}
	}
	return math.NaN(), math.NaN(), sd, false
}

// MetricIn returns the metric called name whose base unit is unit, looking
// at section-qualified duplicates too.
func (k *Kernel) MetricIn(name, unit string) (Metric, bool) {
	if m, ok := k.Metric(name); ok && m.Unit == unit {
		return m, true
	}
	for _, m := range k.Metrics {
		if m.Unit == unit && strings.HasSuffix(m.Name, "/"+name) {
			return m, true
		}
	}
	return Metric{}, false
}

// Metric returns the metric with the given name.
func (k *Kernel) Metric(name string) (Metric, bool) {
	if x := k.like; x != nil && len(k.Metrics) == len(x.names) {
		i, ok := x.index[name]
		if !ok {
			return Metric{}, false
		}
		if k.Metrics[i].Name == name {
			return k.Metrics[i], true
		}
		k.like = nil // k's metrics were changed: an index of its own
	}
	if k.index == nil || len(k.index) != len(k.Metrics) {
		k.index = make(map[string]int, len(k.Metrics))
		for i, x := range k.Metrics {
			if _, dup := k.index[x.Name]; !dup {
				k.index[x.Name] = i
			}
		}
	}
	i, ok := k.index[name]
	if !ok {
		return Metric{}, false
	}
	return k.Metrics[i], true
}

// Value returns the numeric value of the first of names that the kernel has.
func (k *Kernel) Value(names ...string) (float64, bool) {
	for _, n := range names {
		if m, ok := k.Metric(n); ok && m.IsNumber() {
			return m.Value, true
		}
	}
	return math.NaN(), false
}

// Metric is one measured quantity of a kernel, normalized once at ingest.
//
// Value is in the base unit Unit: seconds "s", bytes "B", bytes per second
// "B/s", hertz "Hz", percent "%", or the counter's own unit ("inst", "sector",
// "cycle", "" for plain numbers). Raw and RawUnit keep what the export printed.
type Metric struct {
	Name    string  // name as exported: raw ncu name, display label, nvprof metric or event name
	Section string  // ncu section, nvprof "metric" or "event"
	Value   float64 // base-unit value; NaN when the export says n/a or the value is text
	Unit    string  // base unit
	Min     float64 // aggregates only (nvprof Min, ncu summary Minimum); NaN otherwise
	Max     float64
	Text    string    // non-numeric value (e.g. "CachePreferNone"), empty otherwise
	Raw     string    // value as printed
	RawUnit string    // unit as printed
	Samples []float64 // instanced values ("32.00; 32.00; 4.00"), base units
}

// IsNumber reports whether the metric holds a numeric value.
func (m Metric) IsNumber() bool { return !math.IsNaN(m.Value) }

// HasRange reports whether Min and Max were exported.
func (m Metric) HasRange() bool { return !math.IsNaN(m.Min) && !math.IsNaN(m.Max) }

// ToolFinding is a rule result that the profiler itself printed (ncu's rule
// rows). profan keeps them apart from its own findings.
type ToolFinding struct {
	Section     string
	Rule        string // e.g. "SOLBottleneck"
	Type        string // OPT, INF, WRN
	Description string
	SpeedupType string  // local, global or empty
	Speedup     float64 // percent; NaN when absent
}

// SourceRecord is one row of ncu's source page: a SASS instruction or a CUDA
// source line with its counters.
type SourceRecord struct {
	File    string // CUDA source file, when the page correlates to source
	Line    int    // CUDA source line; 0 when unknown
	Address string // SASS address, e.g. "0x7f2e3a000070"
	SASS    string // instruction text
	Source  string // CUDA source text of the line
	Counter []Metric
}

// Activity is a memory operation on the device timeline: memcpy, memset or a
// unified-memory event, from a trace export.
type Activity struct {
	Kind        string // "memcpy HtoD", "memcpy DtoH", "memcpy DtoD", "memset", "um ..."
	Name        string // as printed, e.g. "[CUDA memcpy HtoD]"
	Start       float64
	Duration    float64 // seconds; NaN when unknown
	Bytes       float64 // NaN when unknown
	Throughput  float64 // B/s; NaN when unknown
	SrcMemType  string  // Pageable, Pinned, Device, ...
	DstMemType  string
	Device      string
	Stream      string
	Correlation string
	Invocations int // calls aggregated (summaries); 1 for a trace row
}

// APICall is one row of a host API summary (nvprof "API calls", nsys
// cuda_api_sum and osrt_sum), or the calls of one name summed from a
// host trace.
type APICall struct {
	Name  string
	Calls int
	Total float64 // seconds
	Avg   float64
	Min   float64
	Max   float64
	// OS marks an OS runtime call (nsys osrt_sum: poll, ioctl,
	// pthread_cond_wait ...), not a CUDA API call.
	OS bool
}

// Host is the host side of a timeline trace (a PyTorch profiler trace):
// where the host's events start and end, on the clock of the GPU records,
// and the events kept one by one. Every CUDA runtime and driver call is
// also summed by name into Run.APICalls; the one-by-one records are the
// calls that can hold the GPU idle (synchronisations, copies, memsets)
// and the user annotations, bounded by MaxHostEvents.
type Host struct {
	Start, End float64 // seconds; the first host event's start, the last one's end
	Events     []*HostEvent
	// Folded counts the events past MaxHostEvents: summed in APICalls,
	// not kept one by one (said in a note, never silently).
	Folded    int
	Ops       int // aten (cpu_op) events read
	Frames    int // Python frames read (with_stack=True)
	Launches  int // kernel launch calls read
	Flows     int // launch-to-kernel flow events read
	Rank      int // distributedInfo's rank; -1 when not distributed
	WorldSize int
	// Spans are what the threads that launch GPU work were doing, in
	// time order and not overlapping (of two threads at once, the
	// higher-ranked state: see HostState), up to MaxHostSpans; SpanNames
	// holds their names (Span.Name indexes it). SpansFolded counts the
	// spans past the bound (said in a note). Empty when the trace has no
	// CPU-side events.
	Spans       []HostSpan
	SpanNames   []string
	SpansFolded int
	// LoaderNumeric counts the calls into numerical libraries' Python
	// (numpy, scipy: their frames, with_stack=True) that begin inside
	// the spans of DataLoader iterators: loading work a worker process
	// runs with the library's own thread pool.
	LoaderNumeric int
	// PyCall is the median time the profiler recorded for a short call
	// from Python into C (a built-in function or method under 2 µs:
	// list.append, str.strip, zlib.crc32), seconds: what its own work
	// takes unprofiled is a few tens of nanoseconds, so the record is
	// nearly all the profiler's cost of one Python call, measured at the
	// trace's own host speed under the profiler. 0 where the trace has
	// no such record (no with_stack, or nsys).
	PyCall float64
	// ConvBenchmark and ConvHeuristic count the aten::_convolution calls
	// recorded with torch.backends.cudnn.benchmark on and off (its
	// benchmark argument, in the "Concrete Inputs" record_shapes writes).
	ConvBenchmark, ConvHeuristic int
	// Conv2D and Conv3D count the aten::conv2d and aten::conv3d calls
	// (their transposed forms too): a 3-D convolution's 5-D tensors take
	// torch.channels_last_3d, and PyTorch refuses torch.channels_last
	// on them.
	Conv2D, Conv3D int
}

// MaxHostSpans bounds Host.Spans: 24 bytes each.
const MaxHostSpans = 1 << 18

// HostSpan is a stretch of time the launching threads spent in one state
// (a HostState), under one name: the op behind a sync, the innermost
// frame of the user's Python, the aten op being dispatched.
type HostSpan struct {
	Start float64 // seconds, on the clock of the GPU records
	Dur   float32 // seconds
	State HostState
	// Native is the share of a DataLoader iterator's span, in 255ths,
	// inside calls from Python into C of 2 µs or more under which the
	// profiler recorded nothing (a regex's substitution, a decode): the
	// library's own work, which no hook of the profiler slows. Zero on
	// other spans and where the trace does not say (nsys, no with_stack).
	Native uint8
	// Ops and Frames count the profiler's records that begin inside the
	// span on its thread (aten ops, and Python calls under with_stack),
	// each of which the profiler slowed the host by recording; up to
	// 65535 each. Zero where the trace does not say (nsys).
	Ops, Frames uint16
	// Cast is the time, in CastTicks (saturating), of the dtype casts
	// (aten::_to_copy) that begin inside a dispatch span of another op:
	// autocast's casts of an eligible op's inputs and weights, and
	// autograd's casts of their gradients back (ToCopyBackward0). Zero
	// where the trace does not say (nsys).
	Cast uint16
	Name int32 // index in Host.SpanNames; -1 for none
}

// CastTick is HostSpan.Cast's unit, seconds.
const CastTick = 0.25e-6

// CastTime is the span's time inside casts, seconds.
func (s HostSpan) CastTime() float64 { return float64(s.Cast) * CastTick }

// NativeTime is the span's time inside native calls (Native), seconds.
func (s HostSpan) NativeTime() float64 { return float64(s.Native) / 255 * float64(s.Dur) }

// End is the span's end, seconds.
func (s HostSpan) End() float64 { return s.Start + float64(s.Dur) }

// HostState is what a launching thread was doing, by rank: a thread in
// two at once (a sync inside an aten op inside a DataLoader's iterator)
// is in the higher one.
type HostState uint8

// The host states, lowest rank first.
const (
	HostNone     HostState = iota // nothing recorded
	HostPython                    // the user's Python (a frame of the user's code, with_stack)
	HostDispatch                  // inside an aten op: dispatching and launching its kernels
	HostData                      // inside a DataLoader iterator's __next__ (loading, collating, pinning)
	HostAlloc                     // inside cudaMalloc or cudaFree (the caching allocator growing)
	HostCopy                      // inside a copy or memset call
	HostSync                      // inside a synchronising call: waiting for the GPU
)

// MaxHostEvents bounds the host events a reader keeps one by one.
const MaxHostEvents = 1 << 18

// Host event kinds.
const (
	HostRuntime    = "cuda_runtime"
	HostDriver     = "cuda_driver"
	HostAnnotation = "user_annotation"
	// HostFrame is a Python frame kept whole: PyTorch's optimizer
	// implementations (OptimizerFrame), which the replay prices a fused
	// optimizer by, and each call of a forward method of the user's
	// code ("model.py(80): forward"), which tells a loop from calls;
	// and GradScaler's read of found_inf (ScalerFrame), which a fused
	// optimizer's step does without.
	HostFrame = "python_function"
)

// What a Python frame of PyTorch's optimizers is (OptimizerFrame).
const (
	OptimizerNone   = iota
	OptimizerUpdate // _single_tensor_adam, _multi_tensor_sgd ...: the update a fused step replaces (and the choice of it)
	OptimizerGroup  // _group_tensors_by_device_and_dtype: the grouping a fused step still does
)

// OptimizerFrame says what a Python frame ("torch/optim/adam.py(554):
// _multi_tensor_adam") is of PyTorch's optimizer step: the for-loop or
// foreach update (torch.optim's _single_tensor_<name> and
// _multi_tensor_<name>), which fused=True replaces with _fused_<name>,
// and the default's choice between them (_default_to_fused_or_foreach,
// which an optimizer told fused=True skips); the grouping of the tensor lists by device and dtype, which the fused
// step does too; or neither. The rest of Optimizer.step (its wrapper,
// _init_group's loop over the parameters and their state) the fused
// step runs as the foreach one does.
func OptimizerFrame(name string) int {
	file, rest, ok := strings.Cut(name, ".py(")
	if !ok || !strings.Contains(file, "torch/optim/") {
		return OptimizerNone
	}
	_, fn, _ := strings.Cut(rest, "): ")
	switch {
	case strings.HasPrefix(fn, "_single_tensor_"), strings.HasPrefix(fn, "_multi_tensor_"), fn == "_default_to_fused_or_foreach":
		return OptimizerUpdate
	case fn == "_group_tensors_by_device_and_dtype":
		return OptimizerGroup
	}
	return OptimizerNone
}

// ScalerFrame reports torch.amp's GradScaler frame that reads found_inf
// on the host before it steps the optimizer ("torch/amp/grad_scaler.py(363):
// _maybe_opt_step": sum(v.item() for v in found_inf_per_device)). An
// optimizer whose step takes the scaler (fused=True: PyTorch's
// _step_supports_amp_scaling) is handed found_inf on the device and
// stepped without it.
func ScalerFrame(name string) bool {
	file, rest, ok := strings.Cut(name, ".py(")
	return ok && strings.HasSuffix(file, "amp/grad_scaler") && strings.HasSuffix(rest, "): _maybe_opt_step")
}

// What a Python frame of a DataLoader's pin-memory thread is (PinFrame).
const (
	PinNone   = iota
	PinStep   // torch/utils/data/_utils/pin_memory.py's do_one_step: one batch received from a worker and pinned
	PinArrive // multiprocessing/connection.py's poll: waiting for a batch to arrive
	PinWait   // a blocking socket read (read, recvmsg): waiting for a worker's answer
)

// PinFrame says what a Python frame is of the work a multi-process
// DataLoader's pin-memory thread does for each batch: the batch's step
// (do_one_step), the wait for a batch to arrive (the queue's poll), a
// blocking read of a worker's answer (the tensors' storages come over
// the worker's resource sharer, a socket handshake each); or none. The
// reader keeps these frames whole only inside a do_one_step.
func PinFrame(name string) int {
	switch {
	case strings.HasSuffix(name, "): do_one_step") && strings.Contains(name, "torch/utils/data/_utils/pin_memory.py("):
		return PinStep
	case strings.HasPrefix(name, "multiprocessing/connection.py(") && strings.HasSuffix(name, "): poll"):
		return PinArrive
	case name == "<built-in function read>", strings.HasPrefix(name, "<built-in method recvmsg of socket object"):
		return PinWait
	}
	return PinNone
}

// LoaderWait reports a Python frame in which a multi-process
// DataLoader's iterator blocks for a batch that has not arrived: the
// workers' pipe's poll (multiprocessing/connection.py's poll, in the
// queue's get) or, pinned, the pin-memory thread's queue's condition
// (threading.py's wait, in queue.py's get). The rest of the iterator's
// get is the batch's transfer (its bytes read, its tensors rebuilt from
// the workers' shared memory): the main thread's own work, which the
// workers' pace does not set. The reader keeps these frames whole
// inside the iterator's __next__.
func LoaderWait(name string) bool {
	switch {
	case strings.HasPrefix(name, "multiprocessing/connection.py(") && strings.HasSuffix(name, "): poll"):
	case strings.HasPrefix(name, "threading.py(") && strings.HasSuffix(name, "): wait"):
	default:
		return false
	}
	return true
}

// ForwardFrame reports a Python frame that is a forward method
// ("model.py(80): forward"): a module's call, which torch.compile
// traces into its graph and which a model enters once per layer.
func ForwardFrame(name string) bool {
	return strings.HasSuffix(name, "): forward")
}

// HostEvent is one host-side call or range on a timeline.
type HostEvent struct {
	Kind  string // HostRuntime, HostDriver or HostAnnotation
	Name  string // e.g. "cudaStreamSynchronize", "ProfilerStep#3"
	Op    string // the innermost aten op around the call, when the trace has ops
	Frame string // the innermost Python frame around it (with_stack=True)
	// Method is the Tensor method or torch function the user's code
	// called around it, when the trace has the stack and it is one that
	// reads the GPU or copies ("tolist", "item", "bincount", "to",
	// "torch.cuda.synchronize").
	Method      string
	Start       float64
	Duration    float64 // seconds
	Thread      string
	Correlation string // ties a call to the GPU work it issued
}

// Site names a host call by what the user's code did: the method
// (".tolist()"), the aten op, the call and the frame, those known.
func (h *HostEvent) Site() string {
	var b strings.Builder
	switch {
	case h.Method == "":
	case strings.Contains(h.Method, "."):
		b.WriteString(h.Method + "() → ")
	default:
		b.WriteString("." + h.Method + "() → ")
	}
	if h.Op != "" {
		b.WriteString(h.Op + " → ")
	}
	b.WriteString(h.Name)
	if h.Frame != "" {
		b.WriteString(" at " + h.Frame)
	}
	return b.String()
}

// Host call classes: what a CUDA runtime or driver call does to the
// timeline.
const (
	CallLaunch = "launch" // issues a kernel (or a graph)
	CallSync   = "sync"   // blocks the host until the GPU is done
	CallCopy   = "copy"   // issues a memcpy (a synchronous one blocks, too)
	CallSet    = "memset"
	CallAlloc  = "alloc" // device memory allocated or freed (cudaMalloc, cudaFree)
	CallOther  = "other"
)

// CallClass classifies a CUDA runtime or driver call by its name.
func CallClass(name string) string {
	switch {
	case strings.Contains(name, "LaunchKernel"), strings.Contains(name, "LaunchCooperativeKernel"), strings.HasPrefix(name, "cudaGraphLaunch"), strings.HasPrefix(name, "cuGraphLaunch"):
		return CallLaunch
	case strings.Contains(name, "Synchronize"):
		return CallSync
	case strings.Contains(name, "Memcpy"):
		return CallCopy
	case strings.Contains(name, "Memset"):
		return CallSet
	case strings.HasPrefix(name, "cudaMalloc"), strings.HasPrefix(name, "cudaFree"), strings.HasPrefix(name, "cuMemAlloc"), strings.HasPrefix(name, "cuMemFree"):
		return CallAlloc
	}
	return CallOther
}

// SyncCopy reports whether a copy call blocks the host: cudaMemcpy,
// cudaMemcpy2D, cuMemcpyDtoH ..., not the Async ones.
func SyncCopy(name string) bool {
	return CallClass(name) == CallCopy && !strings.Contains(name, "Async")
}

// Level ranks a message.
type Level string

// The levels of a message.
const (
	LevelInfo    Level = "info"    // the profiler's notice
	LevelWarning Level = "warning" // the profiler's, or a page profan could not place
	LevelError   Level = "error"   // the profiler's error: the export may lack data
	LevelNote    Level = "note"    // how profan read a value (a decimal comma, an infinity)
	LevelOutput  Level = "output"  // a line of the application's own output
)

// Message is a line the profiler printed about itself.
type Message struct {
	Line  int    `json:"line"`
	Level Level  `json:"level"`
	Text  string `json:"text"`
}

// Errors returns the error messages of r.
func (r *Run) Errors() []Message {
	var out []Message
	for _, m := range r.Messages {
		if m.Level == LevelError {
			out = append(out, m)
		}
	}
	return out
}

// CheckValid reports the first internal inconsistency of r. Importers call it
// after parsing so that consumers can rely on its invariants.
func (r *Run) CheckValid() error {
	if r.Tool != ToolNCU && r.Tool != ToolNvprof && r.Tool != ToolNsys && r.Tool != ToolTorch {
		return fmt.Errorf("run: unknown tool %q", r.Tool)
	}
	for i, k := range r.Kernels {
		if err := k.CheckValid(); err != nil {
			return fmt.Errorf("kernel %d: %w", i, err)
		}
	}
	return nil
}

// CheckValid reports the first internal inconsistency of k.
func (k *Kernel) CheckValid() error {
	if k.Name == "" {
		return fmt.Errorf("kernel %s has no name", k.ID)
	}
	if k.Invocations < 1 {
		return fmt.Errorf("kernel %q: invocations %d < 1", k.Name, k.Invocations)
	}
	if !math.IsNaN(k.Duration) && k.Duration < 0 {
		return fmt.Errorf("kernel %q: negative duration", k.Name)
	}
	for _, m := range k.Metrics {
		if m.Name == "" {
			return fmt.Errorf("kernel %q: metric without a name", k.Name)
		}
		if math.IsInf(m.Value, 0) {
			return fmt.Errorf("kernel %q: metric %s is infinite", k.Name, m.Name)
		}
	}
	return nil
}

// NewKernel returns a kernel with the unknown fields set to their sentinels.
func NewKernel() *Kernel {
	nan := math.NaN()
	return &Kernel{DeviceIndex: -1, Invocations: 1, Start: nan, Duration: nan, Launched: nan, StaticSMem: nan, DynamicSMem: nan}
}

// NewMetric returns a metric with no value and no range.
func NewMetric(name string) Metric {
	nan := math.NaN()
	return Metric{Name: name, Value: nan, Min: nan, Max: nan}
}

// String renders r deterministically; golden tests pin it.
func (r *Run) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "run tool=%s format=%s version=%q kernels=%d activities=%d api=%d messages=%d\n",
		r.Tool, r.Format, r.ToolVersion, len(r.Kernels), len(r.Activities), len(r.APICalls), len(r.Messages))
	for _, m := range r.Messages {
		fmt.Fprintf(&b, "message %d %s: %s\n", m.Line, m.Level, m.Text)
	}
	for _, k := range r.Kernels {
		b.WriteString(k.String())
	}
	for _, a := range r.Activities {
		fmt.Fprintf(&b, "activity %q kind=%q start=%s dur=%s bytes=%s thru=%s src=%q dst=%q dev=%q stream=%q corr=%q n=%d\n",
			a.Name, a.Kind, num(a.Start), num(a.Duration), num(a.Bytes), num(a.Throughput), a.SrcMemType, a.DstMemType,
			a.Device, a.Stream, a.Correlation, a.Invocations)
	}
	for _, c := range r.APICalls {
		os := ""
		if c.OS {
			os = " os"
		}
		fmt.Fprintf(&b, "api %q calls=%d total=%s avg=%s min=%s max=%s%s\n", c.Name, c.Calls, num(c.Total), num(c.Avg), num(c.Min), num(c.Max), os)
	}
	return b.String()
}

// String renders k deterministically, metrics sorted by name.
func (k *Kernel) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel id=%s name=%q", k.ID, k.Name)
	if k.Demangled != "" {
		fmt.Fprintf(&b, " demangled=%q", k.Demangled)
	}
	fmt.Fprintf(&b, " device=%q dev=%d cc=%q proc=%q ctx=%q stream=%q grid=%v block=%v n=%d start=%s dur=%s regs=%d smem=%s/%s\n",
		k.Device, k.DeviceIndex, k.CC, k.Process, k.Context, k.Stream, k.Grid, k.Block, k.Invocations,
		num(k.Start), num(k.Duration), k.Registers, num(k.StaticSMem), num(k.DynamicSMem))
	ms := append([]Metric(nil), k.Metrics...)
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Name != ms[j].Name {
			return ms[i].Name < ms[j].Name
		}
		return ms[i].Section < ms[j].Section
	})
	for _, m := range ms {
		fmt.Fprintf(&b, "  metric %q [%s] = %s %s", m.Name, m.Section, num(m.Value), m.Unit)
		if m.HasRange() {
			fmt.Fprintf(&b, " min=%s max=%s", num(m.Min), num(m.Max))
		}
		if m.Text != "" {
			fmt.Fprintf(&b, " text=%q", m.Text)
		}
		if len(m.Samples) > 0 {
			fmt.Fprintf(&b, " samples=%d", len(m.Samples))
		}
		fmt.Fprintf(&b, " (raw %q %q)\n", m.Raw, m.RawUnit)
	}
	for _, f := range k.Findings {
		fmt.Fprintf(&b, "  ncu-rule %s/%s %s speedup=%s %s: %q\n", f.Section, f.Rule, f.Type, num(f.Speedup), f.SpeedupType, f.Description)
	}
	for _, s := range k.Source {
		fmt.Fprintf(&b, "  source %s:%d %s %q %q", s.File, s.Line, s.Address, s.SASS, s.Source)
		for _, c := range s.Counter {
			fmt.Fprintf(&b, " %s=%s", c.Name, num(c.Value))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// num formats v compactly and deterministically; NaN prints as "-".
func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Severity ranks findings.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "info"
}

// Finding is one piece of advice profan's rule engine gives about a kernel.
type Finding struct {
	Rule      string     // stable kebab-case rule ID, e.g. "uncoalesced-global"
	Severity  Severity   //
	Kernel    string     // kernel ID the finding is about
	Message   string     // what was measured, with the numbers
	Advice    string     // what to change
	Gain      float64    // estimated speedup of the kernel as a fraction of its time (0.25 = 25 % faster); NaN when unknown
	Evidence  []string   // canonical metrics the rule read, "name=value"
	Locations []Location // source lines, when the export has the source page
}

// CompareGains orders estimated gains largest first, unknown (NaN) ones
// last: -1 when a goes first, 1 when b does, 0 when they tie.
func CompareGains(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b), a == b:
		return 0
	case math.IsNaN(a):
		return 1
	case math.IsNaN(b), a > b:
		return -1
	}
	return 1
}

// Location is a place in the kernel's source.
type Location struct {
	File string
	Line int
	SASS string
}
