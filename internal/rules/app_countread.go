package rules

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// countRead is the read that decides how many times the step's repeated
// work runs: a value read that recurs inside one call of the model's
// forward after the same ops (Timeline.Looped: the loop's body, the same
// kernels, between two of its reads) and that occurs a different number
// of times from one replayed step to the next (an adaptive solver's
// accept and stop tests, a loop until convergence: its count follows the
// values it reads); with the launches, by kernel name, issued from the
// loop's first read to the step's end. ok is false where the step has
// none (a loop of a fixed count, a decode of a fixed length).
func countRead(p *AppPass) (s analysis.Site, loop map[string]int, ok bool) {
	if !p.ev.PyTorch() || p.timeline() == nil {
		return s, nil, false
	}
	loop, looped := p.timeline().Looped(profan.ForwardFrame)
	if looped == "" {
		return s, nil, false
	}
	for _, s := range p.timeline().SyncSites() {
		if s.Site == looped && p.kindOf(s) == syncValue && (s.Most > s.Fewest || loopTest(s)) {
			return s, loop, true
		}
	}
	return s, nil, false
}

// recommendRounding adds r, a precision change of gs (its kernels' Saves
// and Lever), priced as Recommend prices it, but where the step's work
// is a loop whose count a read of its results decides (countRead) and
// most of gs's launches run from that loop's first read on: the change's
// rounding moves the values the read tests, so the loop may run another
// number of times (fixtures/host29b's adaptive Dormand-Prince solver:
// TF32 took 7.92 solver steps a training step against 3.92 in FP32, and
// the step ran 64.6% slower where TF32 was priced 35.7% faster; bf16 16
// to 34 steps, 392% slower). The price at the traced count holds only
// while the count stays, which the trace cannot tell: the advice says so,
// naming the read, gives that price as the traced count's, and is not
// priced (no gain, no lever: it leaves the combined replay and ranks
// below every priced change).
func (p *AppPass) recommendRounding(r analysis.Recommendation, what string) {
	s, loop, ok := countRead(p)
	inLoop, all := 0, 0
	for _, g := range r.Groups {
		inLoop += min(loop[g.Name], g.Launches)
		all += g.Launches
	}
	if !ok || 2*inLoop <= all {
		p.Recommend(r)
		return
	}
	traced := ""
	if w, _ := replayKernels(p.timeline(), r.Saves, r.Lever); w == w {
		traced = fmt.Sprintf(": at the traced count it would save %s of the wall, a price that holds only if the count stays", pct(w))
	}
	times := fmt.Sprintf("%d times in each traced step", s.Most)
	if s.Fewest < s.Most {
		times = fmt.Sprintf("%d to %d times a step", s.Fewest, s.Most)
	}
	r.Message += fmt.Sprintf("; but the step's work is a loop whose count the host decides from its results: %s recurs after the same kernels, %s (%d of these kernels' %d launches run from its first read on), and %s moves the values it tests, so the loop can run another number of times (more, where its test's tolerance is finer than the new rounding)%s",
		siteList([]analysis.Site{s}), times, inLoop, all, what, traced)
	r.Fix += fmt.Sprintf("; time it, counting the loop's iterations (the reads at %s) under the change against as traced", s.Frame)
	r.Basis = fmt.Sprintf("not priced: the count of the step's repeated work is decided by the host's reads of its results (%s), which the rounding moves; the trace shows the price at its own count only", s.Frame)
	r.Gain, r.Cost, r.Saves, r.Lever = 0, 0, nil, nil
	p.recommendWall(r, 0)
}

// loopTest reports a read of a tensor's truth (aten::is_nonzero: Python's
// if or while on a GPU tensor, bool()): a branch the host takes on the
// value, which in a loop decides whether it runs again.
func loopTest(s analysis.Site) bool {
	op, _, _ := strings.Cut(s.Site, " → ")
	if m, _, ok := strings.Cut(s.Site, "() → "); ok && strings.HasPrefix(m, ".") {
		op, _, _ = strings.Cut(strings.TrimPrefix(s.Site, m+"() → "), " → ")
	}
	return op == "aten::is_nonzero"
}
