package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// hostSync advises removing or deferring the host synchronisations a
// timeline shows the GPU waiting on.
var hostSync = &Rule{
	ID:    "host-sync",
	Title: "The host waits on the GPU: remove or defer the synchronising op",
	Text: `A synchronising call (cudaStreamSynchronize, cudaDeviceSynchronize, a
synchronous copy) makes the host wait until the GPU has finished everything
queued; the GPU then sits idle until the host has launched the next work. In
PyTorch the ops that do it are .item(), .cpu(), .tolist(), printing a tensor,
torch.nonzero and boolean-mask indexing (whose result size the host needs),
and a copy to pageable memory. The timeline names the call and the op around
it (with the Python frame when the trace has the stack).

Each sync is priced once: a value read every step is step-read's, a read
that sizes a tensor host-read's, torch.cuda.synchronize cuda-synchronize's,
a pageable copy's pinned-memory's, GradScaler's read of found_inf
fused-optimizer's; host-sync prices the rest (all of a CUDA
program's), by replaying the step (docs/replay.md) without their waits. In
a step bound by its launches little comes back: the host, no longer
waiting, still cannot launch faster. Where the trace has no step to replay:
the idle time the timeline puts after the host's synchronisations.`,
	Before: `for t in range(steps):
    tok = model(tok).argmax(-1)
    if (tok == eos).item():      # the host waits for every token
        break`,
	After: `toks = []
for t in range(steps):
    tok = model(tok).argmax(-1)
    toks.append(tok)
done = (torch.cat(toks) == eos).any().item()   # one wait at the end`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	Optional: []string{"host-copies"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		idle := tl.IdleOf(analysis.IdleSync)
		// Under 1% of the step: the harness's own synchronize at the end
		// of a timed loop, not a lever.
		if idle.Seconds <= 0 || !(tl.Span > 0) || idle.Seconds < 0.01*tl.Span {
			return
		}
		claimed, ownSite, sites := p.claimedSyncs()
		// The idle time after the syncs no other rule claims.
		calls, waits := idle.Calls[:0:0], idle.Seconds
		for _, c := range idle.Calls {
			if !claimed(c) {
				calls = append(calls, c)
			}
		}
		if len(calls) < len(idle.Calls) {
			waits = 0
			for _, c := range calls {
				waits += c.Seconds
			}
		}
		r := analysis.Recommendation{
			Fix: p.framework("keep the values on the GPU and read them once at the end (defer .item()/.cpu(), test a stop condition every N steps, avoid boolean-mask indexing and nonzero in the loop)",
				"keep the results on the device and copy them back once at the end: no cudaDeviceSynchronize, cudaStreamSynchronize or synchronous cudaMemcpy inside the loop (test a stop condition every N steps; order work with events)"),
			Basis:    "the idle time after the host's synchronisations on the timeline",
			Composes: "with CUDA graphs, which cannot hold a synchronisation anyway",
		}
		gain := idle.Seconds / tl.Span
		var rest []analysis.Site
		if sites != nil {
			// Replayed: each sync is priced once, by the rule that names
			// its lever (step-read, host-read, cuda-synchronize,
			// pinned-memory); host-sync prices the rest, the step
			// replayed without their waits.
			for _, s := range sites {
				if !ownSite[s.Site] {
					rest = append(rest, s)
				}
			}
			if len(rest) == 0 {
				return
			}
			lever := analysis.Lever{Drop: dropSites(rest)}
			g, ok := p.replay(lever)
			if !ok || g < 0.005 {
				return
			}
			gain, r.Lever = g, &lever
			r.Basis = "the step replayed without those syncs' waits (docs/replay.md)"
		}
		what := "synchronising calls"
		if len(calls) == 0 && r.Lever != nil {
			what = "syncs at " + siteList(rest)
		}
		if len(calls) > 0 {
			c := calls[0]
			what = fmt.Sprintf("%s (%d×", c.Name, c.Count)
			if c.Op != "" {
				what += " in " + c.Op
			}
			if c.Frame != "" {
				what += " at " + c.Frame
			}
			what += ")"
			if c, share := p.hostCall(c.Name); c != nil && c.Total > 0 {
				// The API summary or trace: how long the host sat in the
				// call, beyond the gaps it left.
				what += fmt.Sprintf("; the host spends %.2f ms in its %d %s calls, %s of its CUDA API time", 1e3*c.Total, c.Calls, c.Name, pct(share))
			}
		}
		r.Message = fmt.Sprintf("the GPU waits %s of the step after the host's %s", pct(waits/tl.Span), what)
		p.recommendWall(r, gain)
	},
}

