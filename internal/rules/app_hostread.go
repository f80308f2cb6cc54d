package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// hostRead advises keeping data-dependent shapes on the GPU where the
// model reads counts on the host to size its tensors.
var hostRead = &Rule{
	ID:    "host-read",
	Title: "The model reads counts on the host to size tensors: keep them on the GPU",
	Text: `A model that reads GPU values to decide shapes (.tolist() of a mixture of
experts' routing counts to split the tokens, torch.nonzero, torch.bincount,
unique, boolean-mask indexing) stops the host at every such read until the GPU
has caught up, and the shapes it makes differ from step to step, so the step
cannot be captured in a CUDA graph either. A fixed capacity (each expert takes
at most capacity tokens, the overflow dropped, the experts run as one batched
matmul) or a grouped GEMM keeps the counts on the GPU.

Priced by replaying the step (docs/replay.md) with those syncs no longer
waited for; the kernels are kept as they are.`,
	Before: `counts = torch.bincount(expert, minlength=E).tolist()   # host waits
for e, part in enumerate(x_sorted.split(counts)):
    out.append(experts[e](part))`,
	After: `cap = int(1.25 * tokens * k / E)                          # fixed capacity
slot = one_hot(expert, E).cumsum(0).gather(1, expert[:, None]) - 1
buf = torch.zeros(E * cap, d).index_add(0, expert * cap + slot.clamp(max=cap - 1), x * (slot < cap))
y = torch.bmm(buf.view(E, cap, d), w)                      # no host read`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		p.recommendDrop(syncShape, func(sites []analysis.Site, steps int) string {
			n := 0
			for _, s := range sites {
				n += s.Count
			}
			return fmt.Sprintf("the model reads GPU values to size its tensors %d times a step: %s (data-dependent shapes: no CUDA graph can capture the step)", n/steps, siteList(sites))
		}, analysis.Recommendation{
			Fix:      "keep the counts on the GPU: for routing counts, a fixed capacity per expert (overflow dropped, experts as one batched matmul) or a grouped GEMM; for x[mask], a fixed-shape masked op (torch.where, masked_fill, a mask-weighted sum); other sizes padded to a bound",
			Basis:    "the step replayed without those syncs' waits (the kernels as they are)",
			Composes: "before CUDA graphs, which it makes possible",
		})
	},
}
