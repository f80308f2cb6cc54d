package rules

import (
	"testing"

	"github.com/profan-dev/profan"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// TestSyncKind: a sync site is sorted by the method the user called, else
// by the aten op in its name: data-dependent shapes (host-read), value
// reads (step-read), the device's synchronize (cuda-synchronize), copies;
// a shape method's read never between two launches of its step is a
// value read (a metric), and a sync inside an op of the user's that
// waits for a device-to-host copy the op's argument read (host-read).
func TestSyncKind(t *testing.T) {
	for _, c := range []struct {
		site, want    string
		inside, reads int
	}{
		{site: ".tolist() → aten::to → cudaStreamSynchronize at moe.py(146): forward", want: syncShape, inside: 16},
		{site: ".bincount() → aten::bincount → cudaStreamSynchronize at moe.py(146): forward", want: syncShape, inside: 32},
		{site: ".tolist() → aten::to → cudaStreamSynchronize at host20.py(233): cer", want: syncValue, reads: 4},
		{site: "aten::ctc_loss → cudaStreamSynchronize at host20.py(249): step", want: syncArg, inside: 32, reads: 16},
		{site: "autograd::engine::evaluate_function: CtcLossBackward0 → cudaStreamSynchronize", want: syncArg, inside: 12, reads: 8},
		{site: "aten::item → cudaStreamSynchronize", want: syncValue, reads: 4},
		{site: "aten::nonzero → cudaStreamSynchronize", want: syncShape},
		{site: "aten::index → cudaStreamSynchronize at host12.py(106): forward", want: syncShape},
		{site: "autograd::engine::evaluate_function: IndexBackward0 → cudaStreamSynchronize", want: syncShape},
		{site: "aten::index_put_ → cudaStreamSynchronize at train.py(12): step", want: syncShape},
		{site: "aten::index_select → cudaStreamSynchronize", want: syncValue},
		{site: ".item() → aten::item → cudaStreamSynchronize at train.py(40): step", want: syncValue},
		{site: "aten::item → cudaStreamSynchronize", want: syncValue},
		{site: "torch.cuda.synchronize() → cudaDeviceSynchronize at train.py(51): main", want: syncAll},
		{site: "cudaDeviceSynchronize", want: syncAll},
		{site: ".to() → aten::to → cudaStreamSynchronize at train.py(30): step", want: syncCopy},
		{site: "cudaEventSynchronize at host16.py(243): step", want: syncEvent},
		{site: ".synchronize() → cudaEventSynchronize at train.py(60): step", want: syncEvent},
	} {
		s := analysis.Site{Site: c.site, Inside: c.inside, Reads: c.reads}
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

// TestSizingRead: a scalar read (aten::item, int() or .item()) between
// the step's launches whose following shapes change at it (Site.Sizes)
// is a shape read; the same read with no such change, one after the
// step's last launch, a branch's test (aten::is_nonzero) and a .tolist()
// (a shape method already) stay what syncKind says. A tensor read back
// (.to("cpu"), .cpu(): a device-to-host copy waited for, Site.Reads)
// whose following shapes change at it is one too (fixtures/host37's
// sent: the lengths for pack_padded_sequence); an upload's sync (no
// read) stays a copy's.
func TestSizingRead(t *testing.T) {
	p := &AppPass{ev: &analysis.AppEvidence{}}
	for _, c := range []struct {
		site                 string
		inside, sizes, reads int
		want                 string
	}{
		{".to() → aten::to → cudaStreamSynchronize at host37.py(339): forward", 4, 3, 4, syncShape},
		{".to() → aten::to → cudaStreamSynchronize at host37.py(339): forward", 4, 0, 4, syncCopy},
		{".to() → aten::to → cudaStreamSynchronize at host37.py(376): step", 4, 3, 0, syncCopy},
		{".cpu() → aten::to → cudaStreamSynchronize at train.py(40): step", 4, 2, 4, syncShape},
		{"aten::item → cudaStreamSynchronize at host27.py(285): prune", 12, 1, 0, syncShape},
		{"aten::item → cudaStreamSynchronize at host27.py(285): prune", 12, 0, 0, syncValue},
		{"aten::item → cudaStreamSynchronize at host25.py(213): forward", 4, 0, 0, syncValue},
		{".item() → aten::item → cudaStreamSynchronize at train.py(40): step", 4, 2, 0, syncShape},
		{".item() → aten::item → cudaStreamSynchronize at train.py(40): step", 0, 2, 0, syncValue},
		{"aten::is_nonzero → cudaStreamSynchronize at train.py(40): step", 4, 2, 0, syncValue},
		{".tolist() → aten::to → cudaStreamSynchronize at moe.py(146): forward", 16, 0, 0, syncShape},
	} {
		s := analysis.Site{Site: c.site, Count: c.inside, Inside: c.inside, Sizes: c.sizes, Reads: c.reads}
		s.Method, s.Frame = verdict.SiteParts(c.site)
		if got := p.kindOf(s); got != c.want {
			t.Errorf("%s (inside %d, sizes %d): %s, want %s", c.site, c.inside, c.sizes, got, c.want)
		}
	}
}
