package rules

import (
	"testing"

	"github.com/profan-dev/profan"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// TestSyncKind: a sync site is sorted by the method the user called, else
// by the aten op in its name: data-dependent shapes (host-read), value
// reads (step-read), the device's synchronize (cuda-synchronize), copies.
func TestSyncKind(t *testing.T) {
	for _, c := range []struct{ site, want string }{
		{".tolist() → aten::to → cudaStreamSynchronize at moe.py(146): forward", syncShape},
		{".bincount() → aten::bincount → cudaStreamSynchronize at moe.py(146): forward", syncShape},
		{"aten::nonzero → cudaStreamSynchronize", syncShape},
		{"aten::index → cudaStreamSynchronize at host12.py(106): forward", syncShape},
		{"autograd::engine::evaluate_function: IndexBackward0 → cudaStreamSynchronize", syncShape},
		{"aten::index_put_ → cudaStreamSynchronize at train.py(12): step", syncShape},
		{"aten::index_select → cudaStreamSynchronize", syncValue},
		{".item() → aten::item → cudaStreamSynchronize at train.py(40): step", syncValue},
		{"aten::item → cudaStreamSynchronize", syncValue},
		{"torch.cuda.synchronize() → cudaDeviceSynchronize at train.py(51): main", syncAll},
		{"cudaDeviceSynchronize", syncAll},
		{".to() → aten::to → cudaStreamSynchronize at train.py(30): step", syncCopy},
		{"cudaEventSynchronize at host16.py(243): step", syncEvent},
		{".synchronize() → cudaEventSynchronize at train.py(60): step", syncEvent},
	} {
		s := analysis.Site{Site: c.site}
		s.Method, s.Frame = verdict.SiteParts(c.site)
		if got := syncKind(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.site, got, c.want)
		}
	}
}

// TestRankAfter: a recommendation that needs another's change first (CUDA
// graphs on a step a sync splits) ranks below it where it is advised,
// keeps its place where it is not, and two that name each other do not
// loop.
func TestRankAfter(t *testing.T) {
	rec := func(rule string, after ...string) analysis.Recommendation {
		return analysis.Recommendation{Rule: rule, After: after}
	}
	order := func(recs []analysis.Recommendation) string {
		s := ""
		for _, r := range rankAfter(recs) {
			s += r.Rule + " "
		}
		return s
	}
	for _, c := range []struct {
		in   []analysis.Recommendation
		want string
	}{
		{[]analysis.Recommendation{rec("cuda-graphs", "step-read", "host-sync"), rec("tf32"), rec("step-read"), rec("bf16")}, "tf32 step-read cuda-graphs bf16 "},
		{[]analysis.Recommendation{rec("cuda-graphs", "step-read", "host-sync"), rec("tf32"), rec("step-read"), rec("host-sync")}, "tf32 step-read host-sync cuda-graphs "},
		{[]analysis.Recommendation{rec("cuda-graphs", "pinned-memory"), rec("tf32")}, "cuda-graphs tf32 "},
		{[]analysis.Recommendation{rec("a", "b"), rec("b", "a")}, "a b "},
	} {
		if got := order(c.in); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestKindOf: a .cpu() is a value read, unless the capture copies a bulk
// transfer (bulkRead bytes or more) device-to-host into pageable memory:
// then it waits for the pageable copy, pinned-memory's sync.
func TestKindOf(t *testing.T) {
	site := analysis.Site{Site: ".cpu() → aten::to → cudaStreamSynchronize at host16.py(243): step"}
	site.Method, site.Frame = verdict.SiteParts(site.Site)
	item := analysis.Site{Site: ".item() → aten::item → cudaStreamSynchronize at train.py(40): step"}
	item.Method, item.Frame = verdict.SiteParts(item.Site)
	for _, c := range []struct {
		bytes     float64
		dst       string
		cpu, item string
	}{
		{25.7e6, "Pageable", syncCopy, syncValue},
		{4096, "Pageable", syncValue, syncValue},
		{25.7e6, "Pinned", syncValue, syncValue},
	} {
		run := &profan.Run{Activities: []*profan.Activity{{Kind: "memcpy DtoH", Bytes: c.bytes, SrcMemType: "Device", DstMemType: c.dst}}}
		p := &AppPass{ev: &analysis.AppEvidence{Runs: []*profan.Run{run}}}
		if got := p.kindOf(site); got != c.cpu {
			t.Errorf("%.0f bytes to %s: .cpu() is %s, want %s", c.bytes, c.dst, got, c.cpu)
		}
		if got := p.kindOf(item); got != c.item {
			t.Errorf("%.0f bytes to %s: .item() is %s, want %s", c.bytes, c.dst, got, c.item)
		}
	}
}
