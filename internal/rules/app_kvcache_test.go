package rules_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/rules"
)

// TestKVCacheGrowing: a cache is read by its mechanism. A decode loop's
// torch.cat grows its key/value cache one token a call (fixtures/timeline:
// grids of 64, 65, 66… blocks); a UNet's skip connections (fixtures/host8,
// host10, host11) and a single decode token (fixtures/check7) cat a few
// fixed shapes, and static-kv-cache advises nothing on them.
func TestKVCacheGrowing(t *testing.T) {
	skipShort(t)
	for _, c := range []struct {
		file    string
		growing bool
	}{
		{"../../fixtures/timeline/decode_sync.json.gz", true},
		{"../../fixtures/timeline/decode_nosync.json.gz", true},
		{"../../fixtures/check7/decode.default.json.gz", false},
		{"../../fixtures/host8/unet.fp32.json.gz", false},
		{"../../fixtures/host8/unet.tf32.json.gz", false},
		{"../../fixtures/host10/unet4.fp32.json.gz", false},
		{"../../fixtures/host11/unet.tf32.r1.json.gz", false},
		{"../../fixtures/host11/unet.tf32.r2.json.gz", false},
		{"../../fixtures/host11/unet.bf16.r1.json.gz", false},
	} {
		t.Run(c.file, func(t *testing.T) {
			ev := appEvidence(t, c.file)
			cats := ev.Kernels("kv-cat")
			if len(cats) == 0 {
				t.Fatal("no torch.cat copies")
			}
			if got := rules.Growing(cats); got != c.growing {
				t.Errorf("growing = %v, want %v", got, c.growing)
			}
			e, _ := rules.NewEngine("all")
			for _, r := range e.Recommend(ev).Recommendations {
				if r.Rule == "static-kv-cache" && !c.growing {
					t.Errorf("advised on copies that do not grow: %s", r.Message)
				}
			}
		})
	}
}
