package rules

import (
	"fmt"
	"strings"

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

A scalar read (int() or .item() of a count) is such a read where the trace
shows its value sizing the work after it: at the same read a step later, the
kernels right after it run on other grids while the kernels right before it
ran on the same (a token count giving torch.topk its k). A fixed bound (a
fixed k or keep ratio, the rest masked) removes it. A read whose following
shapes stay, or change with those before it, is a value read (step-read).

Priced by replaying the step (docs/replay.md) with those syncs no longer
waited for; the kernels are kept as they are. Where the read is a
torch.unique deduplicating ids for an embedding lookup (the lookup works
on the ids as they are), the unique op goes too: its sort, scan and
select, their launches and its host time, and so does the gather by its
inverse after the lookup (table(uniq)[inv]) with its backward, which
accumulates the gathered rows' gradients. Where the read sits in a
function of yours (not a module's forward) entered N times a step, a loop
over the batch's items (a detector's per-image postprocess: a mask's
nonzero, NMS), the batched fixed-shape rewrite (topk in place of the mask,
batched NMS or Fast NMS) is priced as the loop's host time and launches
made one iteration's worth. A function entered once a step that makes
several reads (a loss selecting each term's tensors by padding masks,
nine masked_selects in one call) is no loop: the fix is a fixed-shape
selection, for a loss masked means ((l * mask).sum() / mask.sum()),
priced as the reads no longer waited for.

An op that reads one of its own arguments on the host (F.ctc_loss's
input and target lengths held on the GPU: the op copies them back and
waits, every step, forward and backward) is the same read made for the
op: passed as CPU tensors or Python ints, the lengths need no copy back.
Priced by replaying the step without those copies' calls and the waits
for them (the op's uploads of its host arguments, and their syncs, kept).`,
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
		if !p.ev.PyTorch() {
			return
		}
		sites, steps := p.loopSyncs(syncShape)
		if len(sites) == 0 {
			argReads(p)
			return
		}
		n := 0
		for _, s := range sites {
			n += s.Count
		}
		r := analysis.Recommendation{
			Message:  fmt.Sprintf("the model reads GPU values to size its tensors %d times a step: %s (data-dependent shapes: no CUDA graph can capture the step)", n/steps, siteList(sites)),
			Fix:      "keep the counts on the GPU: for routing counts, a fixed capacity per expert (overflow dropped, experts as one batched matmul) or a grouped GEMM; for x[mask], a fixed-shape masked op (torch.where, masked_fill, a mask-weighted sum); other sizes padded to a bound",
			Basis:    "the step replayed without those syncs' waits (the kernels as they are)",
			Composes: "before CUDA graphs, which it makes possible",
		}
		lever := analysis.Lever{Drop: dropSites(sites), DropOps: dedupOps(p.timeline(), sites)}
		frame, items := itemLoop(sites, steps)
		if scalarSizes(sites) {
			// int() or .item() of a count that sizes the ops after it
			// (fixtures/host27's prune: topk's k, the gather's rows).
			pairs := 0
			for _, s := range sites {
				pairs += s.Sizes
			}
			r.Message += fmt.Sprintf("; each a scalar read (int(), .item()) whose value sizes the ops launched after it: the kernels right after a read ran on other grids than after the same read a step before, those right before it on the same grids (%d such pairs of reads in the %d traced steps)", pairs, steps)
			r.Fix = "keep the sizes fixed: a count read with int() or .item() to size the ops after it (torch.topk's k, a slice's length) becomes a fixed bound (a fixed k or keep ratio, the rest masked or weighted on the GPU) or a few padded sizes; no host read, and shapes a CUDA graph can hold"
			if tensorReads(sites) {
				r.Message = strings.Replace(r.Message, "each a scalar read (int(), .item()) whose value sizes", "each a tensor copied back to the host (.to(\"cpu\"), .cpu()) whose values size", 1)
				r.Fix = "keep the sizes on the host where they are made: lengths the collate_fn computes on the CPU stay a CPU tensor (pack_padded_sequence takes its lengths on the CPU), never moved to the GPU and read back; no host read between the step's launches"
			}
		}
		if items > 1 && layerLoop(p.timeline(), frame) {
			// Entered between the model's layers (a module's forward
			// runs between two entries): a function the forward calls
			// before some of its blocks (host27's prune, before blocks
			// 2, 4 and 6), each entry sizing its own layers' ops, not
			// one item of a batch. A fixed size removes the reads'
			// waits; every entry's work stays.
			r.Message += fmt.Sprintf("; %s is entered %d times a step, between the model's layers", frame, items)
			items = 0
		}
		if items > 1 && passLoop(p.timeline(), frame) {
			// Entered once a micro-batch, each with the model's forward
			// and backward between its reads: gradient accumulation,
			// not a loop over items. A fixed shape removes the reads'
			// waits; the micro-batches' work stays.
			r.Message += fmt.Sprintf("; %s is entered once a micro-batch, the model's forward and backward between its reads", frame)
			items = 0
		}
		if items > 1 && onceAStep(p.timeline(), frame) {
			// Entered once a step, its reads made in that one call (a
			// loss selecting several tensors by their masks: host32's
			// fs2_loss, nine masked_selects): no loop over items to
			// batch. A fixed-shape op in place of each read removes
			// the waits; the call's work stays.
			r.Message += fmt.Sprintf("; %s is entered once a step and makes its %d reads in that one call, not a loop over items", frame, items)
			if maskedSelects(sites) {
				r.Message += ": each selects a tensor by a boolean mask (masked_select, x[mask]), its output sized by the mask's count, read back"
				r.Fix = "keep the shapes fixed: select by weighting, not by indexing (torch.where(mask, x, 0), or x * mask)"
				if lossFrame(p.timeline(), frame) {
					r.Fix = fmt.Sprintf("compute the loss in %s as masked means: each term's elementwise loss (reduction=\"none\") times its mask, summed, over the mask's count ((l * mask).sum() / mask.sum()), the same loss with no read and fixed shapes", frame)
				}
			}
			items = 0
		}
		if items > 1 {
			// A function of the user's, not a module's forward (a
			// layer's, called once per layer with its own weights),
			// entered items times a step with a read in each: a loop
			// over the batch's items. Batched with fixed shapes, the
			// loop's host and launches become one iteration's.
			k := 1 / float64(items)
			lever.Collapse = &analysis.Collapse{Frame: frame, Keep: k, Bytes: k}
			r.Message += fmt.Sprintf("; %s is entered %d times a step, once per item", frame, items)
			r.Fix = fmt.Sprintf("batch the per-item loop in %s with fixed shapes: score and keep boxes with topk instead of a boolean mask, batched NMS over the whole batch (or Fast NMS, a fixed-size matrix); no host read, one iteration's launches for the batch", frame)
			r.Basis = "the step replayed without those syncs' waits, the loop's host time and launches one iteration's worth"
		}
		if f := routingRead(sites); items <= 1 && f != "" {
			// Counts read in a module's forward to split its tokens
			// over the experts: fixed capacity runs the experts' loop
			// as one batched matmul a projection, the loop's host time
			// (and its backward's) one expert's worth, plus what the
			// capacity adds (capacitySlotOps), the kernels as they are.
			lever.Collapse = &analysis.Collapse{Frame: f, Calls: true, Bytes: 1}
			r.Basis = "the step replayed without those syncs' waits, the loop over the experts after the read (and its backward) at one expert's host time, the capacity buffer's scatter and gather and the slots' ranking and masking (10 small ops a read, a launch's worth each) added, the kernels as they are"
		}
		gain, _ := p.replay(lever)
		r.Lever = &lever
		p.recommendWall(r, gain)
	},
}

