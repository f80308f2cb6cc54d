package analysis_test

import (
	"math"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
)

// TestEfficiencyOnlyWidth holds an access the export measured only by
// its efficiency to what a warp can move: sol-check26's wDeq8<0> reads
// int8 weights (with float scales) a row of 8192 bytes apart, and its
// details page, without the source page, gives the loads' efficiency
// from ncu's rule text alone (3.44 %). Read against 4-byte words that
// is 116 sectors a request, more than the 32 a warp's accesses touch;
// the width that can waste so much is 1 byte: 29.09 a request, ideal 1.
// The stores (12.5 %, 4-byte floats) stay at 32 against 4.
func TestEfficiencyOnlyWidth(t *testing.T) {
	type want struct{ spr, ideal float64 }
	got := map[string][2]want{}
	_, err := ingest.ReadFiles([]string{"../../fixtures/sol-check26/sol_check26.details.csv.gz"}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		if !strings.HasPrefix(k.Name, "void wDeq8<0>") {
			return nil
		}
		a := analysis.Analyze(run, k, analysis.Options{})
		if a.Model.GlobalLoad == nil || a.Model.GlobalStore == nil {
			t.Fatalf("%s: no global load or store read", k.Name)
		}
		got[k.ID] = [2]want{{a.Model.GlobalLoad.SectorsPerRequest, a.Model.GlobalLoad.IdealSectorsPerRequest},
			{a.Model.GlobalStore.SectorsPerRequest, a.Model.GlobalStore.IdealSectorsPerRequest}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d launches of wDeq8<0>, want 2", len(got))
	}
	for id, g := range got {
		if math.Abs(g[0].spr-29.09) > 0.01 || g[0].ideal != 1 {
			t.Errorf("launch %s: loads %.2f sectors a request, ideal %.2f; want 29.09, ideal 1", id, g[0].spr, g[0].ideal)
		}
		if math.Abs(g[1].spr-32) > 0.01 || math.Abs(g[1].ideal-4) > 1e-9 {
			t.Errorf("launch %s: stores %.2f sectors a request, ideal %.2f; want 32, ideal 4", id, g[1].spr, g[1].ideal)
		}
	}
}
