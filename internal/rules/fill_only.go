package rules

import (
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// fillHit is the L2 hit rate (percent) under which a kernel's L2 passes
// DRAM's stream and holds nothing of its own.
const fillHit = 5.0

// fillOnly reports whether a kernel's L2 does no work but DRAM's fill
// and a fix that takes time off its SM turns it into a stream: its SM's
// pipes or issue slots limit it, under fillHit of its L2 sectors hit, and
// its global loads and stores are at their ideal sectors (no extra
// lookups). Its L2 moves the bytes DRAM moves, and its busy share above
// DRAM's is the wait on DRAM, which the stream its fix leaves, with
// every SM's warps loading, does not keep: such streams run L2 and DRAM
// at one share of their peaks (fixtures/sol-check27's rowlse_f64, a row
// log-sum-exp in fp64, FP64-bound: L2 52 % and DRAM 41 %, 0.42 % of its
// L2 sectors hits; its fp32 twin, the same 537 MB, ran L2 and DRAM at
// 94 %, 0.56 faster, where L2's 52 % kept said 0.42 at most). A kernel
// latency limits keeps the share: its fix leaves it short of DRAM's
// ceiling (sol-check16's colGemv<0>, 256 blocks: L2 44 % and DRAM 35 %,
// its twin 76 % and 64 %).
func fillOnly(p *Pass) bool {
	if p.Kernel.Limiter.Unit != analysis.LimitPipe {
		return false
	}
	hit, ok := p.Value("l2_hit_rate")
	if !ok || hit < 0 || hit >= fillHit {
		return false
	}
	m := p.Kernel.Model
	any := false
	for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
		if x == nil || !(x.Transactions > 0) {
			continue
		}
		if !(x.IdealSectorsPerRequest > 0) || x.SectorsPerRequest > x.IdealSectorsPerRequest*gpumodel.Slack {
			return false
		}
		any = true
	}
	return any
}
