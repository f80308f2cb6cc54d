package verdict

import (
	"slices"

	"github.com/profan-dev/profan/internal/stats"
)

// Idle causes: why the GPU waited.
const (
	IdleLaunch   = "launch"   // short gaps between launches: the host cannot keep up
	IdleQueued   = "queued"   // the next work was queued before the GPU went idle: the GPU's own gap between kernels (a CUDA graph's, a stream wait)
	IdleSync     = "sync"     // the host was inside a synchronising call, waiting for the GPU, with nothing queued
	IdleCopy     = "copy"     // the host was busy with a copy call (pageable staging, a synchronous copy)
	IdleLeading  = "leading"  // host time before the first GPU work
	IdleTrailing = "trailing" // host time after the last GPU work
	IdleOther    = "other"    // longer gaps no host call explains (host work between steps)
	// From the host's spans (a PyTorch trace's CPU side): what the
	// threads that launch GPU work were doing in the gap.
	IdleData   = "data"   // in a DataLoader iterator: loading, collating, pinning the next batch
	IdlePython = "python" // in the user's Python (named by frame), outside any aten op
	IdleAlloc  = "alloc"  // in cudaMalloc or cudaFree
	// IdleOpHost is host work inside one aten op's own span, outside any
	// runtime call, too long for its launches to explain (a library
	// building a plan for a new shape): the op's, not launch overhead.
	IdleOpHost = "op-host"
)

// IdleLabel names an idle cause for people.
func IdleLabel(cause string) string {
	switch cause {
	case IdleLaunch:
		return "launch-bound"
	case IdleSync:
		return "host sync"
	case IdleCopy:
		return "copy calls"
	case IdleQueued:
		return "queued (GPU gaps)"
	case IdleLeading:
		return "before first GPU work"
	case IdleTrailing:
		return "after last GPU work"
	case IdleData:
		return "data loading"
	case IdlePython:
		return "other Python"
	case IdleAlloc:
		return "allocator"
	case IdleOpHost:
		return "op host work"
	}
	return "other host work"
}

// IdleCauses lists the causes in the order outputs print them.
var IdleCauses = []string{IdleData, IdleSync, IdleLaunch, IdleOpHost, IdlePython, IdleCopy, IdleAlloc, IdleQueued, IdleLeading, IdleTrailing, IdleOther}

// Timeline is where the wall clock of a trace goes: for the busiest
// device (the top-level figures) and for each device and stream.
type Timeline struct {
	Device string  // the device of the top-level figures
	Start  float64 // seconds on the export's clock
	// Span is the wall time from the first start to the last end, of the
	// GPU work and, when the export has a host side, of the host events.
	Span      float64
	Busy      float64 // union of kernel, copy and memset intervals
	BusyShare float64 // Busy / Span
	// Idle is Span - Busy split by cause, in IdleCauses' order, causes
	// with no time left out.
	Idle []Idle
	// Overlap is the time copies and kernels run together; CopyExposed
	// the copy time no kernel runs beside (on the critical path).
	Overlap     float64
	CopyExposed float64
	LaunchCount int // kernel launches on the timeline
	// StepCount is the steps the span holds: the trace's ProfilerStep#N
	// marks; 0 when it marks none. Gains are then said per step.
	StepCount int
	// StepWalls are each marked step's wall (its ProfilerStep#N span on
	// the host), in order, where the export holds them (a run stored
	// before migration 0016 kept their median only); what a diff tests
	// the wall with.
	StepWalls []float64
	// StepBusy is the GPU's busy share of each of those steps' walls.
	StepBusy []float64
	// StepWall is the wall per step a stored run kept (WallPerStep when
	// it was stored); 0 else.
	StepWall float64
	Copies   int
	Sets     int
	// HostLaunch is the host's cost of a launch, measured from the
	// launch calls' durations when the export has them.
	HostLaunch HostLaunch
	Devices    []*DeviceTimeline
	Notes      []string
	// Steps replays the profiled steps, for pricing levers (Replay);
	// nil when the trace has no host spans to replay.
	Steps Steps `json:"-"`
}