// claimedSyncs reports the syncs a rule of their own prices (step-read,
// host-read, cuda-synchronize on PyTorch; pinned-memory where copies
// are pageable): as idle calls, and as the replayed steps' sites by name;
// and those sites (nil where the capture has no step to replay).
func (p *AppPass) claimedSyncs() (func(analysis.IdleCall) bool, map[string]bool, []analysis.Site) {
	own := map[string]bool{}
	if _, ok := p.replay(analysis.Lever{}); !ok {
		return func(analysis.IdleCall) bool { return false }, own, nil
	}
	pageable := p.pageableCopies()
	frames, kinds := map[string]bool{}, map[string]bool{}
	if p.ev.PyTorch() {
		for _, k := range []string{syncShape, syncValue, syncAll, syncEvent, syncScaler, syncArg} {
			mine, _ := p.loopSyncs(k)
			for _, s := range mine {
				own[s.Site], kinds[k] = true, true
				frames[s.Method+"\x00"+s.Frame] = true
			}
		}
	}
	sites := p.timeline().SyncSites()
	for _, s := range sites {
		if pageable && p.kindOf(s) == syncCopy {
			own[s.Site] = true
		}
	}
	claimed := func(c analysis.IdleCall) bool {
		s := analysis.Site{Site: c.Op + " → " + c.Name, Method: c.Method, Frame: c.Frame}
		switch k := p.kindOf(s); {
		case pageable && k == syncCopy:
			return true
		case c.Method == "" && c.Frame == "":
			return kinds[k]
		}
		return frames[c.Method+"\x00"+c.Frame]
	}
	if sites == nil {
		sites = []analysis.Site{}
	}
	return claimed, own, sites
}

// pcieRate is the x16 PCIe rate of the GPU's generation, bytes/s, over
// which pinned host copies run: 5.0 from compute capability 9.0 (H100),
// 4.0 for 8.x (A100), 3.0 before.
func pcieRate(cc string) float64 {
	switch {
	case cc >= "9.0" || strings.HasPrefix(cc, "1") && len(cc) > 3:
		return 63e9
	case cc >= "8.0":
		return 31.5e9
	}
	return 15.75e9
}

// pinnedEfficiency is the share of the PCIe rate pinned copies reach: 87%
// on an H100 (fixtures/timeline/copy_pinned: 4 × 32 MiB in 2.44 ms).
const pinnedEfficiency = 0.87

