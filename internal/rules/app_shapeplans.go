package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// shapePlans advises fixed shapes, or another backend, for an op that
// builds a plan on the host for each new shape it is called with.
var shapePlans = &Rule{
	ID:    "shape-plans",
	Title: "An op builds a plan on the host for each new shape: fix the shapes or change its backend",
	Text: `Some libraries build a plan on the host the first time an op meets a shape
(cuDNN's fused attention, which PyTorch's scaled_dot_product_attention runs in
bf16 and fp16 on recent GPUs; cuDNN's convolutions under cudnn.benchmark),
and take it from a cache afterwards. Where the shapes change from call to
call (a K/V cache read up to a growing position, batches padded to their own
longest), every new shape pays the build again: tens of milliseconds on the
host inside the op, with the GPU idle. The timeline names that time "op host
work" (a piece of one aten op's own span, outside any runtime call, of 5 ms
or more). The rule speaks where an op's long calls recur (in two or more of
its calls, no more than half of them) and, where the trace has the shapes
(record_shapes=True), come at a size the op's calls before them had not
shown. The fix: a fixed set of shapes (pad or bucket the lengths, the padding
masked, so a plan is built once a bucket and cached), or for attention a
backend that builds no plan (torch.nn.attention.sdpa_kernel with
SDPBackend.FLASH_ATTENTION, which takes no attn_mask, or
EFFICIENT_ATTENTION).

Priced by replaying the step (docs/replay.md) with each long call of the op
at what its median call costs the host, the rest of the step as it is.`,
	Before: `# the K/V cache read up to a position that grows every step
a = F.scaled_dot_product_attention(q, kc[:, :, :pos + t], vc[:, :, :pos + t], attn_mask=mask)`,
	After: `n = min(S_MAX, -(-(pos + t) // 64) * 64)   # the keys padded to a multiple of 64
a = F.scaled_dot_product_attention(q, kc[:, :, :n], vc[:, :, :n], attn_mask=mask[..., :n])
# or: with torch.nn.attention.sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION): ...`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		if tl == nil || !p.ev.PyTorch() {
			return
		}
		var plans []analysis.OpHost
		for _, o := range analysis.OpHosts(tl) {
			if o.Plans() {
				plans = append(plans, o)
			}
		}
		for _, g := range planGroups(plans) {
			o := g[0]
			names := make([]string, len(g))
			for i, x := range g {
				names[i] = x.Name
			}
			lever := analysis.Lever{OpHost: func(n string) bool { return slices.Contains(names, n) }}
			gain, ok := p.replay(lever)
			if !ok {
				continue
			}
			name := o.Name
			where := name
			for _, c := range tl.IdleOf(analysis.IdleOpHost).Calls {
				if c.Name == name && c.Frame != "" {
					where += " at " + c.Frame
					break
				}
			}
			msg := fmt.Sprintf("%s does long host work of its own in %d of its %d calls (%.2f ms a step traced, against %.3f ms in its median call)",
				where, o.Long, o.Calls, 1e3*o.LongTime, 1e3*o.Median)
			if o.Shapes > 0 {
				msg += fmt.Sprintf(", %d of them at a size of its work (record_shapes) none of its calls before had: it builds a plan for each new shape, and its shapes change between calls (%d sizes in the window)", o.New, o.Shapes)
			} else {
				msg += fmt.Sprintf(", in %d steps: a plan built for each new shape (the trace has no shapes: record_shapes=True shows them)", o.Steps)
			}
			msg += planCacheText(o)
			for _, b := range g[1:] {
				msg += fmt.Sprintf("; its backward (%s, on autograd's thread) too, in %d of its %d calls (%.2f ms a step traced, against %.3f ms in its median call)",
					b.Name, b.Long, b.Calls, 1e3*b.LongTime, 1e3*b.Median) + strings.Replace(planCacheText(b), ";", ":", 1)
			}
			fix := "give the op a fixed set of shapes: pad or bucket its inputs' lengths (to a multiple of 64, or a few buckets), the padding masked, so the library builds each plan once and takes it from its cache"
			if strings.Contains(name, "scaled_dot_product_attention") || strings.Contains(name, "_cudnn_attention") || strings.Contains(name, "CudnnAttentionBackward") {
				fix = "pad the keys and values to a fixed set of lengths (a multiple of 64, or a few buckets up to the cache's size), the padding masked in attn_mask, so cuDNN's attention builds one plan a bucket and takes it from its cache; or hold SDPA to a backend that builds no plan: with torch.nn.attention.sdpa_kernel(SDPBackend.FLASH_ATTENTION) (no attn_mask) or SDPBackend.EFFICIENT_ATTENTION around the loop"
			}
			basis := "the steady step (builds that recur at the window's rate, the others once a shape over the run: docs/replay.md) replayed with each of the op's long calls at its median call's host time, the rest as traced"
			if len(g) > 1 {
				basis = "the steady step (builds that recur at the window's rate, the others once a shape over the run: docs/replay.md) replayed with each long call of the op and of its backward at its median call's host time, the rest as traced"
			}
			p.recommendWall(analysis.Recommendation{
				Message:  msg,
				Fix:      fix,
				Basis:    basis,
				Composes: "with everything; CUDA graphs need the fixed shapes first",
				Lever:    &lever,
			}, gain)
		}
	},
}