// Steps is the graph of a trace's profiled steps that the analysis
// replays (docs/replay.md).
type Steps interface {
	// Replay replays the steps with lever l applied.
	Replay(l Lever) Replayed
	// SyncSites lists the syncs inside the replayed steps, the longest
	// first.
	SyncSites() []Site
	// AllocSites lists the allocator's calls (cudaMalloc, cudaFree)
	// inside the replayed steps, the longest first.
	AllocSites() []Site
	// Shapes compares the kernels' launch configurations from one
	// replayed step to the next.
	Shapes() Shapes
	// DataTime is the host's time per step in DataLoader iterators on
	// the launching threads, scaled to an unprofiled host as the replay
	// scales it.
	DataTime() float64
	// Regions sums the host's annotated ranges whose name begins with
	// prefix, inside the replayed steps.
	Regions(prefix string) []Region
	// Loops sums, by user frame, each replayed step's stretch from the
	// frame's first Python span to its last (a loop on that line),
	// outside annotated ranges.
	Loops() []Region
	// Looped finds, in each replayed step, a call of a frame call holds
	// (a model's forward) inside which syncs recur (a read in a loop):
	// the kernels issued, by name, from the first sync inside that call
	// to the step's end, and the site that recurs ("" for none).
	Looped(call func(frame string) bool) (map[string]int, string)
	// Compiled is, by name, the share of the kernels that torch.compile
	// of the calls a frame call holds compiles: those issued inside a
	// call and, on a training step, by autograd's backward, up to a break
	// in a loop (Looped), none in an optimizer's step; nil where no call
	// is held, or where a matrix product (product, by kernel name) runs
	// outside the calls, the backward and the optimizer.
	Compiled(call func(frame string) bool, product func(name string) bool) map[string]float64
}

// Shapes is how the kernels' launch configurations (grid and block)
// change from one replayed step to the next: a step whose tensors change
// shape launches the same kernels on other grids, which a CUDA graph
// captured on one step does not replay on the next.
type Shapes struct {
	Steps   int // the steps compared
	Differ  int // of the steps after the first, those whose configurations differ from the step before's
	Kernels int // the kernels launched in every step
	Changed int // of them, those whose configurations differ from one step to the next
	// Kernel is the one whose configurations change in the most steps
	// (one a step, and the most launched, first), Op the aten op that
	// launched it ("" where unknown), and Configs its grids in each
	// step, "(1, 4, 32)" (with the block where that changes too).
	Kernel, Op string
	Configs    []string
	// Sizes reports a comparison by the ops' recorded shapes as well
	// as the grids (record_shapes: what each launch's op moves), which
	// found more steps changed than the grids alone; Configs then gives
	// each grid with its op's bytes, "(1, 620, 1) at 4.79 MB".
	Sizes bool
	// Kernels' time a step, seconds, as traced and padded to the
	// largest size each shows in the steps compared (Lever.Pad).
	Busy, Padded float64
	// Inputs counts, where every step copies the same number of host
	// tensors to the device (Copies), those whose bytes change from
	// step to step: the batch comes in at another size each step (a
	// collate that pads each batch to its longest), and the shapes
	// after follow it; 0 where none does (the shapes change inside the
	// step, from an op of its own). Input is the frame of the largest
	// such copy's call and InputBytes its bytes in each step.
	Inputs, Copies int
	Input          string
	InputBytes     []float64
}

// Region is what the ranges of one user annotation on the launching
// threads held over the replayed steps (PyTorch's
// Optimizer.step#Adam.step): the kernels issued inside them, the aten ops
// and the user's frame around them.
type Region struct {
	Name  string // the annotation: "Optimizer.step#Adam.step"
	Count int    // its ranges
	Host  float64
	// Update is the part of Host inside PyTorch's optimizer update
	// (profan.OptimizerFrame), what a fused step replaces; 0 where the
	// trace holds no such frame (no with_stack).
	Update   float64
	Launches int            // kernels issued inside the ranges
	Kernel   float64        // those kernels' time, seconds
	Kernels  map[string]int // those launches by kernel name
	Ops      map[string]int // the aten ops dispatched inside, by name (outermost)
	// Frame is the user's frame the ranges spent the most Python time
	// under ("train.py(40): step", the line that calls opt.step()).
	Frame string
	// Items counts, for a loop (Steps.Loops), the Python spans in its
	// frame: about one an iteration.
	Items int
	// Entries counts, for a loop, the frame's entries: its runs of
	// Python spans that no other frame's Python span breaks (the ops it
	// calls, their copies and syncs inside one run). A function entered
	// once a step that makes several reads is one entry (fixtures/
	// host32's fs2_loss, nine masked_selects); a loop over a batch's
	// items enters it once an item (host18's post_image, 8 a step).
	Entries int
	// Layers counts, for a loop, the calls of the user's forward
	// methods made inside its stretches between the frame's entries,
	// none of them inside one: the model's layers run between two
	// entries (a function the forward calls before some of its blocks),
	// where a loop over a batch's items enters the frame back to back.
	Layers int
}

