package metrics_test

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/metrics"
)

// TestDeriveIndexed: the launches of a details page share their metric
// index, through which a source definition finds its names once
// (srcIndexed); what they derive is what the same metrics give a kernel
// with no shared index, name by name. Also with a metric no number (its
// next candidate read) and a metric renamed in place after the index was
// shared (the kernel then looked up by name).
func TestDeriveIndexed(t *testing.T) {
	files, _ := filepath.Glob("../../fixtures/ncu/*.details.csv")
	if len(files) < 5 {
		t.Fatalf("%d details pages found", len(files))
	}
	var dev metrics.Device
	if s, ok := gpumodel.Lookup("H100"); ok {
		dev = metrics.Device{Name: s.Name, SMs: s.SMs, PeakBandwidth: s.PeakBandwidth()}
	}
	indexed := 0
	for _, f := range files {
		_, err := ingest.ReadFiles([]string{f}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
			if k.Index() != nil {
				indexed++
			}
			for variant := range 3 {
				switch variant {
				case 1: // the first numeric metric no number
					for i := range k.Metrics {
						if k.Metrics[i].IsNumber() {
							k.Metrics[i].Value = math.NaN()
							break
						}
					}
				case 2: // a metric renamed in place
					if len(k.Metrics) > 0 {
						k.Metrics[0].Name = "renamed"
					}
				}
				plain := k.Clone() // the same kernel, its metrics indexed by name
				ms := plain.Metrics
				plain.Metrics = nil
				plain.IndexedLike(nil)
				for _, m := range ms {
					plain.AddMetric(m)
				}
				if plain.Index() != nil {
					t.Fatal("the copy shares the index")
				}
				got, want := metrics.Derive(k, dev), metrics.Derive(plain, dev)
				if !reflect.DeepEqual(got.Values, want.Values) || !reflect.DeepEqual(got.Warnings, want.Warnings) {
					t.Errorf("%s: launch %s, variant %d: derived through the shared index\n%+v\nby name\n%+v", f, k.ID, variant, got.Values, want.Values)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if indexed == 0 {
		t.Error("no launch shared an index: the test tests nothing")
	}
}