// routingRead is the module's forward holding a .tolist() read (a
// mixture of experts' routing counts, read to split the tokens over a
// loop over the experts), "" for none.
func routingRead(sites []analysis.Site) string {
	for _, s := range sites {
		if s.Method == "tolist" && s.Frame != "" && profan.ForwardFrame(s.Frame) {
			return s.Frame
		}
	}
	return ""
}

// dedupOps is the ops of sites that only make the data-dependent shape
// (torch.unique's _unique2: the distinct ids, which a lookup of the ids
// as they are does without), by the host span's name: the op's own
// dispatch spans, and its copy and sync spans ("aten::_unique2 →
// cudaStreamSynchronize at ..."). Keeping the ids without unique
// removes the op's sort, scan and select with their launches and host
// time, not the read's wait alone (fixtures/host22's rec: 26 reads a
// step whose waits are 0.05 ms, under _unique2's 24 ms of dispatch).
// Only where the ids' distinct rows are looked up, the unique in a user
// frame that also calls an embedding (a deduplicated lookup): elsewhere
// (host14's voxels, unique making the voxel ids a scatter needs) its
// outputs are the step's own. nil where no site is one.
func dedupOps(tl *analysis.Timeline, sites []analysis.Site) func(string) bool {
	lookup := false
	for _, l := range tl.Loops() {
		uniq := false
		for op := range uniqueOps {
			uniq = uniq || l.Ops[op] > 0
		}
		lookup = lookup || uniq && l.Ops["aten::embedding"] > 0
	}
	if !lookup {
		return nil
	}
	ops := map[string]bool{}
	for _, s := range sites {
		op, _, _ := strings.Cut(s.Site, " → ")
		if uniqueOps[op] {
			ops[op] = true
		}
	}
	if len(ops) == 0 {
		return nil
	}
	return func(name string) bool {
		op, _, _ := strings.Cut(name, " → ")
		op, _, _ = strings.Cut(op, " at ")
		return ops[op]
	}
}

// uniqueOps are the aten ops torch.unique calls.
var uniqueOps = map[string]bool{"aten::_unique2": true, "aten::_unique": true, "aten::unique_dim": true, "aten::unique_consecutive": true}