// Replay prices lever by replaying the step; ok is false when the trace
// holds no host spans to replay (no CPU side, or past the bounds).
func (t *Timeline) Replay(l Lever) (Replayed, bool) {
	if t == nil || t.Steps == nil {
		return Replayed{}, false
	}
	return t.Steps.Replay(l), true
}

// SyncSites lists the syncs inside the replayed steps, the longest first;
// nil without a replay.
func (t *Timeline) SyncSites() []Site {
	if t == nil || t.Steps == nil {
		return nil
	}
	return t.Steps.SyncSites()
}

// Shapes compares the kernels' launch configurations from one replayed
// step to the next; the zero Shapes without a replay.
func (t *Timeline) Shapes() Shapes {
	if t == nil || t.Steps == nil {
		return Shapes{}
	}
	return t.Steps.Shapes()
}

// AllocSites lists the allocator's calls (cudaMalloc, cudaFree) inside
// the replayed steps, the longest first; nil without a replay.
func (t *Timeline) AllocSites() []Site {
	if t == nil || t.Steps == nil {
		return nil
	}
	return t.Steps.AllocSites()
}

// Regions sums the annotated ranges named prefix… inside the replayed
// steps (Steps.Regions); nil without a replay.
func (t *Timeline) Regions(prefix string) []Region {
	if t == nil || t.Steps == nil {
		return nil
	}
	return t.Steps.Regions(prefix)
}

// Loops is Steps.Loops; nil without a replay.
func (t *Timeline) Loops() []Region {
	if t == nil || t.Steps == nil {
		return nil
	}
	return t.Steps.Loops()
}

// Looped is Steps.Looped; nil and "" without a replay.
func (t *Timeline) Looped(call func(frame string) bool) (map[string]int, string) {
	if t == nil || t.Steps == nil {
		return nil, ""
	}
	return t.Steps.Looped(call)
}

// Compiled is Steps.Compiled; nil without a replay.
func (t *Timeline) Compiled(call func(frame string) bool, product func(name string) bool) map[string]float64 {
	if t == nil || t.Steps == nil {
		return nil
	}
	return t.Steps.Compiled(call, product)
}

// DataTime is the host's time per step in DataLoader iterators on the
// launching threads, over the replayed steps; 0 without a replay.
func (t *Timeline) DataTime() float64 {
	if t == nil || t.Steps == nil {
		return 0
	}
	return t.Steps.DataTime()
}

// HostLaunch is what the kernel launch calls cost the host (graph
// launches apart: one issues a whole graph).
type HostLaunch struct {
	Calls int
	Total float64 // seconds
	Mean  float64 // seconds per call; NaN when the export has no launch calls
	Names []string
	// Graphs counts the graph launch calls (cudaGraphLaunch), GraphTotal
	// their host time.
	Graphs     int
	GraphTotal float64
}

// Idle is the idle time of one cause.
type Idle struct {
	Cause   string
	Seconds float64
	Share   float64 // of the span
	Gaps    int
	// Calls are the host calls behind the gaps, most idle time first:
	// the synchronising call with the aten op and Python frame around
	// it, the copy call, the launch calls.
	Calls []IdleCall
}

// IdleCall is a host call behind idle time.
type IdleCall struct {
	Name    string
	Op      string // aten op around the call, when the trace has ops
	Frame   string // Python frame around it, when the trace has the stack
	Method  string // the Tensor method the user called ("tolist", "item"), when the trace has the stack
	Count   int
	Seconds float64 // the idle time attributed to it
}

// DeviceTimeline is the timeline of one device.
type DeviceTimeline struct {
	Device    string
	Start     float64
	Span      float64
	Busy      float64
	BusyShare float64
	Idle      []Idle
	// Overlap and CopyExposed as on Timeline.
	Overlap     float64
	CopyExposed float64
	Kernels     int
	Copies      int
	Sets        int
	Streams     []*StreamTimeline
	// Strip is the device's time line as segments (busy, or idle with its
	// cause), at most maxStrip of them: neighbours are merged into their
	// larger part beyond that.
	Strip []Segment
}

