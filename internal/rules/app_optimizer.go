package rules

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// The bytes a foreach optimizer step moves over what the fused one does,
// in tensor passes (a read or a write of one parameter-sized tensor).
// AdamW's foreach step (torch.optim._multi_tensor_adamw): the weight decay
// (2), lerp of the first moment (3), the second moment's mul and addcmul
// (2 + 4), sqrt, division and eps of the denominator (2 + 2 + 2), and
// addcdiv into the parameter (4): 21; fused it reads the parameter, the
// gradient and both moments and writes three: 7. SGD with momentum:
// the buffer's mul and add (2 + 3) and the parameter's add (3): 8; fused
// 5.
const (
	adamForeachPasses, adamFusedPasses = 21.0, 7.0
	sgdForeachPasses, sgdFusedPasses   = 8.0, 5.0
)

// fusedOptimizer advises the fused implementation of the optimizer the
// kernels show.
var fusedOptimizer = &Rule{
	ID:    "fused-optimizer",
	Title: "Foreach optimizer: use the fused one",
	Text: `PyTorch's default (foreach) optimizers run the update as a kernel per
operation over the parameter lists: each reads and writes every parameter-sized
tensor it touches. The fused implementations (fused=True: Adam, AdamW, SGD,
Adagrad) do the whole update in one kernel per list, reading the parameter,
its gradient and the optimizer state once and writing them once. The rule
names the optimizer the kernels show (Adam's square root and lerp, SGD's
momentum add); where fused optimizer kernels already run, it says so.

The gain is the foreach kernels' time × (1 − fused passes / foreach passes):
AdamW 1 − 7/21, SGD with momentum 1 − 5/8 (tensor reads and writes per
parameter).`,
	Before:   `opt = torch.optim.AdamW(model.parameters(), lr=1e-3)`,
	After:    `opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"foreach-optimizer|fused-optimizer"},
	CheckApp: func(p *AppPass) {
		if f := p.kernels("fused-optimizer"); len(f) > 0 {
			p.InUse("already fused: the optimizer runs %s", f[0].Info.Display)
			return
		}
		foreach := p.kernels("foreach-optimizer")
		adam := false
		for _, g := range foreach {
			lower := strings.ToLower(g.Name)
			adam = adam || strings.Contains(lower, "sqrt") || strings.Contains(lower, "lerp") || strings.Contains(lower, "divides")
		}
		class, f := "SGD(..., fused=True)", 1-sgdFusedPasses/sgdForeachPasses
		if adam {
			class, f = "Adam/AdamW(..., fused=True)", 1-adamFusedPasses/adamForeachPasses
		}
		saves := saving(nil, f, foreach...)
		p.Recommend(analysis.Recommendation{
			Message: fmt.Sprintf("the optimizer step runs as %d foreach kernels (%d launches, %s of the time), each reading and writing the parameter lists once", len(foreach), launchesOf(foreach), pct(timeOf(foreach)/p.total())),
			Fix:     fmt.Sprintf("torch.optim.%s runs the whole update in one kernel per tensor list", class),
			Groups:  foreach, Gain: gainOf(saves, p.total()), Saves: saves,
			Basis:    fmt.Sprintf("%.0f%% of the foreach kernels' time: the tensor passes the fused kernel no longer makes", 100*f),
			Composes: "with everything",
		})
	},
}