// pinnedMemory advises pinned host buffers for pageable host transfers.
var pinnedMemory = &Rule{
	ID:    "pinned-memory",
	Title: "Host transfers from pageable memory: pin it",
	Text: `A copy between pageable host memory and the GPU is staged by the driver
through a pinned buffer, a host memcpy at a fraction of the link's rate, and
.to(device, non_blocking=True) is synchronous from pageable memory. Pinned
(page-locked) host tensors copy by DMA at the link's rate and can overlap the
kernels. To the GPU: DataLoader(pin_memory=True), or tensor.pin_memory() once
for a buffer reused every step, copied with .to(device, non_blocking=True).
From the GPU (.cpu(), .to("cpu")): a pinned host buffer allocated once,
copied into with buf.copy_(x, non_blocking=True), and an event recorded after
the copy and waited on (or the buffer read a step later) before the host reads
it.

Priced by replaying the step where the trace holds its host side
(docs/replay.md): each pageable copy at the pinned rate (the GPU's PCIe
generation, x16, at 87% as measured on an H100), its call returning at once and
the stream sync a blocking copy adds gone; the host still reads a copy from the
GPU out of the pinned buffer, which the DMA wrote past its caches: those bytes
cost the host what the driver's own copy out of its pinned staging buffer cost,
at the rate of the trace's staged (pageable) copies from the GPU. Where the
step's thread receives a multi-process DataLoader's batches from its workers
(reading and unpickling each from their pipe: NumPy arrays cross pickled),
tensors returned by the collate_fn cross in shared memory, and
pin_memory=True's thread receives and pins them: that transfer, paid a batch
a step however the trace bunches it, leaves the step's thread. Otherwise:
each pageable copy's time less its bytes at the pinned rate, over the
timeline's span.`,
	Before: `x = batch.to("cuda", non_blocking=True)        # batch in pageable memory
out = model(x).cpu()                           # into fresh pageable memory, waited for`,
	After: `loader = DataLoader(ds, batch_size=64, pin_memory=True)   # or batch = batch.pin_memory()
buf = torch.empty(out_shape, pin_memory=True)             # once
buf.copy_(model(x), non_blocking=True); done.record()     # done = torch.cuda.Event()
done.synchronize()                                        # before the host reads buf`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline", "host-copies"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		rate := pinnedEfficiency * pcieRate(p.evidence().CC())
		n, secs, saved, bytes := 0, 0.0, 0.0, 0.0
		toDevice, fromDevice := false, false
		for _, a := range p.hostCopies() {
			if a.SrcMemType != "Pageable" && a.DstMemType != "Pageable" || math.IsNaN(a.Duration) || math.IsNaN(a.Bytes) {
				continue
			}
			if strings.HasPrefix(a.Kind, "memcpy DtoH") {
				fromDevice = fromDevice || a.Bytes >= bulkRead
			} else {
				toDevice = true
			}
			k := float64(max(a.Invocations, 1))
			n += int(k)
			secs += a.Duration * k
			bytes += a.Bytes * k
			saved += math.Max(0, a.Duration-a.Bytes/rate) * k
		}
		if n == 0 || !(tl.Span > 0) || saved <= 0 {
			return
		}
		// The calls that copy, by the syncs they force (a blocking .to()
		// from pageable memory), named with their frames where the
		// trace holds the Python stack.
		where := ""
		var named []analysis.Site
		for _, s := range tl.SyncSites() {
			if p.kindOf(s) == syncCopy && s.Method != "" {
				named = append(named, s)
			}
		}
		if len(named) > 0 {
			where = " (" + siteList(named) + ")"
		}
		r := analysis.Recommendation{
			Message:  fmt.Sprintf("%d host copies use pageable memory%s: %.1f MB in %.2f ms (%.1f GB/s), where pinned copies run at about %.0f GB/s", n, where, bytes/1e6, 1e3*secs, bytes/secs/1e9, rate/1e9),
			Fix:      p.pinnedFix(toDevice, fromDevice || !toDevice),
			Basis:    "each pageable copy's time less its bytes at the pinned rate, over the span",
			Composes: "with copy-overlap, which then hides what is left",
		}
		if !toDevice {
			r.Composes = "with everything (copy-overlap moves host-to-device copies only)"
		}
		gain := math.Min(1, saved/tl.Span)
		lever := p.pinnedLever(rate)
		recv := ""
		if base, ok := tl.Replay(analysis.Lever{}); ok && toDevice && base.Received >= verdict.NoiseShare*base.Base {
			// The batches' transfer from the workers: pin_memory=True's
			// thread receives them, off the step's thread.
			lever.Receive = true
			recv = ", and each DataLoader batch's transfer off the step's thread"
			r.Message += fmt.Sprintf("; the step's thread receives each batch from the DataLoader's workers, reading and unpickling it from their pipe (%.2f ms a step, as replayed)", 1e3*base.Received)
			r.Fix = "return tensors from the DataLoader's collate_fn (torch.from_numpy in the worker: they cross in shared memory, where NumPy arrays are pickled through the pipe) with pin_memory=True, whose thread receives and pins each batch off the step's thread, and copy with .to(device, non_blocking=True)"
			if fromDevice {
				r.Fix = "to the GPU: " + r.Fix + "; from the GPU: " + pinnedFixText(true, false, true)
			}
		}
		if g, ok := p.replay(lever); ok {
			// Replayed: the copies at the pinned rate, the host no longer
			// blocked in them nor in the sync each forces.
			gain, r.Lever = g, &lever
			r.Basis = "the step replayed with each pageable copy at the pinned rate, its call returning at once and its sync gone" + recv + " (docs/replay.md)"
			if lever.ReadBack > 0 {
				r.Basis = fmt.Sprintf("the step replayed with each pageable copy at the pinned rate, its call returning at once and its sync gone%s, and the host reading the copies from the GPU back out of the pinned buffer at %.1f GB/s, the staged copies' rate (docs/replay.md)", recv, lever.ReadBack/1e9)
			}
		}
		p.recommendWall(r, gain)
	},
}