// StreamTimeline is one stream of a device.
type StreamTimeline struct {
	Stream    string
	Start     float64
	Span      float64 // its first start to its last end
	Busy      float64
	BusyShare float64 // of the device's span
	Kernels   int
	Copies    int
	Sets      int
	Strip     []Segment // busy segments, bounded like the device's
}

// Segment is a stretch of a strip: busy, or idle with its cause.
type Segment struct {
	Start, End float64
	State      string // "busy" or an idle cause
}

// IdleOf returns the idle time of cause (zero when none).
func (t *Timeline) IdleOf(cause string) Idle {
	for _, i := range t.Idle {
		if i.Cause == cause {
			return i
		}
	}
	return Idle{Cause: cause}
}

// Lever is a change to the step, as the replay applies it.
type Lever struct {
	// Kernel is the share of a kernel's time left by its name (nil: all
	// of it): a kernel-side lever.
	Kernel func(name string) float64
	// Host is the host time the op that launches a kernel adds under
	// the lever, by the kernel's name, in launches' worth (the trace's
	// host time of an aten op that issues one kernel; nil or 0: none):
	// a precision change swaps the library's engine and its host work
	// (cuDNN's TF32 convolutions on NCHW tensors launch layout
	// transforms around the implicit GEMM). Charged once per op.
	Host func(name string) float64
	// Casts is the dtype casts the op that launches a kernel adds per
	// call under the lever, by the kernel's name (nil or 0: none):
	// autocast's casts of an eligible op's FP32 inputs and weights
	// (aten::_to_copy), and in a training step autograd's casts of
	// their gradients back (ToCopyBackward0). Each costs the host a
	// cast as the replay prices a traced one (docs/replay.md). Charged
	// once per op, as Host.
	Casts func(name string) float64
	// Dispatch is the share of the host's time in aten ops left (0 is
	// read as 1): fusing removes launches.
	Dispatch float64
	// Fewer is the share of a kernel's launches a fusion removes, by
	// its name (nil: none): each removed launch takes a launch's worth
	// off the host time of the op that issued it (never below zero).
	Fewer func(name string) float64
	// More is the launches a fusion adds, by kernel name, for each
	// launch of it (nil: none): inductor's split reductions, a weight's
	// or bias's gradient sum in the backward two or more kernels where
	// eager runs one; each costs the host a launch's worth unprofiled
	// where the kernel issues (the compiled code's Python launching a
	// Triton kernel).
	More func(name string) float64
	// Kept is the share of a kernel's launches a fusion keeps, by its
	// name, as the compiled code's launches (nil: none): a fused chain's
	// one kernel, a group norm's pass. The op that issued it no longer
	// dispatches (its host time goes, as for Fewer's), and the launch
	// costs the host Launcher launches' worth unprofiled (the compiled
	// code's Python launcher and its cuLaunchKernel).
	Kept func(name string) float64
	// Launcher is the host time of a launch Kept keeps or More adds,
	// in launches' worth (0 is read as 1).
	Launcher float64
	// Backward, on a training step (the trace holds autograd's
	// backward), is Launcher for the launches Kept keeps or More adds
	// in the backward pass (inside an autograd node's span, but a
	// gradient's accumulation), and keeps the forward's Python: the
	// compiled forward's own Python (Dynamo's guards, AOTAutograd's
	// runtime wrapper, the generated code's allocations, views and
	// launcher calls) takes the place of the eager forward's, so Forward
	// takes nothing off it, while the forward's fused ops' dispatch goes
	// and its kept launches cost Launcher each, as on an inference step:
	// what the compiled forward saves follows the op mix (profiled, the
	// main thread from the forward's first op to the backward's: a
	// forward of convolutions and GEMMs, whose launches stay, kept its
	// host, fixtures/host24c's ddpm 17.26 against 17.91 ms a step eager,
	// nerf 5.46 against 5.79; host25c's Llama of small eager ops lost
	// half of it, 6.21 against 13.45). 0: the forward's Python goes too.
	Backward float64
	// Collapse replaces the work of an annotated range (a per-parameter
	// optimizer step) with a few multi-tensor launches; nil: none.
	Collapse *Collapse
	// Forward compiles the model's forward (torch.compile(model)): the
	// user's Python in its forward methods (a span whose innermost user
	// frame is a forward) is traced once into the compiled graph, and
	// replayed takes no time.
	Forward bool
	// Graphs replays the step's launches from a CUDA graph: the host's
	// aten ops, the user's Python and the allocator's calls (a graph's
	// memory pool is its own) cost nothing.
	Graphs bool
	// Pad, with Graphs, replays a step whose shapes change from step to
	// step (Shapes) padded to fixed shapes, as its capture needs: each
	// kernel launched in every step runs at the largest size the
	// replayed steps show for it (its op's bytes, or its grid where
	// those are unknown), its time scaled by that size over its own.
	Pad bool
	// Model, with Graphs, graphs the model alone: its forward calls and
	// its backward (torch.cuda.make_graphed_callables), the host's work
	// outside them (the loss, a GradScaler's unscale and read, the
	// optimizer's step, the user's loops) replayed as traced.
	Model bool
	// Blocked, with Graphs, is the sites (the spans' names, as Drop
	// reads them) of the syncs that keep a graph from capturing the step
	// as it is: a read that sizes its tensors, an op's read of its own
	// arguments, a synchronize between its launches. The graph is
	// replayed only where the levers merged with it drop each of them
	// (Capturable): on the step that removing them leaves, whose shapes
	// are fixed (Pad prices the capture's); alone, the lever is the step
	// as traced.
	Blocked []string
	// Workers takes the DataLoader's spans off the launching threads to
	// this many worker processes: the step takes at least its loading
	// time over them.
	Workers int
	// Receive takes a multi-process DataLoader's batches' transfer off
	// the step's thread (Replayed.Received: the iterator's get but its
	// waits, the batch's bytes read from the workers' pipe and
	// unpickled): the collate's tensors cross in shared memory and the
	// loader's pin-memory thread (pin_memory=True) receives and pins
	// them, the step's thread taking each from that thread's queue.
	Receive bool
	// Drop says a sync is no longer waited for, a copy call no longer
	// blocks the host, or an allocator call (cudaMalloc, cudaFree) is no
	// longer made, by its site (the span's name: ".item() → aten::item →
	// cudaStreamSynchronize at train.py(40): step").
	Drop func(site string) bool
	// DropReads says a sync is no longer waited for where it waits for
	// a device-to-host copy its op made (the op reading an argument held
	// on the GPU: F.ctc_loss's lengths), and that copy's call no longer
	// blocks, by the site; the same site's other syncs (the op's uploads)
	// stay.
	DropReads func(site string) bool
	// DropOps says an op whose outputs only size a data-dependent shape
	// (torch.unique's _unique2 deduplicating ids the model could look up
	// as they are) is no longer called, by the host span's name (the
	// op's dispatch spans carry its name, its copy and sync spans their
	// site, "aten::_unique2 → cudaStreamSynchronize at ..."): its host
	// time, and the kernels and copies it issued, are gone; so is, after
	// a dedup's lookup, the gather by its inverse and its backward
	// (aten::index after aten::embedding, IndexBackward0 before
	// EmbeddingBackward0).
	DropOps func(name string) bool
	// Gather says a site's reads, taken in a loop over a tensor's
	// elements with no kernel launched between them (eight or more in
	// one stretch of the host between two launches) and whose values
	// come back to the GPU as host-to-device copies after the last of
	// them (a table on the host looked up by each element: int(t[i])
	// into numpy, then torch.tensor(..., device="cuda")), are made on the
	// GPU instead (the table kept there and indexed by the tensor): the
	// whole stretch goes, the loop's Python, its reads and their copies,
	// the lookups and the uploads.
	Gather func(site string) bool
	// Follow says a site's reads, taken row by row in a loop over a
	// tensor's rows (the reads of one frame, with one launch of the same
	// op between two rows and none inside a row: pytorch-crf's Viterbi
	// backtrace, each sentence's max launched, then one .item() a time
	// step), are made on the GPU instead (the path followed by gathers
	// over the whole batch, read back once): the loop's host time goes,
	// from its first row to its last read and the Python at the reads'
	// frame after it, its reads and their copies' calls, the lookups and
	// the launches between the rows; the last read's wait stays (the
	// path read once).
	Follow func(site string) bool
	// Consume is the share kept of the host's Python that consumes a
	// read's result, by the read's site (nil, or 1: all of it): the
	// Python spans after the read's sync up to its frame's last span in
	// the step, with no kernel launched between (a metric computed from
	// the read: a greedy decode and an edit distance after .tolist()),
	// which computing the metric every N steps makes 1/N.
	Consume func(site string) float64
	// Pinned is the rate, bytes/s, of host transfers from pinned memory:
	// a pageable one takes its bytes at it (0: unchanged).
	Pinned float64
	// ReadBack is the rate, bytes/s, at which the host reads back a
	// device-to-host transfer made pinned: the DMA writes the pinned
	// buffer past the host's caches, and the host's pass over those
	// bytes, which a staged pageable copy makes inside the copy (the
	// driver's memcpy out of its pinned staging buffer), moves to the
	// host's first read of the buffer (0: not charged).
	ReadBack float64
	// Overlap runs the host-to-device copies beside the kernels, on a
	// stream of their own (the next batch's copy while this one
	// computes): from pinned memory only.
	Overlap bool
	// OpHost says an aten op, by name, no longer does long host work of
	// its own in some calls (a plan built for each new shape: the
	// shapes fixed, so the plan is built once and cached, or a backend
	// that builds none): each of its calls with a piece of its own span
	// of 5 ms or more (the timeline's op host work) costs what its
	// median call costs, the rest of the step as it is.
	OpHost func(name string) bool
	// OnGPU says an aten op that computes on the CPU on the launching
	// thread (a call of a piece of 5 ms or more, nothing launched in
	// it: torch.multinomial on a CPU tensor), by its name, runs on the
	// GPU: each such call costs the host a launch's worth, and a kernel
	// of the trace's median kernel's time runs in its place on the lane
	// of the next kernel issued after it (docs/replay.md).
	OnGPU func(op string) bool
}

