package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/stats"
)

// CPUOp is an aten op whose own host compute the replay keeps under a
// CUDA graph (cpuWork: a piece of its span of opHostMin or more with
// nothing launched under it, not a plan a library builds per shape).
type CPUOp struct {
	Name string
	// Frame is the user's frame that called it (the Python span just
	// before its call on the thread: "host36.py(381): forward"); "" where
	// the trace has no stack.
	Frame string
	// Calls counts its calls in the window with such a piece; Time is
	// those pieces' traced host time, seconds a step.
	Calls int
	Time  float64
	// Moves: every such call is the op computing on CPU tensors (no
	// piece of the call launched a kernel or copy, it made no copy,
	// memset or sync of its own), the op is a tensor op, not a copy, a
	// transfer or a host read (hostSideOps), and its work recurs: at
	// each frame a long call came from, half its calls or more are long
	// (one long call among short ones at a line is the thread
	// descheduled, not the op's work: fixtures/host28's spk.workers, a
	// 6 ms aten::unsqueeze beside twelve workers). Its inputs could live
	// on the GPU, and Lever.OnGPU prices them there.
	Moves bool
}

// hostSideOps are the aten ops whose work is the host's by what they are,
// wherever their tensors live: copies and conversions between devices or
// into pinned memory, reads of a value back, and allocation. Their CPU
// time is a transfer's or an allocator's, which the copy and read rules
// price; a tensor op's (sampling, sorting, indexing, arithmetic) runs on
// the GPU once its inputs are there.
var hostSideOps = []string{"aten::to", "aten::_to_copy", "aten::copy_", "aten::clone", "aten::contiguous",
	"aten::pin_memory", "aten::_pin_memory", "aten::is_pinned", "aten::item", "aten::_local_scalar_dense",
	"aten::empty", "aten::empty_strided", "aten::empty_like", "aten::resize_", "aten::set_", "aten::from_file",
	"aten::record_stream", "aten::lift_fresh", "aten::detach_"}

// tensorOp reports an op name whose CPU compute could run on the GPU: an
// aten op (not an autograd node: its backward follows its forward's
// device) and not a host-side op.
func tensorOp(name string) bool {
	return strings.HasPrefix(name, "aten::") && !slices.Contains(hostSideOps, name)
}

// CPUOps are the ops whose CPU compute the replay keeps (CPUOp), longest
// first; nil where the step is not replayed or none computes.
func CPUOps(t *Timeline) []CPUOp {
	if t == nil {
		return nil
	}
	r, ok := t.Steps.(*replay)
	if !ok || r == nil {
		return nil
	}
	return r.cpuOps()
}

// cpuOps are CPUOps of the replay's window.
func (r *replay) cpuOps() []CPUOp {
	cpu := r.cpuWork()
	if len(cpu) == 0 {
		return nil
	}
	var out []CPUOp
	for _, op := range r.longOps() {
		o := CPUOp{Name: op, Moves: tensorOp(op)}
		// Each frame's calls of the op, and its long ones.
		calls, long := map[string]int{}, map[string]int{}
		for _, c := range r.callsOfOp(op) {
			f := r.callerFrame(c.lo)
			calls[f]++
			in := false
			for i := c.lo; i <= c.hi; i++ {
				if cpu[i] {
					in = true
					o.Time += float64(r.spans[i].Dur)
				}
			}
			if !in {
				continue
			}
			long[f]++
			o.Calls++
			o.Moves = o.Moves && r.onCPU(c)
			if o.Frame == "" {
				o.Frame = f
			}
		}
		for f, n := range long {
			o.Moves = o.Moves && 2*n >= calls[f]
		}
		if o.Calls > 0 {
			o.Time /= float64(r.steps)
			out = append(out, o)
		}
	}
	slices.SortStableFunc(out, func(a, b CPUOp) int { return cmp.Compare(b.Time, a.Time) })
	return out
}

// onCPU reports a call that is all its op's own dispatch, nothing
// launched in it and no copy, memset or sync of its own: the op ran its
// CPU kernel on CPU tensors. An op on CUDA tensors launches (or, for a
// host read, copies and waits) inside its call.
func (r *replay) onCPU(c opCall) bool {
	for i := c.lo; i <= c.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostDispatch || s.Cast > 0 || r.nl != nil && r.nl[i] > 0 {
			return false
		}
	}
	return true
}

// callerLook bounds the spans callerFrame looks back.
const callerLook = 8

// callerFrame is the user's frame that made the call starting at span
// i: the nearest Python span before it on the thread (the profiler names
// a Python span by its innermost user frame); "" where none is near.
func (r *replay) callerFrame(i int) string {
	for j := i - 1; j >= 0 && j >= i-callerLook; j-- {
		s := r.spans[j]
		if s.State == profan.HostPython && s.Name >= 0 && int(s.Name) < len(r.snames) {
			return r.snames[s.Name]
		}
	}
	return ""
}

// gpuCall is a dispatch span of an op call Lever.OnGPU moves: the last
// piece of a call issues its kernel, on lane.
type gpuCall struct {
	lane   uint32
	issues bool
}

// onGPU are the window's dispatch spans of the calls Lever.OnGPU moves
// to the GPU, by span (nil: none): every call of a named op that CPUOps
// says moves, each of its pieces.
func (r *replay) onGPU(l Lever) map[int]gpuCall {
	if l.OnGPU == nil {
		return nil
	}
	cpu := r.cpuWork()
	if len(cpu) == 0 {
		return nil
	}
	var out map[int]gpuCall
	for _, o := range r.cpuOps() {
		if !o.Moves || !l.OnGPU(o.Name) {
			continue
		}
		for _, c := range r.callsOfOp(o.Name) {
			long := false
			for i := c.lo; i <= c.hi; i++ {
				long = long || cpu[i]
			}
			if !long {
				continue
			}
			if out == nil {
				out = map[int]gpuCall{}
			}
			for i := c.lo; i < c.hi; i++ {
				out[i] = gpuCall{}
			}
			out[c.hi] = gpuCall{lane: r.laneAfter(r.spans[c.hi].End()), issues: true}
		}
	}
	return out
}

// laneAfter is the lane of the first kernel issued at or after host
// instant t (the stream the op's consumers run on), else the last one's.
func (r *replay) laneAfter(t float64) uint32 {
	k, _ := slices.BinarySearchFunc(r.kernels, t, func(x replayKernel, t float64) int { return cmp.Compare(x.issued, t) })
	for ; k < len(r.kernels); k++ {
		if r.kernels[k].copy == 0 {
			return r.kernels[k].lane
		}
	}
	return r.kernels[len(r.kernels)-1].lane
}

// medianKernel is the window's median kernel time on the busiest device:
// what an op moved to the GPU costs it where the trace records no size
// of its work (a CPU op launches nothing whose size the trace keeps).
func (r *replay) medianKernel() float64 {
	var ds []float64
	for _, k := range r.kernels {
		if k.copy == 0 && k.dur > 0 {
			ds = append(ds, float64(k.dur))
		}
	}
	if len(ds) == 0 {
		return 0
	}
	return stats.Median(ds)
}

// MedianKernel is the replayed window's median kernel time, seconds: the
// GPU time Lever.OnGPU prices an op moved to the GPU at (0 where the step
// is not replayed).
func MedianKernel(t *Timeline) float64 {
	if t == nil {
		return 0
	}
	r, ok := t.Steps.(*replay)
	if !ok || r == nil {
		return 0
	}
	return r.kmed
}
