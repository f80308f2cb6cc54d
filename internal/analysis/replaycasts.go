package analysis

import "math"

// The casts a precision lever adds (bf16-autocast, Lever.Casts): their
// host time and their time on the GPU, moved out of replay.go whole.

// castKeep is the share of a cast's traced time (HostSpan.Cast:
// autocast's aten::_to_copy inside an eligible op, and autograd's back in
// ToCopyBackward0) the host takes unprofiled, in place of keep's. A cast
// is C++ from end to end (autocast's cache lookup, the dispatch of to,
// _to_copy, empty_strided and copy_, copy_'s TensorIterator, a launch),
// which the profiler's share (profilerKeep, fitted on steps of Python and
// small ops) takes too much of: kept at the span's share, host11's
// autocast UNet replayed at 0.86 and 0.74 of the step its processes
// timed, host22's ddpm at 0.79. Fitted on host11's two processes (0.99
// and 0.85 of measured at 0.75), bounded by check7's autocast training
// step, GPU-bound on an H100, which replays at 1.09 of measured at 0.75
// and 1.17 at 1.0 (docs/replay.md).
const castKeep = 0.75

// castLaunches is a cast's traced time in its trace's launch's worth: the
// mean aten::_to_copy under autocast over the trace's launch's worth is
// 0.97 in host22's ddpm, 1.24 and 1.22 in host11's UNet, 1.15 in host19's
// ViT, 1.5 in host23's NeRF MLP and 1.32 in check7's training step
// (H100): the median, about 1.2, prices a cast a lever adds to a trace
// that has none (Lever.Casts).
const castLaunches = 1.2

// castCost is the host's time, unprofiled, of one cast a lever adds: a
// traced cast (castLaunches) at castKeep.
func (r *replay) castCost() float64 {
	if !r.profiler {
		return castLaunches * r.launch
	}
	return castKeep * castLaunches * r.launch
}

// castGPU is the GPU's time of one cast a lever adds: a kernel of its
// own, queued before its op's (aten::_to_copy's copy_ launches one), at
// the least a kernel of the trace takes and the GPU's gap before it. A
// cast of a weight or bias is a small kernel, bound by its launch's
// latency; a cast of an activation moves more (6 bytes an element), so
// this is the least the casts take: in host11's autocast UNet the casts
// ran 0.86 to 2.88 µs (median) a launch, in host22's ddpm 0.93 to 4.83,
// where each trace's shortest kernel took 0.61 and 0.64 µs. On a step
// its GPU bounds they lengthen the step (fixtures/host35's flow: 34 TF32
// convolution kernels' ops, about 200 forward calls a step, each casting
// its weight, bias and FP32 inputs, and autograd casting their gradients
// back).
func (r *replay) castGPU() float64 {
	return r.kmin + r.gap
}

// shortestKernel is the shortest kernel's time in the trace (copies and
// memsets left out); 0 where none has a time.
func (r *replay) shortestKernel() float64 {
	m := math.Inf(1)
	for _, k := range r.kernels {
		if k.copy == 0 && k.dur > 0 {
			m = math.Min(m, float64(k.dur))
		}
	}
	if math.IsInf(m, 1) {
		return 0
	}
	return m
}