// Collapse is a range's launches collapsed into a few multi-tensor
// launches (a for-loop optimizer step made foreach or fused): the host's
// time inside each range named Range becomes Launches launches' worth,
// and each kernel issued inside it keeps its time above Floor times Bytes
// (the bytes it moves, of which a fused kernel makes fewer passes), the
// range's kernels together paying Floor once a launch.
type Collapse struct {
	Range    string  // the annotation's name (Region.Name)
	Launches float64 // a range's launches after
	Floor    float64 // seconds: what a launch costs the GPU whatever its work
	Bytes    float64 // the share of the bytes above the floor left
	// Frame, where set, names a user frame (Python spans' innermost
	// user frame, "det.py(141): post_image") in place of Range: each
	// step's stretch from its first span in the frame to its last is a
	// range (a per-item loop), whose host time Keep of is kept (one
	// iteration's worth, its launches in it: Launches then sets only the
	// floors the range's kernels pay).
	Frame string
	Keep  float64
	// Calls, with Frame a module's forward that reads counts on the
	// host (a mixture of experts' routing counts by .tolist()), makes
	// each call of the frame a range, from the read's sync to the call's
	// end: the loop over the experts the counts size. Its host time is
	// kept at one expert's worth (Keep, or where 0 one over the experts,
	// the values the read copied back), the loop's kernels as they are;
	// in a training step the backward nodes of the loop's repeated ops
	// (MmBackward0 for the experts' matmuls, SelectBackward0 for their
	// weights' slices) keep as much of their host time.
	Calls bool
}

