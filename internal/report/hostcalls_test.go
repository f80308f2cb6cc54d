package report

import (
	"testing"

	"github.com/profan-dev/profan/internal/ingest"
)

// TestHostCallLines: an nsys export's API summaries, as analyze lists them
// and the JSON holds them, with the figures nsys printed (cuFCM:
// cudaDeviceSynchronize 93.2% of the CUDA API time, poll 50.0% of the
// OS runtime's).
func TestHostCallLines(t *testing.T) {
	run, err := ingest.ReadFile("../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"host CUDA API 13.495 s in 11176 calls: cudaDeviceSynchronize 12.583 s ×1403 (93.2%), cudaMemcpy 400.493 ms ×306 (3.0%), cudaFree 375.444 ms ×630 (2.8%), 6 more",
		"host OS runtime 34.890 s in 4685 calls: poll 17.430 s ×186 (50.0%), pthread_cond_timedwait 17.004 s ×34 (48.7%), ioctl 321.068 ms ×4069 (0.9%), 21 more",
	}
	got := hostCallLines(run)
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
	js := toJSONHostCalls(run)
	if len(js) != 33 || js[0].Name != "cudaDeviceSynchronize" || js[0].Calls != 1403 || *js[0].Total != 12.583106898 || js[0].OS || !js[9].OS || js[9].Name != "poll" {
		t.Errorf("JSON host calls: got %d, first %+v, tenth %+v", len(js), js[0], js[9])
	}
	run.Tool = "torch"
	if hostCallLines(run) != nil || toJSONHostCalls(run) != nil {
		t.Errorf("a PyTorch trace's calls listed apart from its timeline")
	}
}
