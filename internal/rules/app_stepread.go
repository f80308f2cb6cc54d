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
waited for; where the host computes something from the values after the
read (a metric: a greedy decode and an edit distance after .tolist()),
with no launch between, that Python is made every N steps too (N = 50):
49 of every 50 steps no longer run it. Where the reads are a loop over a
tensor's elements (eight or more with no launch between) that look a
table up on the host and upload the results back (int(t[i]) into numpy,
then torch.tensor(..., device="cuda")), the fix is the table on the GPU
indexed by the tensor: the host's whole stretch between the launches
around the loop goes (its Python, the reads, the lookups, the uploads).`,
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
		stepReads(p, fix)
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

// readEvery is the N of step-read's "every N steps".
const readEvery = 50

// stepReads advises reading the loop's value reads every N steps, priced
// by replaying the step without their waits and with the host's Python
// that consumes each read's result (a metric computed from it) made
// every N steps.
func stepReads(p *AppPass, fix string) {
	if !p.ev.PyTorch() {
		return
	}
	sites, steps := p.loopSyncs(syncValue)
	if len(sites) == 0 {
		return
	}
	drop := dropSites(sites)
	lever := analysis.Lever{Drop: drop, Consume: func(site string) float64 {
		if drop(site) {
			return 1.0 / readEvery
		}
		return 1
	}}
	gain, _ := p.replay(lever)
	gathered := lever
	gathered.Gather = drop
	if g, _ := p.replay(gathered); g > gain+0.0005 {
		// A loop over a tensor's elements that looks a host table up
		// with each value and uploads the results: gathered on the GPU.
		r := analysis.Recommendation{
			Message:  fmt.Sprintf("the host reads a tensor's elements one by one, about %d reads a step with no launch between them, looks each value up on the host and uploads the results back to the GPU: %s; the loop, its reads, the lookups and the uploads are %s of the step replayed", sites[0].Count/max(steps, 1), siteList(sites), pct(g-gain)),
			Fix:      "keep the table on the GPU and index it with the tensor (table[:, t] or torch.gather): no read, no Python loop, no upload",
			Basis:    "the step replayed without the host's stretch between the launches around the loop (its Python, reads, lookups and uploads; the gather's own launch not charged)",
			Composes: "before CUDA graphs, which it makes possible",
			Lever:    &gathered,
		}
		p.recommendWall(r, g)
		return
	}
	waits, _ := p.replay(analysis.Lever{Drop: drop})
	r := analysis.Recommendation{
		Fix:      fix,
		Basis:    "the step replayed without those syncs' waits",
		Composes: "with data-loader: the host then loads the next batch while the GPU runs",
		Lever:    &lever,
	}
	switch s := sites[0]; {
	case s.Inside >= 2*max(2, steps):
		r.Message = fmt.Sprintf("the host reads a GPU value about %d times a step, inside a loop of the step: %s", s.Count/max(steps, 1), siteList(sites))
	default:
		r.Message = "the host reads a GPU value every step: " + siteList(sites)
	}
	if gain > waits+0.0005 {
		// The host's Python after the read consumes its values: a
		// metric computed every step, made every N steps.
		r.Message += fmt.Sprintf("; the host's Python after the read computes from its values (no launch between: a metric), %s of the step replayed", pct(gain-waits))
		r.Fix = fmt.Sprintf("compute the metric every N steps (every %d: its read, and the host's Python after it, then run once in %d steps), or accumulate on the GPU and read once", readEvery, readEvery)
		r.Basis = fmt.Sprintf("the step replayed without those syncs' waits, and the host's Python after each read that consumes its values (to its frame's last span in the step, no launch between) made every %d steps", readEvery)
	}
	if v := validationOff(sites); v != "" {
		r.Fix = v + "; " + r.Fix
	}
	p.recommendWall(r, gain)
}
