package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// cpuOp advises moving a tensor op that computes on the CPU inside the
// step to the GPU.
var cpuOp = &Rule{
	ID:    "cpu-op",
	Title: "A tensor op computes on the CPU inside the step: run it on the GPU",
	Text: `An aten op called on CPU tensors runs its CPU kernel on the step's own thread:
the GPU has nothing queued while it computes, and its result is copied to
the GPU after it. A weights tensor kept on the host and sampled every step
(torch.multinomial over a vocabulary's frequencies, drawing a batch's
negatives) takes the host 100 ms where the GPU takes 30 µs. The timeline
names that time "op host work" by the op: a piece of its own span of 5 ms
or more under which nothing was launched. The rule speaks where every such
call of the op launched no kernel and made no copy, memset or sync of its
own (it ran on CPU tensors), on the step's thread outside the DataLoader's
iterator (that time is data-loader's), where the op is a tensor op (not a copy,
a conversion between devices or into pinned memory, a read of a value back
or an allocation: their host time is a transfer's, which the copy and read
rules price), and where its long calls recur at the line that makes them
(half its calls there or more: one long call among short ones is the thread
descheduled, not the op's work). The fix: create the op's inputs on the GPU (pass
device="cuda" where they are made, or move them once with .to("cuda")
outside the loop), so the op runs as kernels and its result needs no copy.

Priced by replaying the step (docs/replay.md) with each such call's host
time a launch's worth and a kernel in its place on the GPU, at the trace's
median kernel (the trace records no size of a CPU op's work).`,
	Before: `self.weights = weights                       # a CPU tensor
nwords = torch.multinomial(self.weights, n, replacement=True)
nvectors = self.ovectors(nwords.to("cuda"))`,
	After: `self.weights = weights.to("cuda")             # once, before the loop
nwords = torch.multinomial(self.weights, n, replacement=True)  # on the GPU
nvectors = self.ovectors(nwords)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		if tl == nil || !p.ev.PyTorch() {
			return
		}
		var ops []analysis.CPUOp
		for _, o := range analysis.CPUOps(tl) {
			if o.Moves {
				ops = append(ops, o)
			}
		}
		if len(ops) == 0 {
			return
		}
		names := make([]string, len(ops))
		for i, o := range ops {
			names[i] = o.Name
		}
		lever := analysis.Lever{OnGPU: func(n string) bool { return slices.Contains(names, n) }}
		gain, ok := p.replay(lever)
		if !ok || gain < 0.01 {
			return
		}
		steps := max(tl.StepCount, 1)
		said := make([]string, len(ops))
		fns := make([]string, len(ops))
		for i, o := range ops {
			said[i] = fmt.Sprintf("%s %s (%d calls in %d steps, %.2f ms a step as traced)", o.Name, frameSaid(o.Frame), o.Calls, steps, 1e3*o.Time)
			fns[i] = "torch." + strings.TrimPrefix(o.Name, "aten::")
		}
		msg := fmt.Sprintf("the step's thread computes on CPU tensors inside the step, nothing launched while it does, and the GPU waits: %s", strings.Join(said, ", "))
		// The example is the op the trace shows (the first priced), not
		// one op for every trace.
		fix := fmt.Sprintf("create the inputs of %s on the GPU (device=\"cuda\" where they are made, or .to(\"cuda\") once before the loop), so the op runs as kernels and its result needs no copy: e.g. %s on CUDA tensors computes on the GPU", strings.Join(fns, ", "), fns[0])
		p.recommendWall(analysis.Recommendation{
			Message:  msg,
			Fix:      fix,
			Lever:    &lever,
			Basis:    fmt.Sprintf("the step replayed with each of the op's CPU calls off the step's thread (a launch's worth of host each) and a kernel in its place on the GPU at the trace's median kernel (%.2f µs: the trace records no size of a CPU op's work; docs/replay.md)", 1e6*analysis.MedianKernel(tl)),
			Composes: "with data-loader and the host-read rules; before cuda-graphs, which replay GPU work only: the op's CPU time stays on the host under a graph",
		}, gain)
	},
}

// frameSaid is "at <frame>", or "" for none.
func frameSaid(f string) string {
	if f == "" {
		return "(the trace has no stack: with_stack=True names its frame)"
	}
	return "at " + f
}