// pinnedFix is pinned-memory's fix by the copies' direction
// (pinnedFixText), in the capture's framework's terms.
func (p *AppPass) pinnedFix(toDevice, fromDevice bool) string {
	return pinnedFixText(p.ev.PyTorch(), toDevice, fromDevice)
}

// pinnedFixText is the fix for pageable host transfers, one text for
// every rule that gives it, by direction: to the device, pinned source
// tensors and non_blocking copies; from it, a pinned buffer copied into
// without blocking and waited for by an event before the host reads it.
func pinnedFixText(torch, toDevice, fromDevice bool) string {
	to, from := "allocate the host buffers pinned (cudaMallocHost, or cudaHostRegister on an existing buffer) and copy with cudaMemcpyAsync",
		"copy with cudaMemcpyAsync into a pinned host buffer allocated once (cudaMallocHost, or cudaHostRegister on an existing buffer), record an event after the copy (cudaEventRecord), and wait on it (cudaEventSynchronize, or a step later) before the host reads the buffer"
	if torch {
		to, from = "pin the host tensors (DataLoader(pin_memory=True), or .pin_memory() once for a reused buffer) and copy with .to(device, non_blocking=True)",
			"copy into a pinned host buffer allocated once (torch.empty(shape, pin_memory=True)) with buf.copy_(x, non_blocking=True), record a torch.cuda.Event after the copy, and wait on it (event.synchronize(), or a step later) before the host reads the buffer"
	}
	switch {
	case toDevice && fromDevice:
		return "to the GPU: " + to + "; from the GPU: " + from
	case fromDevice:
		return from
	}
	return to
}

// pinnedLever is pinned host memory and non_blocking copies, replayed: a
// pageable transfer takes its bytes at rate, the host no longer blocks in
// the copy call nor in the stream sync a blocking .to() adds.
func (p *AppPass) pinnedLever(rate float64) analysis.Lever {
	return analysis.Lever{Pinned: rate, ReadBack: p.stagedRate(), Drop: func(site string) bool {
		m, f := verdict.SiteParts(site)
		return p.kindOf(analysis.Site{Site: site, Method: m, Frame: f}) == syncCopy
	}}
}

// stagedRate is the rate of the capture's bulk device-to-host copies to
// pageable memory (bulkRead bytes or more), bytes/s; 0 where it has none.
// The driver stages such a copy through a pinned buffer that the DMA
// writes at the link's rate, and copies it out on the host: the staged
// copy runs at the host's rate of reading DMA-written memory, which is
// what the host's read of a pinned buffer costs (Lever.ReadBack).
func (p *AppPass) stagedRate() float64 {
	bytes, secs := 0.0, 0.0
	for _, a := range p.hostCopies() {
		if strings.HasPrefix(a.Kind, "memcpy DtoH") && a.DstMemType == "Pageable" && a.Bytes >= bulkRead && a.Duration > 0 {
			k := float64(max(a.Invocations, 1))
			bytes += a.Bytes * k
			secs += a.Duration * k
		}
	}
	if secs <= 0 {
		return 0
	}
	return bytes / secs
}

