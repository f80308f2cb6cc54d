package rules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// loopOps are the aten ops a per-tensor update loop dispatches: the
// elementwise arithmetic of an exponential moving average or a manual
// update, the copy into the tensor and the views around it. A loop that
// dispatches anything else (a matrix product, a norm, a reduction) is
// not one a multi-tensor op replaces.
var loopOps = map[string]bool{
	"aten::add": true, "aten::add_": true, "aten::sub": true, "aten::sub_": true,
	"aten::mul": true, "aten::mul_": true, "aten::div": true, "aten::div_": true,
	"aten::lerp": true, "aten::lerp_": true, "aten::addcmul_": true, "aten::addcdiv_": true,
	"aten::copy_": true, "aten::detach": true, "aten::detach_": true, "aten::alias": true,
	"aten::clone": true, "aten::fill_": true, "aten::zero_": true, "aten::neg": true,
	"aten::rsub": true, "aten::to": true, "aten::_to_copy": true,
}

// foreachTensors is how many tensors of each list one multi-tensor
// launch takes at two lists (PyTorch's multi_tensor_apply: 64; the EMA's
// and the weights').
const foreachTensors = 64

// foreachLoop advises multi-tensor ops where a Python loop of the user's
// launches the same few elementwise ops once per tensor outside the
// optimizer's step.
var foreachLoop = &Rule{
	ID:    "foreach-loop",
	Title: "A Python loop updates tensors one at a time: use multi-tensor (foreach) ops",
	Text: `A loop of your own over a model's parameters or state dict that runs the
same few elementwise ops on each tensor (an exponential moving average of the
weights, timm's ModelEmaV2: ema.copy_(d * ema + (1 - d) * w) per tensor; a
hand-written update) costs the host an op's dispatch and a launch per op per
tensor, every step. The multi-tensor ops (torch._foreach_lerp_,
_foreach_mul_ and _foreach_add_) do each op over the whole list in a launch
per chunk of tensors. The rule finds the loop by its line: a frame of your
code (not a forward) whose Python spans, each step, interleave with at least
8 dispatches of each of its ops and nothing but elementwise ops, outside
PyTorch's Optimizer.step#… range (that loop's lever is fused-optimizer).

Priced by replaying the step (docs/replay.md) with each step's loop, from
its first Python span on that line to its last, collapsed into the
multi-tensor op's launches (one per 64 tensors, a launch's worth of host
each), its kernels' time above the launch floor kept at the passes lerp
makes (3 of the loop's 8: two muls, an add and the copy).`,
	Before: `for e, w in zip(ema.state_dict().values(), model.state_dict().values()):
    e.copy_(d * e + (1 - d) * w)`,
	After: `# once: ema_t, model_t = lists of the floating-point tensors of each state dict
torch._foreach_lerp_(ema_t, model_t, 1 - d)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		if !p.ev.PyTorch() {
			return
		}
		best, tensors, bestLever, bestGain := bestLoop(p, func(reg analysis.Region) (int, analysis.Lever) {
			n := loopTensors(reg)
			if n == 0 {
				return 0, analysis.Lever{}
			}
			floor := p.evidence().Floor()
			if math.IsNaN(floor) {
				floor = 0
			}
			after := math.Ceil(float64(n) / foreachTensors)
			return n, analysis.Lever{Collapse: &analysis.Collapse{Frame: reg.Name, Launches: after, Floor: floor, Bytes: 3.0 / 8}}
		})
		if tensors == 0 {
			return
		}
		steps := float64(best.Count)
		r := analysis.Recommendation{
			Message: fmt.Sprintf("a Python loop at %s runs the same elementwise ops on %d tensors one at a time, outside the optimizer's step: %.0f launches a step (%s), %.2f ms of host a step as replayed",
				best.Name, tensors, float64(best.Launches)/steps, opsByCount(best, 0), 1e3*best.Host/steps),
			Fix:      fmt.Sprintf("do the loop at %s as multi-tensor ops over the tensor lists: an EMA as torch._foreach_lerp_(ema_tensors, model_tensors, 1 - decay) (timm's ModelEmaV3), other updates as torch._foreach_mul_ / _foreach_add_; build the lists once", best.Name),
			Basis:    fmt.Sprintf("the step replayed with the loop collapsed into %.0f multi-tensor launches (a launch's worth of host each), its kernels' time above the launch floor kept at 3/8 (lerp's passes over the loop's)", bestLever.Collapse.Launches),
			Composes: "with everything",
			Lever:    &bestLever,
		}
		p.recommendWall(r, bestGain)
	},
}

// loopTensors is the tensors a loop (analysis.Region from Steps.Loops)
// updates a step, where it is a per-tensor update: every op it
// dispatches elementwise, the fewest dispatches a step of one of them at
// least minPerParameter, and a launch at least for each; 0 where not.
func loopTensors(reg analysis.Region) int {
	if reg.Count == 0 || len(reg.Ops) == 0 {
		return 0
	}
	n := math.MaxInt
	for op, c := range reg.Ops {
		if !loopOps[op] {
			return 0
		}
		if op != "aten::detach" && op != "aten::alias" {
			n = min(n, c/reg.Count)
		}
	}
	if n == math.MaxInt || n < minPerParameter || reg.Launches/reg.Count < n {
		return 0
	}
	return n
}

// bestLoop replays each loop of the step's timeline outside a model's
// forward that price takes (n > 0: the tensors or items it runs over,
// and the lever that collapses it) and keeps the one that gains most.
func bestLoop(p *AppPass, price func(analysis.Region) (int, analysis.Lever)) (best analysis.Region, n int, lever analysis.Lever, gain float64) {
	for _, reg := range p.timeline().Loops() {
		if profan.ForwardFrame(reg.Name) {
			continue
		}
		k, l := price(reg)
		if k == 0 {
			continue
		}
		g, ok := p.replay(l)
		if !ok || g <= gain {
			continue
		}
		best, n, lever, gain = reg, k, l, g
	}
	return best, n, lever, gain
}

// opsByCount lists a loop's ops, most dispatched first, at most the first
// most of them when most > 0.
func opsByCount(reg analysis.Region, most int) string {
	ops := make([]string, 0, len(reg.Ops))
	for op := range reg.Ops {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b string) int { return cmp.Or(cmp.Compare(reg.Ops[b], reg.Ops[a]), cmp.Compare(a, b)) })
	if most > 0 && len(ops) > most {
		ops = append(ops[:most], "…")
	}
	return strings.Join(ops, ", ")
}
