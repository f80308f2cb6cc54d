package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// stepRead advises reading a logged or checked value every N steps.
var stepRead = &Rule{
	ID:    "step-read",
	Title: "A value read on the host every step: read it every N steps",
	Text: `loss.item() for a log line or a stop check, a tensor printed or tested in
an if, makes the host wait at every step until the GPU has finished the step:
the next step's host work (loading the next batch, launching its kernels)
cannot start early. Reading it every N steps, or accumulating on the GPU and
reading once, lets the host run ahead.

Priced by replaying the step (docs/replay.md) with those syncs no longer
waited for.`,
	Before: `loss = step(batch)
if loss.item() < target:          # the host waits every step
    break`,
	After: `loss = step(batch)
if i % 50 == 0 and loss.item() < target:
    break`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		fix := "read it every N steps (log and check the stop condition every 50), or accumulate on the GPU and read once"
		if sites, steps := p.loopSyncs(syncValue); len(sites) > 0 && sites[0].Inside >= 2*max(2, steps) {
			// The longest read sits many times a step between its
			// launches: a loop inside the step tests it each iteration.
			fix = "test it every N iterations of the loop (a convergence or stop test every 8), or run a fixed count; then the loop holds no read and one CUDA graph captures it"
		}
		p.recommendDrop(syncValue, func(sites []analysis.Site, steps int) string {
			if s := sites[0]; s.Inside >= 2*max(2, steps) {
				return fmt.Sprintf("the host reads a GPU value about %d times a step, inside a loop of the step: %s", s.Count/max(steps, 1), siteList(sites))
			}
			return "the host reads a GPU value every step: " + siteList(sites)
		}, analysis.Recommendation{
			Fix:      fix,
			Basis:    "the step replayed without those syncs' waits",
			Composes: "with data-loader: the host then loads the next batch while the GPU runs",
		})
		if !p.ev.PyTorch() {
			return
		}
		// A wait for a recorded event (torch.cuda.Event.synchronize) is
		// the read already deferred: the host waits for the point the
		// event marks (a double buffer's previous step), not for all the
		// work queued. Not a lever: replayed as a full wait, its removal
		// would be priced for a wait the trace does not show.
		if sites, _ := p.loopSyncs(syncEvent); len(sites) > 0 {
			waited, n := 0.0, 0
			for _, s := range sites {
				waited, n = waited+s.Seconds, n+s.Count
			}
			p.InUse("the host already waits on a recorded event, not for all the queued work, every step (%s: %d waits, %.2f ms in all): the read is deferred",
				siteList(sites), n, 1e3*waited)
		}
	},
}
