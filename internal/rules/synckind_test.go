package rules

import (
	"testing"

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
		{".item() → aten::item → cudaStreamSynchronize at train.py(40): step", syncValue},
		{"aten::item → cudaStreamSynchronize", syncValue},
		{"torch.cuda.synchronize() → cudaDeviceSynchronize at train.py(51): main", syncAll},
		{"cudaDeviceSynchronize", syncAll},
		{".to() → aten::to → cudaStreamSynchronize at train.py(30): step", syncCopy},
	} {
		s := analysis.Site{Site: c.site}
		s.Method, s.Frame = verdict.SiteParts(c.site)
		if got := syncKind(s); got != c.want {
			t.Errorf("%s: %s, want %s", c.site, got, c.want)
		}
	}
}
