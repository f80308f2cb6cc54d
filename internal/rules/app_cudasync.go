package rules

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// cudaSynchronize advises removing torch.cuda.synchronize from the loop.
var cudaSynchronize = &Rule{
	ID:    "cuda-synchronize",
	Title: "torch.cuda.synchronize in the loop: remove it",
	Text: `torch.cuda.synchronize() waits for all the GPU's work; in a training or
inference loop (left from timing code) it stops the host at every step.
Timing needs it only around the timed region; CUDA events (elapsed_time) time
without stopping the host.

Priced by replaying the step (docs/replay.md) without its waits.`,
	Before: `for batch in loader:
    step(batch)
    torch.cuda.synchronize()`,
	After: `for batch in loader:
    step(batch)
torch.cuda.synchronize()          # once, where a time is read`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		p.recommendDrop(syncAll, func(sites []analysis.Site, steps int) string {
			return "the host synchronises the device every step: " + siteList(sites)
		}, analysis.Recommendation{
			Fix:      "remove torch.cuda.synchronize() from the loop (keep one where a time is read; time with CUDA events)",
			Basis:    "the step replayed without those waits",
			Composes: "with the other host-read rules",
		})
	},
}