// pageableCopies reports host transfers from or to pageable memory.
func (p *AppPass) pageableCopies() bool {
	for _, a := range p.hostCopies() {
		if a.SrcMemType == "Pageable" || a.DstMemType == "Pageable" {
			return true
		}
	}
	return false
}

// copyOverlap advises a second stream for copies on the critical path.
var copyOverlap = &Rule{
	ID:    "copy-overlap",
	Title: "Copies on the critical path: overlap them with compute",
	Text: `Host transfers that no kernel runs beside sit on the step's critical path. Issued
on a second stream from pinned memory (the next batch's copy while the current
batch computes, waited for with an event), they run beside the kernels.

Priced by replaying the step where the trace holds its host side
(docs/replay.md), the host-to-device copies beside the kernels; where they are
pageable, as what it adds to pinned memory. Otherwise: the copy time no kernel
runs beside, as far as there is kernel time to hide it behind, over the
timeline's span.`,
	Before: `for x in batches:
    y = model(x.to("cuda", non_blocking=True))`,
	After: `copy = torch.cuda.Stream()
with torch.cuda.stream(copy):
    nxt = first.to("cuda", non_blocking=True)
for x in batches:
    torch.cuda.current_stream().wait_stream(copy); cur = nxt
    with torch.cuda.stream(copy):
        nxt = x.to("cuda", non_blocking=True)       # pinned x
    y = model(cur)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline", "host-copies"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		// The exposed copies are the host transfers' at most (the
		// timeline's copies include the device's own).
		host := 0.0
		for _, a := range p.hostCopies() {
			if a.Duration == a.Duration {
				host += a.Duration * float64(max(a.Invocations, 1))
			}
		}
		exposed := math.Min(tl.CopyExposed, host)
		compute := tl.Busy - tl.CopyExposed - tl.Overlap
		hide := math.Min(exposed, compute)
		if !(tl.Span > 0) || hide <= 0 || hide/tl.Span < 0.01 {
			return
		}
		r := analysis.Recommendation{
			Message: fmt.Sprintf("%.2f ms of host copies run with no kernel beside them (%s of the step), beside %.2f ms of kernels", 1e3*exposed, pct(exposed/tl.Span), 1e3*compute),
			Fix: p.framework("issue the next batch's copy on a second stream from pinned memory while the current batch computes (torch.cuda.Stream, wait_stream), or DataLoader(pin_memory=True) with non_blocking copies",
				"issue the next batch's copy with cudaMemcpyAsync on a second stream, from pinned memory, while the current batch computes (cudaEventRecord and cudaStreamWaitEvent order the two streams)"),
			Basis:    "the exposed copy time, as far as kernel time can hide it, over the span",
			Composes: "after pinned-memory (a pageable copy cannot overlap)",
		}
		gain := hide / tl.Span
		lever := analysis.Lever{Overlap: true}
		if p.pageableCopies() {
			// Only a pinned copy overlaps: the overlap is priced as what
			// it adds to pinned memory.
			pinned := p.pinnedLever(pinnedEfficiency * pcieRate(p.evidence().CC()))
			lever = verdict.MergeLevers(&pinned, &lever)
			if base, ok := p.replay(pinned); ok {
				g, _ := p.replay(lever)
				if g-base < 0.01 {
					return
				}
				gain, r.Lever = g-base, &lever
				r.Basis = "the step replayed with its host-to-device copies beside the kernels, less what pinned memory alone saves (docs/replay.md)"
			}
		} else if g, ok := p.replay(lever); ok {
			if g < 0.01 {
				return
			}
			gain, r.Lever = g, &lever
			r.Basis = "the step replayed with its host-to-device copies beside the kernels (docs/replay.md)"
		}
		p.recommendWall(r, gain)
	},
}

// framework is the fix in PyTorch's terms on a capture that shows
// PyTorch, else in CUDA's: a CUDA sample is not told to use a DataLoader.
func (p *AppPass) framework(torch, cuda string) string {
	if p.ev.PyTorch() {
		return torch
	}
	return cuda
}
