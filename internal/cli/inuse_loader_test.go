package cli

import (
	"encoding/json"
	"testing"
)

// TestLoaderWorkersInUse: a step already loading with DataLoader workers
// (host15's audio.all: num_workers=4, its thread waiting in
// _MultiProcessingDataLoaderIter.__next__) is not told to add workers;
// the lever is listed in use.
func TestLoaderWorkersInUse(t *testing.T) {
	t.Parallel()
	f := "../../fixtures/host15/audio.all.json.gz"
	out, errOut, code := run(t, "analyze", "-f", "json", f)
	if code != ExitOK {
		t.Fatalf("analyze %s: exit %d: %s", f, code, errOut)
	}
	var doc struct {
		Recommendations []struct {
			Rule string `json:"rule"`
		} `json:"recommendations"`
		InUse []struct {
			Rule string `json:"rule"`
		} `json:"levers_in_use"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Recommendations {
		if r.Rule == "data-loader" {
			t.Errorf("%s: data-loader advised on a step whose workers already load", f)
		}
	}
	inUse := false
	for _, u := range doc.InUse {
		inUse = inUse || u.Rule == "data-loader"
	}
	if !inUse {
		t.Errorf("%s: data-loader not listed in use", f)
	}
}
