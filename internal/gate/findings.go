package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/rules"
)

// gated says whether a finding of rule on group g fails the gate, and
// when the group's share of the capture keeps it from failing, why.
func gated(p Policy, cur *analysis.Grouper, g *analysis.Group, f profan.Finding) (bool, string) {
	if !p.Selector.Fails(f.Rule) && !(p.Lint && f.Severity >= profan.Warning) {
		return false, ""
	}
	if share := cur.ShareOf(g); exceeds(p.MinShare, share) {
		return false, fmt.Sprintf(" (not gated: the kernel takes %s of the capture, under --min-share %s)", fmtShare(share), fmtPct(p.MinShare))
	}
	return true, ""
}

// findingChecks turns the verdicts' findings into checks, one per kernel
// group and rule: failing for the rules the selector fails on (or, for a
// linter, warnings) on groups that take at least p.MinShare of the
// capture, informational for the others; suppressed findings are listed
// as such.
func findingChecks(cur *analysis.Grouper, runs []*analysis.RunVerdict, p Policy) []Check {
	var out []Check
	for _, r := range runs {
		src := r.Run.Source
		for _, f := range r.Findings {
			ch := Check{Kernel: src, Kind: kindRunFinding, Name: f.Rule, Message: f.Message, Source: src, Finding: &f, Locations: f.Locations, Status: statusPass}
			if p.Selector.Fails(f.Rule) || p.Lint && f.Severity >= profan.Warning {
				ch.Status = statusFail
			}
			out = append(out, ch)
		}
		for _, s := range r.Suppressed {
			f := s.Finding
			out = append(out, Check{Kernel: src, Kind: kindRunFinding, Name: f.Rule, Source: src, Finding: &f, Locations: f.Locations,
				Status: statusSuppressed, Message: f.Message + " (suppressed: " + s.Reason + ")"})
		}
	}
	// The groups and their findings in analyze's order (one verdict, in
	// one order on every surface): longest group first, its findings by
	// the share of the capture they could save.
	for _, g := range cur.Groups() {
		on := func(t *analysis.GroupFinding) string {
			if g.Launches == 1 {
				return ""
			}
			return fmt.Sprintf(" (on %d of %d launches)", t.Launches, g.Launches)
		}
		for _, rule := range rankedRules(g) {
			t := g.ByRule()[rule]
			// The group's finding analyze, report and the JSON state
			// (the representative launch's, else the one that could save
			// the most), never a message of another launch.
			f := t.Finding
			ch := Check{Kernel: g.Name, Launch: launchOf(g), Kind: kindFinding, Name: rule, Message: f.Message + on(t), Source: g.Source, Finding: &f, Locations: f.Locations,
				Measure: shareMeasure(cur, g, p), Headroom: headroom(g)}
			// Stored verdicts made before a suppression was configured.
			if reason, sup := p.Selector.Suppressed(rule, g.First.Record); sup {
				ch.Status, ch.Message = statusSuppressed, ch.Message+" (suppressed: "+reason+")"
			} else if fail, why := gated(p, cur, g, f); fail {
				ch.Status = statusFail
			} else {
				ch.Status, ch.Message = statusPass, ch.Message+why // reported, not gated
			}
			out = append(out, ch)
		}
		for _, rule := range sortedRules(g.SuppressedByRule()) {
			t := g.SuppressedByRule()[rule]
			f := t.Finding
			out = append(out, Check{Kernel: g.Name, Launch: launchOf(g), Kind: kindFinding, Name: rule, Source: g.Source, Finding: &f, Locations: f.Locations,
				Status: statusSuppressed, Message: f.Message + on(t) + " (suppressed: " + t.Reason + ")", Headroom: headroom(g)})
		}
	}
	return out
}

// MissingRuleError reports a rule --fail-on names that could run on no
// kernel for want of counters, under SkipMissing: a gate that checks
// nothing must not pass.
type MissingRuleError struct {
	Rule, Needs, Command string
}

func (e *MissingRuleError) Error() string {
	m := analysis.Missing{Rule: e.Rule, Needs: e.Needs}
	return fmt.Sprintf("--fail-on %s: no kernel has %s, so nothing would be checked (%s: %s)", e.Rule, lacksText(m), addText(m), e.Command)
}

