package rules

import (
	"strings"
	"sync"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
)

// The commands that add what a rule needs, by what the export lacks.
const (
	cmdRawPage    = "ncu --import r.ncu-rep --csv --page raw > r.raw.csv"
	cmdFullSet    = "ncu --set full -o r ./app, then " + cmdRawPage
	cmdSourcePage = "ncu --import r.ncu-rep --csv --page source --print-source cuda,sass > r.source.csv"
	// cmdTraceKernel profiles a traced kernel alone: its counters and its
	// source page.
	cmdTraceKernel = "ncu --set full -k regex:<its name> -o r ./app, then " + cmdRawPage + " and " + cmdSourcePage
)

// missingOf says, for a rule r skipped on a for want of needs, what the
// user runs to give it its counters; false when no command adds them (or
// nothing is missing).
//
// page is what page a.Record comes from, found at the first need of it
// and kept for the rules after (its metrics are read once a launch).
func missingOf(a *analysis.Kernel, r *Rule, needs string, page *pageKind) (analysis.Missing, bool) {
	m := analysis.Missing{Rule: r.ID, Needs: intern(needs)}
	if noAccesses(a, needs) {
		return m, false
	}
	tool := ""
	if a.Run != nil {
		tool = a.Run.Tool // a streamed run knows its tool, not yet its format
	}
	switch tool {
	case profan.ToolNCU:
		if !page.known {
			page.details, page.full = detailsPage(a.Record)
			page.known = true
		}
		details, full := page.details, page.full
		switch {
		case full && r.NCURule != "":
			return m, false
		case full:
			m.Command = cmdRawPage
		case details && r.NCURule != "":
			m.Command = "ncu --set full -o r ./app, then ncu --import r.ncu-rep --csv (its rule rows) or " + cmdRawPage
		default:
			m.Command = cmdFullSet
		}
	case profan.ToolNvprof:
		var names []string
		for _, group := range r.Requires {
			for _, n := range strings.Split(group, "|") {
				if d, ok := metrics.ByName(n); ok && strings.Contains(d.Nvprof, n) {
					names = append(names, n)
					break
				}
			}
		}
		if len(names) == 0 {
			m.Command = "nvprof has no counter for it: " + cmdFullSet
		} else {
			m.Command = intern("nvprof --metrics " + strings.Join(names, ",") + " ./app")
		}
	case profan.ToolNsys:
		m.Command = "nsys exports kernel times only: " + cmdFullSet
	default:
		return m, false
	}
	return m, true
}

// Needs is what a kernel rule needs to run, as explain and
// docs/reference.md say it: its Requires, and ncu's source page where it
// reads that page alone (NeedsSource).
func (r *Rule) Needs() string {
	needs := strings.ReplaceAll(strings.Join(r.Requires, ", "), "|", " or ")
	if r.NeedsSource {
		needs += ", ncu's source page (SASS)"
	}
	return needs
}

// SourceUnrun is what r lacks on a, where r reads ncu's source page alone
// (NeedsSource) and a has none: a gate that names r cannot tell whether
// its finding is there, as for a rule skipped for want of counters. false
// where r reads more than that page, a has it, or no command adds it.
func SourceUnrun(r *Rule, a *analysis.Kernel) (analysis.Missing, bool) {
	if !r.NeedsSource || len(a.Record.Source) > 0 || a.Run == nil {
		return analysis.Missing{}, false
	}
	m := analysis.Missing{Rule: r.ID, Needs: "the source page, whose SASS it reads"}
	switch a.Run.Tool {
	case profan.ToolNCU:
		m.Command = cmdSourcePage
	case profan.ToolNvprof, profan.ToolNsys:
		m.Command = "ncu --set full -o r ./app, then " + cmdSourcePage
	case profan.ToolTorch:
		m.Command = cmdTraceKernel
	default:
		return analysis.Missing{}, false
	}
	return m, true
}

// Unrun is what r could not look at on a, beyond the counters a.Missing
// names: the source page of a rule that reads it alone (SourceUnrun), and
// on a torch.profiler trace, whose kernels have no counters and which
// missingOf gives no command, the counters r was skipped for. A gate that
// names r holds it to these as to missing counters: it passed green on a
// trace, having looked at nothing (gate trace.json --fail-on
// uncoalesced-global), where an nsys trace failed.
func Unrun(r *Rule, a *analysis.Kernel) (analysis.Missing, bool) {
	if m, ok := SourceUnrun(r, a); ok {
		return m, true
	}
	if r.Check == nil || a.Run == nil || a.Run.Tool != profan.ToolTorch {
		return analysis.Missing{}, false
	}
	for _, s := range a.Skipped {
		if needs, ok := strings.CutPrefix(s, r.ID+": needs "); ok {
			return analysis.Missing{Rule: r.ID, Needs: needs, Command: cmdTraceKernel}, true
		}
	}
	return analysis.Missing{}, false
}

// interned holds one copy of each note's needs and command (a bounded set:
// rules by counters). The launches of a trace repeat their notes, which the
// store's verdict cache and the counts compare launch by launch: one copy
// makes each string's comparison a pointer's (a trace's ingest spent 10 %
// comparing equal notes byte by byte).
var interned sync.Map

func intern(s string) string {
	if v, ok := interned.Load(s); ok {
		return v.(string)
	}
	v, _ := interned.LoadOrStore(s, s)
	return v.(string)
}

// sourceMissing is what a finding that names no line lacks: ncu's source
// page, which gives the instruction and its line.
func sourceMissing(a *analysis.Kernel, f profan.Finding) (analysis.Missing, bool) {
	if a.Run == nil || a.Run.Tool != profan.ToolNCU || len(a.Record.Source) > 0 || len(f.Locations) > 0 {
		return analysis.Missing{}, false
	}
	if r, ok := ByID(f.Rule); !ok || r.NCURule == "" {
		return analysis.Missing{}, false
	}
	return analysis.Missing{Rule: f.Rule, Needs: "the source page, for the instruction and its line", Command: cmdSourcePage}, true
}

// pageKind is what detailsPage says of a kernel, once known.
type pageKind struct{ known, details, full bool }

// detailsPage reports whether k comes from a details page (its metrics
// carry section names), and whether that page holds the sections of --set
// full (Source Counters, Memory Workload Analysis), whose ncu rules quote
// the sectors and wavefronts.
func detailsPage(k *profan.Kernel) (details, full bool) {
	for _, m := range k.Metrics {
		if strings.HasPrefix(m.Section, "Source Counters") || strings.HasPrefix(m.Section, "Memory Workload Analysis") {
			return true, true
		}
		details = details || strings.HasPrefix(m.Section, "GPU Speed Of Light")
	}
	return details, false
}

// requestsOf names the requests behind a per-request metric.
var requestsOf = map[string]string{
	"gld_transactions_per_request":          "global_load_requests",
	"gst_transactions_per_request":          "global_store_requests",
	"shared_load_transactions_per_request":  "shared_load_requests",
	"shared_store_transactions_per_request": "shared_store_requests",
}

// noAccesses reports whether every per-request metric a rule needs is
// missing only because the export counted no requests: the kernel makes no
// such accesses, and nothing is missing.
func noAccesses(a *analysis.Kernel, needs string) bool {
	any := false
	for _, n := range strings.Split(needs, " or ") {
		req, ok := requestsOf[n]
		if !ok {
			return false
		}
		if v, ok := a.Value(req); !ok || v != 0 {
			return false
		}
		any = true
	}
	return any
}
