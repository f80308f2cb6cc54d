package rules

import (
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// sdpa advises PyTorch's fused attention for attention written by hand.
var sdpa = &Rule{
	ID:    "sdpa",
	Title: "Hand-written attention: use scaled_dot_product_attention",
	Text: `Attention written as matmul, scale, masked_fill, softmax and matmul (and
their backward) runs a kernel per operation, each reading and writing the
T×T scores through DRAM. F.scaled_dot_product_attention runs it as one kernel
(FlashAttention for bf16/fp16, memory-efficient attention for FP32, cuDNN's) that
keeps the scores on chip: the scale, mask and softmax launches go, forward and
backward, and the two products stay at about their rate. The rule finds the
pattern in launch order: the launches between a product and a softmax, the
softmax, and the products beside it. Where fused attention kernels already
run, it says so and advises nothing.

The gain is the time of the scale, mask and softmax launches the pattern
holds.`,
	Before: `s = (q @ k.transpose(-2, -1)) * scale
s = s.masked_fill(mask, float("-inf"))
o = torch.softmax(s, dim=-1) @ v`,
	After:    `o = F.scaled_dot_product_attention(q, k, v, is_causal=True)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"attention-eager"},
	Optional: []string{"attention-fused"},
	CheckApp: func(p *AppPass) {
		if f := p.kernels("attention-fused"); len(f) > 0 {
			p.InUse("already fused attention: %s runs (%s of the time)", f[0].Info.Display, pct(timeOf(f)/p.total()))
			return
		}
		gs := p.kernels("attention-eager")
		saves := map[*analysis.Group]float64{}
		scores, products, launches := 0.0, 0.0, 0
		for _, g := range gs {
			s, pr := g.Attention()
			scores += s
			products += pr
			if s > 0 && g.Duration > 0 {
				saves[g] = s / g.Duration
				launches += g.Launches
			}
		}
		if scores <= 0 {
			return
		}
		p.Recommend(analysis.Recommendation{
			Message: fmt.Sprintf("attention is written by hand: the scale, mask and softmax kernels around each softmax read and write the T×T scores (%s of the time, forward and backward); the products beside them take %s", pct(scores/p.total()), pct(products/p.total())),
			Fix:     "o = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask or is_causal=True): one kernel keeps the scores on chip (FlashAttention in bf16/fp16, memory-efficient attention in FP32)",
			Groups:  gs, Gain: gainOf(saves, p.total()), Saves: saves,
			Basis:    "the time of the launches that read and write the scores; the products stay at their rate",
			Composes: "with everything; torch.compile fuses the same scale and mask launches less well, so the two overlap on them",
		})
	},
}
