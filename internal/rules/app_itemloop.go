package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// itemLoopRule advises batching a Python loop of the user's that runs the
// same few ops once per item of a batch.
var itemLoopRule = &Rule{
	ID:    "item-loop",
	Title: "A Python loop processes a batch one item at a time: do the batch's ops at once",
	Text: `A loop of your own over the items of a batch (for i in range(x.shape[0]):
crop, flip, jitter and normalize x[i], then torch.stack the results; a
per-sample loss or postprocess) dispatches and launches the same few small
ops once per item, every step: the host pays each op's dispatch and launch
N times, and the GPU runs N tiny kernels where one would do. Done on the
whole batch at once (random parameters drawn on the GPU as tensors of N,
crops and flips as gathers of index tensors, per-item scalars broadcast
over the batch) the loop becomes one iteration's launches.

The rule finds the loop by its line: a frame of your code (not a module's
forward, outside PyTorch's Optimizer.step#… range) whose Python spans, each
step, interleave with at least 8 takes of one item (x[i]: aten::select), a
launch at least an item, and each other op either once a step (the stack of
the results) or between a quarter of the items (a branch: a random flip) and
4 times an item; no model layer inside (a convolution, linear, matmul, norm,
embedding or attention) nor a host read, and not a per-tensor update of
elementwise ops alone (that loop's lever is foreach-loop).

Priced by replaying the step (docs/replay.md) with each step's loop, from
its first Python span on that line to its last, made one iteration's worth:
its host time and launches divided by the items, the kernels' time above
the launch floor kept (the batch's work stays).`,
	Before: `out = []
for i in range(imgs.shape[0]):
    y, x = random.randint(0, 16), random.randint(0, 16)
    out.append(imgs[i, :, y:y + 96, x:x + 96].float().div_(255))
x = torch.stack(out)`,
	After: `off = torch.randint(0, 17, (n, 2), device=d)
r = torch.arange(96, device=d)
x = imgs.float().div_(255)
x = x.gather(2, (off[:, :1] + r)[:, None, :, None].expand(n, 3, 96, W))
x = x.gather(3, (off[:, 1:] + r)[:, None, None, :].expand(n, 3, 96, 96))`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		if !p.ev.PyTorch() {
			return
		}
		best, bestItems, bestLever, bestGain := bestLoop(p, func(reg analysis.Region) (int, analysis.Lever) {
			n := loopItems(reg)
			if n == 0 || loopTensors(reg) > 0 {
				return 0, analysis.Lever{}
			}
			// The loop's kernels keep their time above the launch
			// floor (the batch's work stays); the floor is paid once
			// a launch of one iteration's worth.
			floor := p.evidence().Floor()
			if math.IsNaN(floor) {
				floor = 0
			}
			after := float64(reg.Launches) / float64(reg.Count) / float64(n)
			return n, analysis.Lever{Collapse: &analysis.Collapse{Frame: reg.Name, Keep: 1 / float64(n), Bytes: 1, Floor: floor, Launches: after}}
		})
		if bestItems == 0 {
			return
		}
		steps := float64(best.Count)
		r := analysis.Recommendation{
			Message: fmt.Sprintf("a Python loop at %s runs the same ops on %d items of a batch one at a time: %.0f launches a step (%s), %.2f ms of host a step as replayed",
				best.Name, bestItems, float64(best.Launches)/steps, opsByCount(best, 8), 1e3*best.Host/steps),
			Fix:      fmt.Sprintf("do the loop at %s on the whole batch at once: random parameters drawn on the GPU as tensors over the batch (torch.rand(n, 1, 1, 1, device=...)), crops and flips as gathers with index tensors, per-item scalars broadcast; no torch.stack of per-item results", best.Name),
			Basis:    fmt.Sprintf("the step replayed with the loop's host time and launches one iteration's worth (1/%d), its kernels' time above the launch floor kept", bestItems),
			Composes: "with everything; before CUDA graphs, whose capture would freeze Python-drawn parameters",
			Lever:    &bestLever,
		}
		p.recommendWall(r, bestGain)
	},
}

// layerOps are the aten ops of a model's layers: a loop that dispatches
// one runs a model (or a layer per item), whose batching changes its
// kernels, not a per-item loop this rule prices.
var layerOps = []string{"conv", "linear", "matmul", "mm", "bmm", "addmm", "baddbmm", "einsum",
	"embedding", "layer_norm", "batch_norm", "group_norm", "instance_norm", "rms_norm",
	"scaled_dot_product_attention", "lstm", "gru", "rnn", "nonzero", "item"}

// loopItems is the items a loop (analysis.Region from Steps.Loops)
// processes a step, where it is a per-item loop over a batch: it takes
// one item of a tensor (x[i]: aten::select) at least minPerParameter
// times a step, launches at least once an item, dispatches each op
// either once a step or between a quarter of the items and maxPerItem
// times an item, and none of a model's layers (layerOps) nor a host
// read; 0 where not.
func loopItems(reg analysis.Region) int {
	if reg.Count == 0 || len(reg.Ops) == 0 {
		return 0
	}
	n := reg.Ops["aten::select"] / reg.Count
	if n < minPerParameter || reg.Launches/reg.Count < n {
		return 0
	}
	for op, c := range reg.Ops {
		name := strings.TrimPrefix(op, "aten::")
		for _, l := range layerOps {
			if strings.HasPrefix(name, l) || strings.HasPrefix(name, "_"+l) || strings.HasPrefix(name, "cudnn_"+l) {
				return 0
			}
		}
		// Once or twice an item (a branch taken for a share of them:
		// a random flip), or once a step (the stack of the results);
		// a few times a step is straight-line code that indexes a
		// tensor's last dimension (a box decode's d[..., 0]).
		if per := float64(c) / float64(reg.Count); per > maxPerItem*float64(n) || per > 1.5 && per < float64(n)/4 {
			return 0
		}
	}
	return n
}

// maxPerItem is the most dispatches of one op an item a per-item loop
// makes (a crop's two slices, a jitter's two clamps): the same few ops
// once or twice an item, not a loop within the item.
const maxPerItem = 4