// itemLoop is the user frame holding the reads that is entered most
// times a step (the most reads of one site there), where it is not a
// module's forward: a per-item loop. items is 0 where there is none.
func itemLoop(sites []analysis.Site, steps int) (frame string, items int) {
	for _, s := range sites {
		if s.Frame == "" || profan.ForwardFrame(s.Frame) || steps < 1 {
			continue
		}
		if n := s.Count / steps; n > items {
			frame, items = s.Frame, n
		}
	}
	return frame, items
}

// scalarSizes reports sites all scalar reads that size the work after
// them (sizingRead), none a .tolist(), a nonzero or a mask's.
func scalarSizes(sites []analysis.Site) bool {
	for _, s := range sites {
		if !sizingRead(s) {
			return false
		}
	}
	return len(sites) > 0
}

// tensorReads reports sites all tensors read back (tensorRead).
func tensorReads(sites []analysis.Site) bool {
	for _, s := range sites {
		if !tensorRead(s) {
			return false
		}
	}
	return len(sites) > 0
}

// onceAStep reports frame entered at most once a step (Region.Entries
// over its stretches, one a step): its reads are made in one call, not
// once an item of a loop (fixtures/host32's fs2_loss, entered once with
// nine masked_selects; host18's post_image is entered once an image).
func onceAStep(tl *analysis.Timeline, frame string) bool {
	for _, l := range tl.Loops() {
		if l.Name == frame && l.Count > 0 {
			return l.Entries <= l.Count
		}
	}
	return false
}

// maskedSelects reports every site's op a boolean mask's selection
// (aten::masked_select, x[mask]'s aten::index): its output's size is
// the mask's count, read back to allocate it.
func maskedSelects(sites []analysis.Site) bool {
	for _, s := range sites {
		if !strings.Contains(s.Site, "aten::masked_select") && !strings.Contains(s.Site, "aten::index ") {
			return false
		}
	}
	return len(sites) > 0
}

// lossFrame reports frame a loss: its name says so, or its stretches
// dispatch a loss op (aten::mse_loss, aten::l1_loss, cross_entropy's).
func lossFrame(tl *analysis.Timeline, frame string) bool {
	_, fn, _ := strings.Cut(frame, ": ")
	if strings.Contains(strings.ToLower(fn), "loss") {
		return true
	}
	for _, l := range tl.Loops() {
		if l.Name != frame {
			continue
		}
		for op := range l.Ops {
			if strings.HasSuffix(op, "_loss") || strings.HasSuffix(op, "cross_entropy") || strings.HasSuffix(op, "_loss_forward") {
				return true
			}
		}
	}
	return false
}

// layerLoop reports frame's stretches (Timeline.Loops) holding calls of
// the user's forward methods between its entries (Region.Layers): the
// model's layers run between two entries of a function its forward
// calls, which is no loop over a batch's items (fixtures/host18's
// post_image is entered back to back, once an image).
func layerLoop(tl *analysis.Timeline, frame string) bool {
	for _, l := range tl.Loops() {
		if l.Name == frame && l.Layers > 0 {
			return true
		}
	}
	return false
}

// passLoop reports the stretch of each step from frame's first Python
// span to its last (Timeline.Loops) holding ops autograd's engine runs in
// the backward pass: the frame is entered once a micro-batch of a step
// that accumulates gradients (fixtures/host21's mlm_loss, its mask's
// reads around a whole forward and backward each), not once an item of a
// loop over the batch (host18's per-image postprocess, no backward op).
func passLoop(tl *analysis.Timeline, frame string) bool {
	for _, l := range tl.Loops() {
		if l.Name != frame {
			continue
		}
		for op := range l.Ops {
			if strings.HasPrefix(op, "autograd::engine::evaluate_function") {
				return true
			}
		}
	}
	return false
}

// argReads advises passing an op's arguments from the host where the op
// reads them back from the GPU every step (syncArg), priced by replaying
// the step without the copies back and the waits for them.
func argReads(p *AppPass) {
	sites, steps := p.loopSyncs(syncArg)
	if len(sites) == 0 {
		return
	}
	n := 0
	for _, s := range sites {
		n += s.Reads
	}
	lever := analysis.Lever{DropReads: dropSites(sites)}
	gain, _ := p.replay(lever)
	p.recommendWall(analysis.Recommendation{
		Message:  fmt.Sprintf("an op reads its arguments back from the GPU every step, %d device-to-host copies a step, each waited for: %s (no CUDA graph can capture a copy back and its wait)", n/max(steps, 1), siteList(sites)),
		Fix:      "pass the op's size and length arguments from the host, as CPU tensors or Python ints (F.ctc_loss's input_lengths and target_lengths built on the CPU in the collate, never moved to the GPU): the op then reads nothing back",
		Basis:    "the step replayed without the op's copies back and the waits for them (its uploads kept)",
		Composes: "before CUDA graphs, which it makes possible where the shapes are fixed",
		Lever:    &lever,
	}, gain)
}
