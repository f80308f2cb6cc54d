package rules

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan/internal/analysis"
)

// Per-tensor reads: a list of tensors walked in Python with one read a
// tensor (a gradient norm's .norm(2).item() a parameter), told from a
// loop's stop test by what each read reads back (analysis.Site.Tensors):
// work of many sizes in one step where a stop test's every iteration
// reads the same.
const (
	walkReads   = 8 // the least reads a step of a per-tensor walk
	walkTensors = 4 // the least distinct sizes its reads read back a step
)

// tensorWalk is the first of sites whose reads are a per-tensor walk:
// walkReads or more a step, the same number in every step (a list's
// length), reading back work of walkTensors sizes or more in a step.
func tensorWalk(sites []analysis.Site, steps int) (analysis.Site, bool) {
	for _, s := range sites {
		if s.Count >= walkReads*max(steps, 1) && s.Fewest == s.Most && s.Tensors >= walkTensors {
			return s, true
		}
	}
	return analysis.Site{}, false
}

// normOps are the aten ops of a norm: a per-tensor walk's values
// reduced with torch._foreach_norm.
var normOps = map[string]bool{"aten::linalg_vector_norm": true, "aten::norm": true, "aten::frobenius_norm": true}

// walkText is step-read's message and fix for a per-tensor walk (w) among
// the step's reads (sites): its reads a step, the sizes they read back,
// and the list reduced on the GPU in one call, kept there and read every
// N steps; the other reads' fix (other) after it where there are others.
func walkText(w analysis.Site, sites []analysis.Site, steps int, other string) (msg, fix string) {
	where := w.Frame
	if where == "" {
		where = w.Site
	}
	what := "an op"
	if w.TensorOp != "" {
		what = w.TensorOp
	}
	msg = fmt.Sprintf("the host reads a GPU value every step: %s; at %s the reads walk a list of tensors in Python, one read a tensor: about %d reads a step, each after %s on a tensor of its own (%d sizes in a step), not a loop's stop test",
		siteList(sites), where, w.Count/max(steps, 1), what, w.Tensors)
	if normOps[w.TensorOp] {
		fix = fmt.Sprintf("reduce the whole list on the GPU in one call and keep the result there: torch._foreach_norm(tensors) gives every tensor's norm in a few multi-tensor launches (a gradient norm: torch.linalg.vector_norm(torch.stack(torch._foreach_norm(grads))), divided by the scale on the GPU; torch.nn.utils.clip_grad_norm_ computes it so), appended to a list on the GPU and read every N steps (every %d) for a log line: no read a tensor, no read a step", readEvery)
	} else {
		fix = fmt.Sprintf("compute the values for the whole list on the GPU at once (a torch._foreach_* op over the list, or torch.stack of the per-tensor results) and keep them there, read every N steps (every %d) for a log line: no read a tensor, no read a step", readEvery)
	}
	if len(sites) > 1 && !strings.Contains(fix, other) {
		fix += "; the step's other reads: " + other
	}
	return msg, fix
}
