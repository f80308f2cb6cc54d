package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// allocatorChurn advises keeping the caching allocator's blocks where the
// step allocates or frees device memory every step.
var allocatorChurn = &Rule{
	ID:    "allocator-churn",
	Title: "Device memory allocated and freed every step: keep the allocator's cache",
	Text: `PyTorch's caching allocator keeps the blocks a step frees and hands them to
the next step: in a steady loop no step calls cudaMalloc or cudaFree. Where
the trace shows them in every step, the cache is lost each time:
torch.cuda.empty_cache() called every step (fairseq's --empty-cache-freq 1,
a habit against fragmentation) gives every cached block back to the
driver; cudaFree synchronises the device before it frees, and the next step
must cudaMalloc each block again, a driver call of 50 to 300 µs. Without
empty_cache, a cudaFree every step is the allocator freeing its cache to
retry a failed cudaMalloc near the memory's limit (or caching turned off,
PYTORCH_NO_CUDA_MEMORY_CACHING=1), and a cudaMalloc every step a shape that
no cached block fits.

Priced by replaying the step (docs/replay.md) without the allocator's calls
and the device syncs its cudaFree calls force. The advice names the call
(torch.cuda.empty_cache) and the frame that makes it; a step the trace
shows allocating only once (a warm-up, a longer batch) is not advised.`,
	Before: `for batch in loader:
    step(batch)
    torch.cuda.empty_cache()          # every step`,
	After: `for i, batch in enumerate(loader):
    step(batch)
# no empty_cache in the loop; against fragmentation:
# PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		base, ok := tl.Replay(analysis.Lever{})
		// A steady state to tell: at least two steps after the first.
		if !ok || base.Steps < 3 {
			return
		}
		steps := base.Steps
		// The allocator's calls made in every step after the first (the
		// warm-up's may fill the cache once), and those under
		// torch.cuda.empty_cache.
		var churn, emptied []analysis.Site
		for _, s := range tl.AllocSites() {
			if s.Steps < steps-1 {
				continue
			}
			churn = append(churn, s)
			if s.Method == "torch.cuda.empty_cache" {
				emptied = append(emptied, s)
			}
		}
		if len(churn) == 0 {
			return
		}
		r := analysis.Recommendation{
			Basis:    "the step replayed without the allocator's calls: no cudaFree, nor the device sync each forces, and no cudaMalloc to fill the cache again (docs/replay.md)",
			Composes: "with everything; under CUDA graphs the replay allocates from the graph's own pool, so an emptied cache costs a graphed step nothing",
		}
		drop := churn
		switch {
		case len(emptied) > 0:
			// The cache emptied every step: every allocation of the
			// steps fills it again, the sporadic ones too.
			drop = tl.AllocSites()
			frees, mallocs := splitCalls(drop)
			r.Message = fmt.Sprintf("%s gives the caching allocator's blocks back to the driver every step: %s, each synchronising the device, and the step allocates them again: %s",
				siteList(emptied[:1]), callsSaid(frees, "cudaFree", steps, false), callsSaid(mallocs, "cudaMalloc", steps, true))
			r.Fix = "drop the per-step torch.cuda.empty_cache() (fairseq: --empty-cache-freq 0): the cache keeps the blocks for the next step; if it is there against fragmentation, set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True instead, or empty the cache every N steps (every 100)"
		default:
			frees, mallocs := splitCalls(churn)
			if len(frees) > 0 {
				r.Message = "the allocator gives device memory back every step: " + callsSaid(frees, "cudaFree", steps, true)
				if len(mallocs) > 0 {
					r.Message += ", and allocates it again: " + callsSaid(mallocs, "cudaMalloc", steps, true)
				}
				r.Fix = p.framework("keep the cache: near the memory's limit the allocator frees its cache to retry a failed cudaMalloc, so lower the peak (a smaller batch, activation checkpointing) or set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation; unset PYTORCH_NO_CUDA_MEMORY_CACHING",
					"allocate the buffers once, before the loop, and reuse them (or cudaMallocAsync from a memory pool whose release threshold keeps the memory)")
				break
			}
			r.Message = "the step allocates new device memory every step: " + callsSaid(mallocs, "cudaMalloc", steps, true) + "; its tensors' shapes change, and no cached block fits"
			r.Fix = p.framework("pad the shapes to a fixed length or a few buckets, so the cached blocks fit again, or set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (segments grown in place)",
				"allocate the buffers once, at the largest size, before the loop")
		}
		lever := analysis.Lever{Drop: dropSites(drop)}
		gain, _ := p.replay(lever)
		r.Lever = &lever
		p.recommendWall(r, gain)
	},
}

// splitCalls parts allocator sites into the frees (cudaFree, which
// synchronise the device) and the allocations.
func splitCalls(sites []analysis.Site) (frees, mallocs []analysis.Site) {
	for _, s := range sites {
		if analysis.FreeSyncs(s.Site) {
			frees = append(frees, s)
		} else {
			mallocs = append(mallocs, s)
		}
	}
	return frees, mallocs
}

// callsSaid says allocator calls a step over steps: "20.0 cudaFree calls
// a step (1.53 ms a step as traced)", with the sites named where named
// is set.
func callsSaid(sites []analysis.Site, call string, steps int, named bool) string {
	n, secs := 0, 0.0
	for _, s := range sites {
		n, secs = n+s.Count, secs+s.Seconds
	}
	out := fmt.Sprintf("%.1f %s calls a step (%.2f ms a step as traced", float64(n)/float64(steps), call, 1e3*secs/float64(steps))
	if named && len(sites) > 0 {
		out += ": " + siteList(sites)
	}
	return out + ")"
}