// unrunOn is what the rules could not look at on a: the counters they
// lack (a.Missing), the source page of the rules that read it alone
// (constant-serialization, int-division, ...) and a torch.profiler
// trace's counters (rules.Unrun), where a gate once passed green having
// looked at nothing.
func unrunOn(a *analysis.Kernel, p Policy) []analysis.Missing {
	out := a.Missing
	for _, r := range rules.All {
		if !p.Selector.FailsNamed(r.ID) {
			continue
		}
		if m, ok := rules.Unrun(r, a); ok {
			out = append(slices.Clip(out), m)
		}
	}
	return out
}

// lacksText is what a kernel lacks for m's rule: the source page, or
// the counters it needs.
func lacksText(m analysis.Missing) string {
	if sourceLacked(m) {
		return m.Needs
	}
	return "the counters it needs (" + m.Needs + ")"
}

// addText introduces the command that adds what m lacks.
func addText(m analysis.Missing) string {
	if sourceLacked(m) {
		return "add it"
	}
	return "add them"
}

// sourceLacked reports an m of rules.SourceUnrun: the source page lacked.
func sourceLacked(m analysis.Missing) bool {
	r, ok := rules.ByID(m.Rule)
	return ok && r.NeedsSource && strings.HasPrefix(m.Needs, "the source page")
}

// unrunChecks holds the rules --fail-on names by their ID to what
// --require holds a metric to: on a kernel group the rule could not run
// on for want of counters, the gate cannot tell whether the finding is
// there, and fails (as a missing metric does), or with SkipMissing skips
// the group; a named rule that could run on no group at all is then a
// MissingRuleError. A rule reached through "all" or a glob is not held:
// an export lacks some rule's counters as a rule.
func unrunChecks(cur *analysis.Grouper, p Policy) ([]Check, error) {
	var out []Check
	ran := map[string]bool{}
	var unrun []analysis.Missing
	for _, g := range cur.InOrder() {
		if g.First == nil {
			continue
		}
		lacks := map[string]bool{}
		for _, m := range unrunOn(g.First, p) {
			if !p.Selector.FailsNamed(m.Rule) || lacks[m.Rule] {
				continue
			}
			lacks[m.Rule] = true
			if !slices.ContainsFunc(unrun, func(x analysis.Missing) bool { return x.Rule == m.Rule }) {
				unrun = append(unrun, m)
			}
			ch := Check{Kernel: g.Name, Launch: launchOf(g), Kind: kindFinding, Name: m.Rule, Source: g.Source, Measure: shareMeasure(cur, g, p),
				Message: fmt.Sprintf("%s could not run: the export lacks %s, so this kernel cannot be checked for it (%s: %s; --skip-missing skips such kernels)", m.Rule, lacksText(m), addText(m), m.Command)}
			reason, suppressed := p.Selector.Suppressed(m.Rule, g.First.Record)
			switch share := cur.ShareOf(g); {
			case suppressed:
				ch.Status, ch.Message = statusSuppressed, ch.Message+" (suppressed: "+reason+")"
			case p.SkipMissing:
				ch.Status = statusSkip
			case exceeds(p.MinShare, share):
				ch.Status, ch.Message = statusPass, ch.Message+fmt.Sprintf(" (not gated: the kernel takes %s of the capture, under --min-share %s)", fmtShare(share), fmtPct(p.MinShare))
			default:
				ch.Status = statusFail
			}
			out = append(out, ch)
		}
		for _, r := range rules.All {
			if p.Selector.FailsNamed(r.ID) && !lacks[r.ID] {
				ran[r.ID] = true
			}
		}
	}
	if p.SkipMissing {
		for _, m := range unrun {
			if !ran[m.Rule] {
				return nil, &MissingRuleError{Rule: m.Rule, Needs: m.Needs, Command: m.Command}
			}
		}
	}
	return out, nil
}

// rankedRules are the rules of g's findings in the group's ranking (the
// order analyze gives them), then any other rule g.ByRule holds, by name.
func rankedRules(g *analysis.Group) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range g.Findings {
		if _, ok := g.ByRule()[f.Rule]; ok && !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	for _, r := range sortedRules(g.ByRule()) {
		if !seen[r] {
			out = append(out, r)
		}
	}
	return out
}
