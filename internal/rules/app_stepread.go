package rules

import (
	"fmt"
	"slices"

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
around the loop goes (its Python, the reads, the lookups, the uploads).
Where the reads are a loop over a tensor's rows, the fix depends on what
each value does next: a walk's value indexes the next read (a Viterbi
backtrace: the path followed on the GPU with torch.gather over the batch,
read once); a read-sized expansion's value becomes a shape, the op right
after the read expanding, repeating or allocating by it (a length
regulator's repeat counts: the counts' cumsum, torch.searchsorted over the
output positions and one gather, with the padded length known on the
host). Both are priced as the loop's host time gone, one read kept.
Where the reads walk a list of tensors in Python, one read a tensor (a
gradient norm's .norm(2).item() a parameter: the same count every step,
each read after work of another size, where a loop's stop test reads the
same work each iteration), the fix is the whole list reduced on the GPU
in one call (torch._foreach_norm, the norms stacked and reduced with
torch.linalg.vector_norm), kept there and read every N steps.
Where a .cpu() copies a batch's tensor back to pageable memory every step
and the host's Python then computes from it with no launch between, calling
functions on the values (a metric: the argmax of a segmentation read back
for np.bincount over its pixels), the fix is the metric on the GPU, read
every N steps: priced by replaying the step without the copy's wait and
with that Python made every N steps.`,
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
		if sites, steps := p.loopSyncs(syncValue); len(sites) > 0 && loop(sites[0], steps) && !walked(sites[0], steps) {
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

// loop reports a read made many times a step between the step's
// launches: a loop inside the step tests it each iteration.
func loop(s analysis.Site, steps int) bool { return s.Inside >= 2*max(2, steps) }

// walked reports a read that is one of a per-tensor walk (tensorWalk).
func walked(s analysis.Site, steps int) bool {
	_, ok := tensorWalk([]analysis.Site{s}, steps)
	return ok
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
	metric := metricCopies(p)
	if len(sites) == 0 && len(metric) == 0 {
		return
	}
	drop := dropSites(append(slices.Clone(sites), metric...))
	lever := analysis.Lever{Drop: drop, Consume: func(site string) float64 {
		if drop(site) {
			return 1.0 / readEvery
		}
		return 1
	}}
	gain, _ := p.replay(lever)
	gathered := lever
	gathered.Gather = dropSites(sites)
	g, _ := p.replay(gathered)
	followed := lever
	followed.Follow = dropSites(sites)
	if f, _ := p.replay(followed); len(sites) > 0 && f > gain+0.0005 && f > g {
		// A loop over a tensor's rows that reads each row's values
		// one by one, a launch between the rows (a Viterbi
		// backtrace): the path followed on the GPU, read once.
		if s := sites[0]; s.ShapeOp != "" && 2*s.Shaped > s.Reads {
			// Each value read becomes a shape, sizing the op the
			// host dispatches right after it (a length regulator's
			// repeat counts: each .item() expands its phoneme's
			// row), not an index the next read follows: the whole
			// expansion built on the GPU in one pass.
			p.recommendWall(analysis.Recommendation{
				Message:  fmt.Sprintf("the host reads a tensor's values one by one in a loop over its rows, about %d reads a step, and makes each a shape, not an index the next read follows: %d of the %d reads size the op dispatched right after them (%s: a repeat count, each row expanded by the value read): %s; the loop, its reads, their copies' calls, its Python and the ops between the reads are %s of the step replayed", s.Count/max(steps, 1), s.Shaped, s.Reads, s.ShapeOp, siteList(sites), pct(f-gain)),
				Fix:      "build the expansion for the whole batch at once on the GPU: the counts' running sum (ends = counts.cumsum(-1)), each output position's source row found by torch.searchsorted(ends, torch.arange(max_len, device=ends.device), right=True), and one gather of the rows (torch.gather, or index_select), the padded positions masked; with max_len known on the host (the collate's longest target, or a fixed bound) no read is left, and the shapes are fixed",
				Basis:    "the step replayed without the loop's host time (its reads, their copies' calls, the Python at the reads' frame, the ops between the reads), one read kept (the cumsum, searchsorted and gather's own launches not charged)",
				Composes: "with data-loader; before CUDA graphs, which it makes possible",
				Lever:    &followed,
			}, f)
			return
		}
		p.recommendWall(analysis.Recommendation{
			Message:  fmt.Sprintf("the host reads a tensor's values row by row in a loop, about %d reads a step with one launch of the same op between the rows and none inside a row, and follows them on the host (each read picks the next element: a backtrace): %s; the loop, its reads, their copies' calls, its Python and the launches between the rows are %s of the step replayed", sites[0].Count/max(steps, 1), siteList(sites), pct(f-gain)),
			Fix:      "follow the path on the GPU for every row at once (index the next element of all rows with torch.gather, one step of the loop at a time over the batch) and read the result back once (.tolist() at the end): no read a row, no Python a read",
			Basis:    "the step replayed without the loop's host time (its rows' reads, their copies' calls, the lookups, the Python at the reads' frame, the launches between the rows), the path's one read kept (the gathers' own launches not charged)",
			Composes: "with data-loader; before CUDA graphs, which it makes possible",
			Lever:    &followed,
		}, f)
		return
	}
	if len(sites) > 0 && g > gain+0.0005 {
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
	switch {
	case len(sites) == 0:
		r.Message = "the host copies a GPU tensor back every step to compute from it: " + siteList(metric)
	case walked(sites[0], steps) || !loop(sites[0], steps):
		if w, ok := tensorWalk(sites, steps); ok {
			// A list of tensors walked in Python, one read a tensor:
			// the list reduced on the GPU, read every N steps.
			r.Message, r.Fix = walkText(w, sites, steps, fix)
			break
		}
		r.Message = "the host reads a GPU value every step: " + siteList(sites)
	case loop(sites[0], steps):
		r.Message = fmt.Sprintf("the host reads a GPU value about %d times a step, inside a loop of the step: %s", sites[0].Count/max(steps, 1), siteList(sites))
	}
	if gain > waits+0.0005 && len(sites) > 0 {
		// The host's Python after the read consumes its values: a
		// metric computed every step, made every N steps.
		r.Message += fmt.Sprintf("; the host's Python after the read computes from its values (no launch between: a metric), %s of the step replayed", pct(gain-waits))
		r.Fix = fmt.Sprintf("compute the metric every N steps (every %d: its read, and the host's Python after it, then run once in %d steps), or accumulate on the GPU and read once", readEvery, readEvery)
		r.Basis = fmt.Sprintf("the step replayed without those syncs' waits, and the host's Python after each read that consumes its values (to its frame's last span in the step, no launch between) made every %d steps", readEvery)
	}
	if len(metric) > 0 {
		// A batch's tensor copied back to compute a metric from every
		// step (fixtures/host29's seg: the argmax read with .cpu() and
		// np.bincount over its 1M pixels): kept on the GPU and read
		// every N steps, the copy, its wait and the Python go; the
		// replay says what the wall gives (a step its workers' feed
		// bounds keeps its pace).
		used, n := 0.0, 0
		for _, s := range metric {
			used, n = used+s.Consumed, n+s.Count
		}
		r.Message += fmt.Sprintf("; each copy goes to pageable memory and the host's Python after it computes from its values with no launch between (a metric over its elements: %.2f ms after the %d copies, as traced), which no other lever takes off the host", 1e3*used, n)
		if w, ok := p.timeline().Replay(lever); ok && w.Feed > 0 && w.Wall <= w.Feed*1.001 {
			r.Message += fmt.Sprintf("; replayed without it the step stays at the pace its DataLoader workers feed it (a batch every %.2f ms)", 1e3*w.Feed)
		}
		r.Fix = fmt.Sprintf("compute the metric on the GPU (a confusion matrix or a sum accumulated on the device: torch.bincount or scatter_add_ over the batch's elements) and read its small result every N steps (every %d), or once at the end", readEvery)
		if len(sites) > 0 {
			r.Fix += "; and " + fix
		}
		r.Basis = fmt.Sprintf("the step replayed without those syncs' waits and copies' blocking, and the host's Python after each read that consumes its values (to its frame's last span in the step, no launch between) made every %d steps", readEvery)
	}
	if v := validationOff(sites); v != "" {
		r.Fix = v + "; " + r.Fix
	}
	p.recommendWall(r, gain)
}

// metricCopies are the step's bulk reads (a .cpu() of a tensor of
// bulkRead bytes or more to pageable memory: pinned-memory's sync, by
// kindOf) whose values the host's Python computes from right after, no
// launch between (a metric over a batch's predictions: Site.Consumed),
// for at least MinGain of the step's span, calling functions on them
// (metricCalls or more a read: numpy's reductions; fixtures/host29's
// seg, 67 a read) where a store of the values into a host array calls
// none but the conversion (fixtures/host16's embed, one a read: the
// features are needed on the host, and pinned-memory's is the lever).
func metricCopies(p *AppPass) []analysis.Site {
	copies, _ := p.loopSyncs(syncCopy)
	var out []analysis.Site
	for _, s := range copies {
		// An upload's .to(), or a copy_, reads no value.
		if syncKind(s) == syncValue && s.Consumed >= p.Thresholds.MinGain*p.timeline().Span && s.Calls >= metricCalls*s.Count {
			out = append(out, s)
		}
	}
	return out
}

// metricCalls is the least Python calls a read's consumer makes, a read,
// for metricCopies to take it as a metric computed from the values.
const metricCalls = 8