// Capturable reports whether l's graph can hold the step: each of its
// Blocked sites is dropped by l's Drop or DropReads (another lever's,
// merged with it). A lever with no graph, or none blocked, is.
func (l Lever) Capturable() bool {
	for _, s := range l.Blocked {
		if !(l.Drop != nil && l.Drop(s) || l.DropReads != nil && l.DropReads(s)) {
			return false
		}
	}
	return true
}

// either is a site test true where a or b is (a nil test is false
// everywhere): the sites two levers drop, read or gather, together.
func either(a, b func(string) bool) func(string) bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(s string) bool { return a(s) || b(s) }
}

// MergeLevers is the levers applied together: kernels shrink by every
// lever's share, launches by every fusing lever's, an op's host grows by
// the largest engine change, the loading goes to the most workers, a
// sync any lever drops is dropped, an op's long calls any lever makes
// steady are, a graph if any (where the others drop what blocks its
// capture: Capturable).
func MergeLevers(ls ...*Lever) Lever {
	var m Lever
	var kernels, hosts, casts, fewer, more, kept []func(string) float64
	var model []bool
	m.Dispatch = 1
	for _, l := range ls {
		if l.Kernel != nil {
			kernels = append(kernels, l.Kernel)
		}
		if l.Host != nil {
			hosts = append(hosts, l.Host)
		}
		if l.Casts != nil {
			casts = append(casts, l.Casts)
		}
		if l.Dispatch > 0 {
			m.Dispatch *= l.Dispatch
		}
		if l.Fewer != nil {
			fewer = append(fewer, l.Fewer)
		}
		if l.More != nil {
			more = append(more, l.More)
		}
		if l.Kept != nil {
			kept = append(kept, l.Kept)
			m.Launcher = max(m.Launcher, l.Launcher)
			m.Backward = max(m.Backward, l.Backward)
		}
		if m.Collapse == nil {
			m.Collapse = l.Collapse
		}
		m.Graphs = m.Graphs || l.Graphs
		if l.Graphs {
			// The model alone only where every graph lever holds it
			// alone; blocked where any is, until the others drop it.
			model = append(model, l.Model)
			m.Blocked = append(m.Blocked, l.Blocked...)
		}
		m.Forward = m.Forward || l.Forward
		m.Overlap = m.Overlap || l.Overlap
		m.Pad = m.Pad || l.Pad
		m.Workers = max(m.Workers, l.Workers)
		m.Receive = m.Receive || l.Receive
		m.Pinned = max(m.Pinned, l.Pinned)
		m.ReadBack = max(m.ReadBack, l.ReadBack)
		m.Drop = either(l.Drop, m.Drop)
		m.DropReads = either(l.DropReads, m.DropReads)
		m.DropOps = either(l.DropOps, m.DropOps)
		m.Gather = either(l.Gather, m.Gather)
		m.Follow = either(l.Follow, m.Follow)
		m.OpHost = either(l.OpHost, m.OpHost)
		m.OnGPU = either(l.OnGPU, m.OnGPU)
		if c := l.Consume; c != nil {
			prev := m.Consume
			m.Consume = func(s string) float64 {
				if prev == nil {
					return c(s)
				}
				return min(c(s), prev(s))
			}
		}
	}
	m.Model = len(model) > 0 && !slices.Contains(model, false)
	if len(kernels) > 0 {
		m.Kernel = func(n string) float64 {
			f := 1.0
			for _, k := range kernels {
				f *= k(n)
			}
			return f
		}
	}
	if len(fewer) > 0 {
		m.Fewer = func(n string) float64 {
			left := 1.0
			for _, f := range fewer {
				left *= 1 - f(n)
			}
			return 1 - left
		}
	}
	m.More = largest(more)
	m.Kept = largest(kept)
	// One engine per op: the costliest lever's.
	m.Host = largest(hosts)
	// One precision per op: the lever that casts the most.
	m.Casts = largest(casts)
	return m
}

