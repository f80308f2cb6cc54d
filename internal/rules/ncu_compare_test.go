package rules_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

// TestCompareWithNCU sets profan's findings beside Nsight Compute's own rule
// results on the same captures (a --set full report imported to its details
// and source pages). Each row says whether each tool reports its rule for
// the kernel, and, where they disagree, why.
func TestCompareWithNCU(t *testing.T) {
	type row struct {
		capture     string
		kernel      string
		ncuRule     string
		profanRule  string
		ncu, profan bool
		whyDisagree string
	}
	rows := []row{
		{"copy", "1", "UncoalescedGlobalAccess", "uncoalesced-global", true, true, ""},
		{"copy", "5", "UncoalescedGlobalAccess", "uncoalesced-global", true, true, ""},
		{"copy", "8", "UncoalescedGlobalAccess", "uncoalesced-global", true, true, ""},
		{"copy", "0", "UncoalescedGlobalAccess", "uncoalesced-global", false, false, ""},
		{"copy", "3", "UncoalescedGlobalAccess", "uncoalesced-global", false, false, ""},
		{"indirect", "2", "UncoalescedGlobalAccess", "uncoalesced-global", true, true, ""},
		{"indirect", "3", "UncoalescedGlobalAccess", "uncoalesced-global", true, true, ""},
		{"indirect", "0", "UncoalescedGlobalAccess", "uncoalesced-global", false, false, ""},
		{"transpose", "2", "UncoalescedGlobalAccess", "uncoalesced-global", true, true, ""},
		{"transpose", "4", "UncoalescedGlobalAccess", "uncoalesced-global", false, false, ""},
		{"transpose", "3", "SharedMemoryConflicts", "shared-bank-conflict", true, true, ""},
		{"transpose", "3", "UncoalescedSharedAccess", "shared-bank-conflict", true, true, ""},
		{"transpose", "4", "SharedMemoryConflicts", "shared-bank-conflict", false, false, ""},
		{"indirect", "0", "LaunchConfiguration", "small-grid", true, true, ""},
		{"transpose", "0", "LaunchConfiguration", "small-grid", true, false,
			"ncu flags the partial fourth wave (3.9 waves per SM); profan reports a tail only when it idles at least 25% of the last wave's slots, and this one idles 3%"},
		{"copy", "0", "AchievedOccupancy", "low-occupancy", true, false,
			"ncu reports any gap between achieved (69%) and theoretical (100%) occupancy; profan only below 60% of theoretical, where latency hiding suffers"},
		{"indirect", "0", "AchievedOccupancy", "low-occupancy", true, false,
			"79 blocks for 132 SMs: profan names the cause once, as small-grid, instead of its symptom"},
		{"copy", "0", "SOLBottleneck", "latency-bound", true, true, ""},
		{"transpose", "2", "SOLBottleneck", "memory-bound", true, true, ""},
		{"copy", "6", "SOLBottleneck", "memory-bound", false, true,
			"ncu prints SOLBottleneck only when a unit is under its 60% mark or a bottleneck is obvious; profan always places the kernel on the roofline (info)"},
	}
	type key struct{ capture, kernel string }
	ncuRules := map[key]map[string]bool{}
	profanRules := map[key]map[string]bool{}
	eng, _ := rules.NewEngine("all")
	for _, c := range []string{"copy", "indirect", "transpose"} {
		src, _, err := ingest.SplitSourcePages([]string{"../../fixtures/ncu/" + c + ".source.cuda-sass.csv"})
		if err != nil {
			t.Fatal(err)
		}
		run, err := ingest.ReadFile("../../fixtures/ncu/"+c+".import.details.csv", ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range run.Kernels {
			src.AttachRun(nil, k)
			kk := key{c, k.ID}
			ncuRules[kk], profanRules[kk] = map[string]bool{}, map[string]bool{}
			for _, f := range k.Findings {
				if f.Type == "OPT" || f.Type == "WRN" {
					ncuRules[kk][f.Rule] = true
				}
			}
			for _, f := range analysis.Analyze(run, k, analysis.Options{Rules: eng}).Findings {
				profanRules[kk][f.Rule] = true
			}
		}
	}
	for _, r := range rows {
		kk := key{r.capture, r.kernel}
		if got := ncuRules[kk][r.ncuRule]; got != r.ncu {
			t.Errorf("%s kernel %s: ncu %s = %v, table says %v", r.capture, r.kernel, r.ncuRule, got, r.ncu)
		}
		if got := profanRules[kk][r.profanRule]; got != r.profan {
			t.Errorf("%s kernel %s: profan %s = %v, table says %v", r.capture, r.kernel, r.profanRule, got, r.profan)
		}
		if (r.ncu != r.profan) != (r.whyDisagree != "") {
			t.Errorf("%s kernel %s %s/%s: a disagreement needs a reason, an agreement none", r.capture, r.kernel, r.ncuRule, r.profanRule)
		}
	}
}
