package rules

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/verdict"
)

// torchCompile advises torch.compile for chains of eager kernels.
var torchCompile = &Rule{
	ID:    "torch-compile",
	Title: "Chains of eager kernels: torch.compile fuses them",
	Text: `Between two GEMMs an eager PyTorch step runs each element-wise,
normalization, cast, reduction and copy operation as its own kernel, which
reads its inputs from DRAM and writes its output back, and each costs a
launch. torch.compile (inductor) fuses each such chain into Triton kernels
that read the chain's inputs and write its outputs once. Where Triton kernels
from inductor already run, the rule says so and advises nothing.

The gain is priced from launch order, chain by chain: a chain of two or more
launches, fused, costs about its longest launch (the bytes its largest member
moves and one launch), so it saves the rest of its time; a chain that holds
two or more reductions or normalizations (a training step's backward: a
bias's gradient sum, a layer norm's gradients) keeps each of them a kernel,
the element-wise ops fused into them; in the backward, a weight's or bias's
gradient sum (a reduction over the rows to a vector, one ATen kernel) is
inductor's split reduction, partial sums then a final kernel for each
output (a bias's two kernels, a layer norm's weight and bias three), and
the launches it adds cost the host a Triton launch each; a group norm
(its statistics a reduction over a group's channels and pixels) keeps the
pass that applies them, the normalized output in the forward and the
input's gradient in the backward, a pointwise kernel of its own with the
chain's element-wise ops fused into it (a layer norm's row fits the one
kernel that reduces it); in the forward and the backward pass alike
(inductor's partitioner recomputes a pointwise chain in the backward pass
rather than keep its intermediates); the launches it removes are counted, and
in a replayed step (docs/replay.md) each takes the host time of the op
that issued it (its time a launch, at least a launch's worth): the op's
whole dispatch goes. So does the dispatch of the ops whose launches it
keeps (a fused chain's one kernel, a reduction kept a kernel): each
such launch runs from inductor's compiled code, its Python launcher
and cuLaunchKernel, at 1.8 launches' worth of host time (the trace's
aten::add's; fixtures/host22d's compiled UNet), and so does each launch
the split reductions add. Where the trace holds the ops' shapes
(record_shapes=True), a fused chain costs instead the bytes its largest
op moves (its inputs and output, from their sizes, strides and types)
at 92% of the GPU's DRAM bandwidth, at least a launch's 2.5 µs and at
most its longest launch, and so does a lone op between two GEMMs and
each reduction kept a kernel of its own: inductor's gathers, index_adds
and sums run near that floor where ATen's do not (fixtures/host20c's
voxel: 3 to 5 times faster). Without shapes ATen's times stay. The launches inside PyTorch's Optimizer.step#… range
are the optimizer's, which torch.compile(model) leaves eager (see
fused-optimizer): they are not counted. Where the trace holds the
model's forward calls (with_stack) and every GEMM and convolution of the
forward runs inside them, only the chains launched inside them and, on a
training step, in the backward autograd runs are counted: the code around
the model (a per-image postprocess, the loss) stays eager. Three or
more launches of one kernel in a row (a per-parameter update, a timing loop) are a
loop, not a chain: each reads no tensor the one before it wrote, so they are not
fused and split the chain around them. cuDNN's NCHW training batch norm, which inductor
replaces with fused Triton reductions, saves what channels_last saves of it.
On a training step (the trace holds autograd's backward) the compiled
forward's own Python (Dynamo's guard check, AOTAutograd's runtime
wrapper, the generated code's allocations and views) takes the place of
the forward's Python, which stays priced; its fused ops' dispatch goes
and its kept launches cost the launcher, as above, so what the forward's
host saves follows its op mix: a forward of convolutions and GEMMs,
whose launches stay, keeps about its host (fixtures/host24c's UNet and
NeRF MLP, traced eager and compiled without with_stack), one of many
small element-wise ops loses most of it (host25c's Llama: 6.21 against
13.45 ms a step, profiled).
A value read inside the model's forward (.item(), .tolist(), nonzero, a
boolean mask), at a forward's line or in a method a forward calls (the
trace's frames say which call holds it), breaks the graph; Dynamo resumes
after it, but not after one inside a loop: where a read recurs inside one
call of a forward, after the same ops, the chains from that call's first
read to the step's end are not counted. Where such a read sizes the work
after it (int() of a count, nonzero()'s indices: the kernels right after
it run on other grids from one step to the next while those before it do
not), or a scalar read sits there, and the step's kernels run on other
grids from one step to the next, the rule names the read and the frame
it runs in and does not price compile: the compiled code after the read
meets a new shape every step, each a guard failure and a compile until
Dynamo marks the size dynamic, which the eager step's trace cannot show.`,
	Before:   `y = F.gelu(x @ w1 + b1) * scale + residual   # four kernels after the GEMM`,
	After:    `model = torch.compile(model)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"fusable|batchnorm-nchw|triton"},
	Optional: []string{"timeline", "all"},
	CheckApp: func(p *AppPass) {
		if tr := p.kernels("triton"); len(tr) > 0 {
			p.InUse("already compiled: %d Triton kernels from inductor run (%s of the time)", len(tr), pct(timeOf(tr)/p.total()))
			return
		}
		// torch.compile(model) leaves the optimizer's step eager: the
		// launches a for-loop optimizer issues inside its
		// Optimizer.step#… range are not the model's chains (their lever
		// is fused-optimizer), each group's fusion counted for the share
		// of its launches outside it.
		opt := map[string]int{}
		for _, reg := range p.timeline().Regions(analysis.OptimizerStep) {
			for name, n := range reg.Kernels {
				opt[name] += n
			}
		}
		// A read inside a forward that recurs inside one call of it
		// (a loop) is a graph break Dynamo cannot resume after: from
		// the call's first break the forward runs eager, and so do
		// the loss and the backward of that part (fixtures/host15's
		// voxel: one graph before the nonzero, none after).
		eager, looped := p.timeline().Looped(profan.ForwardFrame)
		// Where the trace holds the model's forward calls, only the
		// chains torch.compile(model) compiles count: those launched
		// inside the forward and, on a training step, in the backward
		// autograd runs for them (fixtures/host18's det: a per-image
		// postprocess after the forward stays eager).
		// Unless a GEMM or convolution runs outside them: then the
		// model's forward is not all in the user's code (a library's
		// model beside a user's module), and every chain counts.
		products := map[string]bool{}
		for _, g := range p.kernels("all") {
			if g.Info.Category == kernelname.CatTensorMath {
				products[g.Name] = true
			}
		}
		compiled := p.timeline().Compiled(profan.ForwardFrame, func(n string) bool { return products[n] })
		saves := map[*analysis.Group]float64{}
		fewer, more, kept := map[string]float64{}, map[string]float64{}, map[string]float64{}
		saved, removed, added, left, around, floored := 0.0, 0, 0, 0, 0, 0
		var fus []*analysis.Group
		for _, g := range p.kernels("fusable") {
			s, n := g.Fusion()
			split := g.Split()
			if e := eager[g.Name] - opt[g.Name]; e > 0 {
				left += min(e, g.Launches)
			}
			model := 1.0
			if k := max(opt[g.Name], eager[g.Name]); k > 0 && g.Launches > 0 {
				model = math.Max(0, 1-float64(k)/float64(g.Launches))
			}
			if c, ok := compiled[g.Name]; ok {
				// Outside the forward and the backward, less the
				// optimizer's and the loop's counted above.
				around += max(0, int(math.Round(float64(g.Launches)*(model-c))))
				model = c
			}
			if model < 1 {
				s, n = s*model, int(math.Round(float64(n)*model))
				split = int(math.Round(float64(split) * model))
			}
			if split > 0 && g.Launches > 0 {
				// Inductor's split reductions: launches added.
				added += split
				more[g.Name] = float64(split) / float64(g.Launches)
			}
			if !(s > 0) {
				n = 0
			}
			if g.Launches > 0 {
				// The launches compiled and kept: the compiled
				// code's launcher, not the op's dispatch.
				kept[g.Name] = math.Max(0, model-float64(n)/float64(g.Launches))
			}
			if !(s > 0) {
				continue
			}
			fus = append(fus, g)
			floored += g.Floored()
			saved += s
			removed += n
			if g.Duration > 0 {
				saves[g] = s / g.Duration
			}
			if g.Launches > 0 {
				fewer[g.Name] = float64(n) / float64(g.Launches)
			}
		}
		bn := p.kernels("batchnorm-nchw")
		if len(fus) == 0 && len(bn) == 0 {
			return
		}
		saving(saves, channelsLastSaves, bn...)
		msg := fmt.Sprintf("%d eager element-wise, normalization, cast, reduction and copy kernels run in chains between the GEMMs (%d launches, %s of the time), each reading and writing its tensors: fused, the chains drop %d launches and %s of the time",
			len(fus), launchesOf(fus), pct(timeOf(fus)/p.total()), removed, pct(saved/p.total()))
		if added > 0 {
			net := fmt.Sprintf("%d launches fewer in all", removed-added)
			if removed < added {
				net = fmt.Sprintf("%d launches more in all", added-removed)
			}
			msg += fmt.Sprintf(", and inductor's split reductions add %d (each weight's and bias's gradient sum in the backward two or three kernels where eager runs one: %s)", added, net)
		}
		// The model's forward Python goes into the compiled graph,
		// unless a host read inside a forward breaks the graph there
		// (Dynamo stops at .item(), .tolist(), nonzero): its Python
		// then runs between the pieces, and stays priced.
		forward := true
		for _, s := range p.timeline().SyncSites() {
			if inForward(s) {
				forward = false
				msg += "; the forward's Python stays: " + siteList([]analysis.Site{s}) + calledIn(s) + " breaks the compiled graph"
				break
			}
		}
		if s, ok := sizedRead(p, looped); ok {
			readWord := "scalar"
			switch {
			case p.kindOf(s) == syncShape && !sizingRead(s):
				// nonzero, a mask's indices: a read of how many.
				readWord = "shape"
			case tensorRead(s):
				readWord = "tensor"
			}
			// A value read inside the forward whose shapes after it
			// change every step (a kept-token count read with int()
			// that sizes a topk and the blocks after it): Dynamo
			// breaks the graph there, and the code after it meets a
			// new shape every step, each a guard failure and a
			// compile, which no trace of the eager step shows
			// (host27b's pruned bf16 ViT: compiled, 54.7% slower).
			// Not priced, so never ranked above a priced lever.
			p.recommendWall(analysis.Recommendation{
				Message: fmt.Sprintf("Dynamo breaks the compiled graph at %s, a %s read inside the forward, and the shapes after it change from step to step (%s)%s: the compiled code after the read meets a new shape every step, and each new shape fails its guards and compiles again (until Dynamo marks the size dynamic), a cost this trace of the eager step cannot show; ",
					siteList([]analysis.Site{s}), readWord, shapesSaid(p.timeline().Shapes()), runsIn(s)) + msg,
				Fix:      "first fix the shapes after the read (a constant count, as torch.topk with a fixed k, or a few padded sizes) or keep the count on the GPU, then model = torch.compile(model); torch.compile(model, dynamic=True) compiles the sizes as symbols, its cost not priced either",
				Groups:   append(append([]*analysis.Group(nil), fus...), bn...),
				Basis:    "not priced: the recompiles and guards of a compiled step whose shapes change every step after a read in its forward are not in the eager step's trace",
				Composes: "after the fixed shapes it needs; with the precision changes and a fused optimizer",
			}, 0)
			return
		}
		basis := "each chain fused costs about its longest launch, and each launch it drops its op's host time"
		if floored > 0 {
			msg += fmt.Sprintf("; %d of their launches priced from their ops' recorded shapes, inductor's kernels at the bytes the ops move at the DRAM floor", floored)
			basis = "each chain fused costs the bytes its largest op moves at the DRAM floor where the trace has the ops' shapes, at most its longest launch, and each launch it drops its op's host time"
		}
		if around > 0 {
			msg += fmt.Sprintf("; %d launches of such kernels run outside the model's forward and its backward (the code around the model: a postprocess, the loss), which torch.compile(model) leaves eager: not counted", around)
			basis += "; only the chains launched inside the model's forward and its backward"
		}
		if looped != "" {
			site := analysis.Site{Site: looped}
			site.Method, site.Frame = verdict.SiteParts(looped)
			msg += fmt.Sprintf("; Dynamo cannot resume the forward after a graph break inside a loop (%s recurs inside one call): from that call's first break the rest of the step runs eager, its %d launches of such kernels not counted", siteList([]analysis.Site{site}), left)
			basis += "; none after a graph break inside a loop in the forward (the backward of the part before it, compiled too, not counted)"
		}
		if forward {
			basis += "; the model's forward Python, where the trace holds it, goes into the graph on an inference step (on a training step the compiled code's own Python takes its place, and the forward's fused ops' dispatch goes)"
		}
		if len(bn) > 0 {
			msg += fmt.Sprintf("; cuDNN's NCHW batch norm (%d launches, %s of the time) becomes fused Triton reductions", launchesOf(bn), pct(timeOf(bn)/p.total()))
			basis += fmt.Sprintf(", and %.0f%% of the NCHW batch norm's time, as under channels_last", 100*channelsLastSaves)
		}
		p.Recommend(analysis.Recommendation{Message: msg,
			Fix:    "model = torch.compile(model) fuses the chains between the GEMMs into Triton kernels (and the casts into their consumers)",
			Groups: append(append([]*analysis.Group(nil), fus...), bn...), Gain: gainOf(saves, p.total()), Saves: saves,
			// Each launch a chain drops takes its launch's host time
			// with it, and the model's forward Python goes into the
			// compiled graph (docs/replay.md).
			Lever: &analysis.Lever{Fewer: func(n string) float64 { return fewer[n] }, More: func(n string) float64 { return more[n] }, Kept: func(n string) float64 { return kept[n] }, Launcher: tritonLauncher, Backward: tritonLauncher, Forward: forward},
			Basis: basis, Composes: "with the precision changes and a fused optimizer; mode=\"reduce-overhead\" adds CUDA graphs"})
	},
}

// tritonLauncher is the host time of a Triton kernel's launch from
// inductor's compiled code, in launches' worth: its launcher's Python
// (triton_heuristics' run, the static launcher) and its cuLaunchKernel.
// Read from fixtures/host22d's traces of the compiled UNet: the median
// run frame (76.2 us; 79.7 from gather), less its profiler-only calls
// (get_profiler_kwarg, RecordFunctionFast: 66.1 and 69.7 us left), less
// the replay's cost of its records and at its keep (docs/replay.md:
// 14 frames, an op, a launch), over the same trace's aten::add or mul
// (36.6 and 43.6 us traced) unprofiled the same way: 1.98 and 1.70.
const tritonLauncher = 1.8

// sizedRead is the step's read inside the model's forward (at a
// forward's frame, in a method a forward calls, by the trace's frames, or
// recurring inside one call of a forward, looped) where the step's shapes
// change from one step to the next and the compiled forward meets a new
// shape there every step: first a read whose value the trace shows
// sizing the work after it (Site.Sizes: a kept-token count read with
// int() that a topk takes, fixtures/host27's prune; the expired codes'
// nonzero() whose count sizes the indexed writes after it, in
// Codebook.update, fixtures/host28's vq), else a scalar read (.item(),
// a condition on a tensor). A read whose shapes after it stay is priced
// as a graph break (fixtures/host20c's voxel).
func sizedRead(p *AppPass, looped string) (analysis.Site, bool) {
	var value *analysis.Site
	for _, s := range p.timeline().SyncSites() {
		if !(s.Site == looped || inForward(s)) || s.Inside == 0 || validation(s) {
			continue
		}
		k := p.kindOf(s)
		if (k == syncValue || k == syncShape) && s.Sizes > 0 {
			// Compared only where such a read is: Shapes walks every
			// kernel of the replayed steps.
			return s, shapesChange(p.timeline().Shapes())
		}
		if k == syncValue && value == nil {
			value = &s
		}
	}
	if value != nil {
		return *value, shapesChange(p.timeline().Shapes())
	}
	return analysis.Site{}, false
}

// inForward reports a read inside the model's forward: at a forward
// method's line, or in a method one calls (Site.Within, from the
// trace's frames).
func inForward(s analysis.Site) bool {
	return profan.ForwardFrame(s.Frame) || s.Within != ""
}

// calledIn names the forward call a read in a method it calls sits in
// (", called inside host28.py(300): forward" for Codebook.update's
// reads), "" for a read at the forward's own line or where the trace
// holds no call.
func calledIn(s analysis.Site) string {
	if s.Within == "" || s.Within == s.Frame || s.Frame == "" {
		return ""
	}
	return ", called inside " + s.Within
}

// runsIn says which frame breaks the graph where the read sits in a
// method a forward calls: "; the read's frame host28.py(314): update runs
// inside host28.py(300): forward, whose graph Dynamo traces it into and
// breaks there" ("" as calledIn).
func runsIn(s analysis.Site) string {
	if calledIn(s) == "" {
		return ""
	}
	return "; the read's frame " + s.Frame + " runs inside " + s.Within + ", whose graph Dynamo traces it into and breaks there"
}