// largest is the per-op maximum of fs, nil where fs is empty (no lever
// sets it).
func largest(fs []func(string) float64) func(string) float64 {
	if len(fs) == 0 {
		return nil
	}
	return func(n string) float64 {
		x := 0.0
		for _, f := range fs {
			x = max(x, f(n))
		}
		return x
	}
}

// Replayed is a replay's outcome.
type Replayed struct {
	Wall  float64 // seconds per step, the lever applied
	Base  float64 // seconds per step, replayed as captured
	Steps int
	// Feed is the pace a multi-process DataLoader's workers feed the
	// step at, seconds per step: the floor no lever takes the step
	// under (docs/replay.md); 0 for none.
	Feed float64
	// Received is the step's thread's time a step, as replayed,
	// receiving a multi-process DataLoader's batches from its workers
	// (Lever.Receive): a batch's transfer, the window's over the batches
	// it received, times the batches a step consumes; 0 for none.
	Received float64
}

// Gain is the share of the step's wall time the lever saves.
func (r Replayed) Gain() float64 {
	if !(r.Base > 0) {
		return 0
	}
	return 1 - r.Wall/r.Base
}

// WallPerStep is the wall of one step, the one figure every surface
// (analyze, report, gate, diff) says it with: the median of the marked
// steps' walls (ProfilerStep#N spans; torch.profiler's schedule leaves
// its wait and warm-up steps unmarked), which a slow first step or a
// checkpoint does not move; a stored run's kept median; else, where the
// export holds the count only, the span over the steps. 0 when the trace
// marks no step.
func (t *Timeline) WallPerStep() float64 {
	switch {
	case t == nil:
		return 0
	case len(t.StepWalls) > 0:
		return stats.Median(t.StepWalls)
	case t.StepWall > 0:
		return t.StepWall
	case t.StepCount > 0:
		return t.Span / float64(t.StepCount)
	}
	return 0
}
