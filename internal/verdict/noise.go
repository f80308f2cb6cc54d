package verdict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/metrics"
)

// NoiseFloor is the share of the capture's kernel time under which a
// kernel's finding with a known gain is folded into one line: a 0.1%
// small-grid warning does not sit beside the real causes. The verdict
// decides what is folded (Fold); every surface renders that (text,
// Markdown and HTML fold it into one line, JSON marks it "folded"), and
// -v lists each.
const NoiseFloor = 0.005

// UnderFloor reports a finding whose known gain is under NoiseFloor
// (an info, which claims no gain, never is).
func UnderFloor(f GroupFinding) bool {
	return f.Severity > profan.Info && !math.IsNaN(f.CaptureGain) && f.CaptureGain < NoiseFloor
}

// Fold splits a group's findings into those shown and the rules folded
// under the noise floor; all (-v) folds none.
func Fold(g *Group, all bool) (shown []GroupFinding, folded []string) {
	for _, f := range g.Findings {
		if !all && UnderFloor(f) {
			folded = append(folded, f.Rule)
			continue
		}
		shown = append(shown, f)
	}
	return shown, folded
}

// FoldedText is the one line a group's folded findings get.
func FoldedText(rules []string) string {
	return FoldedHead(len(rules)) + " " + strings.Join(rules, ", ") + " (-v lists them)"
}

// FoldedHead is the start of that line, before the rules.
func FoldedHead(n int) string {
	what := "1 finding"
	if n != 1 {
		what = fmt.Sprintf("%d findings", n)
	}
	return fmt.Sprintf("%s under %s of the kernel time each, folded:", what, metrics.ShareText(NoiseFloor))
}

// Top is the finding a brief listing of the kernels names for a group,
// and its label: the group's first finding not folded under the noise
// floor, with its reach ("up to N of the kernel time") where its gain
// is known; ok is false for none. Every surface's ranking table renders
// it (text, Markdown, HTML).
func (g *Group) Top() (f GroupFinding, label string, ok bool) {
	i := slices.IndexFunc(g.Findings, func(f GroupFinding) bool { return !UnderFloor(f) })
	if i < 0 {
		return f, "", false
	}
	f = g.Findings[i]
	if !math.IsNaN(f.CaptureGain) && !math.IsInf(f.CaptureGain, 0) && f.CaptureGain > 0 {
		return f, fmt.Sprintf("%s (up to %s of the kernel time)", f.Rule, metrics.ShareText(f.CaptureGain)), true
	}
	return f, f.Rule, true
}

// Untopped is what a ranking table's row adds for a group no priced
// finding tops (none shown, or an info such as compute-bound first): its
// headroom in brief (Headroom.Brief), so that a kernel with time left
// that no rule explains never shows an empty cell or a bare bound; ""
// when a finding with a gain tops it or the headroom says nothing.
func (g *Group) Untopped() string {
	if f, _, ok := g.Top(); (ok && f.Severity > profan.Info) || g.Rep == nil {
		return ""
	}
	return g.Rep.Limiter.Headroom.Brief()
}