// sdpaPlans is what a bf16 lever's advice says where the step's
// scaled_dot_product_attention changes shapes between calls: in bf16 or
// fp16 it may run on cuDNN's attention, which builds a plan on the host
// for each new shape (fixtures/host26's spec step: FP32 on the
// memory-efficient backend, 7.03 ms a step; bf16 on cuDNN's, 86.62 ms,
// 38 to 42 ms a build). Not priced: the FP32 trace cannot show which
// backend bf16 picks. "" where the shapes do not change (or are not
// recorded).
func sdpaPlans(p *AppPass) string {
	calls, sizes := analysis.OpSizes(p.timeline(), "aten::scaled_dot_product_attention")
	if calls < 4 || 4*sizes < calls {
		return ""
	}
	return fmt.Sprintf("; in 16 bits, scaled_dot_product_attention, whose shapes change between calls here (%d sizes of its work in %d calls, record_shapes), may run on cuDNN's attention, which builds a plan on the host for each new shape (tens of milliseconds each, not priced here: the trace cannot show which backend bf16 picks); pad the lengths to a fixed set, or hold SDPA to FLASH_ATTENTION or EFFICIENT_ATTENTION with torch.nn.attention.sdpa_kernel (see shape-plans)", sizes, calls)
}

// planCacheText says how the plan cache reads o's builds (OpHost's
// Distinct, Grow, Fill, Seen and Range): the distinct shapes its calls
// hold, and of its builds those that recur in the steady step and those
// that do not; "" where the trace has no shapes.
func planCacheText(o analysis.OpHost) string {
	if o.Distinct == 0 {
		return ""
	}
	var parts []string
	if o.Grow > 0 {
		parts = append(parts, fmt.Sprintf("%d beyond the shapes of its kind before it (a growing range: recurring at the window's rate)", o.Grow))
	}
	if o.Fill > 0 {
		parts = append(parts, fmt.Sprintf("%d inside their range (about %d sizes: each built once over the run, not in the steady step)", o.Fill, o.Range))
	}
	if o.Seen > 0 {
		parts = append(parts, fmt.Sprintf("%d at a shape a call before had (cached outside the profiler: not recurring)", o.Seen))
	}
	return fmt.Sprintf("; %d distinct shapes and %d builds in the window, %s", o.Distinct, o.Long, strings.Join(parts, ", "))
}

// planGroups groups the ops that build plans per shape for one lever: an
// aten op with the autograd nodes of its backward that build them too
// (cuDNN's SDPA builds a plan per new shape in the forward and again in
// ScaledDotProductCudnnAttentionBackward0 on autograd's thread,
// fixtures/host27's prune.bf16), priced together; a node no forward op
// of the list matches stands alone. In the list's order.
func planGroups(ops []analysis.OpHost) [][]analysis.OpHost {
	var out [][]analysis.OpHost
	taken := make([]bool, len(ops))
	for i, o := range ops {
		if taken[i] || !strings.HasPrefix(o.Name, "aten::") {
			continue
		}
		g := []analysis.OpHost{o}
		for j, b := range ops {
			if !taken[j] && j != i && backwardOf(o.Name, b.Name) {
				g = append(g, b)
				taken[j] = true
			}
		}
		taken[i] = true
		out = append(out, g)
	}
	for i, o := range ops {
		if !taken[i] {
			out = append(out, []analysis.OpHost{o})
		}
	}
	return out
}

// backwardOf reports an autograd node (its evaluate_function span) that
// is aten op op's backward: the op's words, in order, among the node's
// ("aten::scaled_dot_product_attention" in
// "ScaledDotProductCudnnAttentionBackward0").
func backwardOf(op, node string) bool {
	n, ok := strings.CutPrefix(node, "autograd::engine::evaluate_function: ")
	if !ok {
		return false
	}
	n = strings.TrimRight(n, "0123456789")
	n, ok = strings.CutSuffix(n, "Backward")
	if !ok {
		return false
	}
	var words []string
	start := 0
	for i := 1; i <= len(n); i++ {
		if i == len(n) || (n[i] >= 'A' && n[i] <= 'Z') {
			words = append(words, strings.ToLower(n[start:i]))
			start = i
		}
	}
	w := 0
	for _, x := range strings.Split(strings.TrimPrefix(op, "aten::"), "_") {
		if x == "" {
			continue
		}
		for w < len(words) && words[w] != x {
			w++
		}
		if w == len(words) {
			return false
		}
		w++
	}
	return true
}
