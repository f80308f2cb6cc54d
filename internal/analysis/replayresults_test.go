package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/rules/rulestest"
)

// TestReplayKeepsResults: a CUDA program's run (cuFCM's nsys API and GPU
// traces, no step marks) reads its results back with five pageable
// cudaMemcpy after its last kernel (GPU work ends at 14.56 s) and then
// spends 3.0 s on the host writing them. No lever drops that read's
// wait: with every sync dropped and the launches and frees in a graph,
// the host alone would be done at 4.0 s and the step would be the GPU's
// 13.7 s; it is the GPU's work, then the read, then the writing. So the
// levers together (cuda-graphs, pinned-memory, host-sync: 454, 198 and
// 130 ms alone on the replayed 17.19 s) save 0.65 s, the host's loop
// overlapping the kernels, not the 3.65 s that ran the writing beside
// them.
func TestReplayKeepsResults(t *testing.T) {
	gr, err := rulestest.Grouper([]string{"../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz"})
	if err != nil {
		t.Fatal(err)
	}
	gr.Recommender = allRules
	app := gr.App()
	tl := gr.Timeline
	all := analysis.Lever{Graphs: true, Drop: func(string) bool { return true }}
	w, ok := tl.Replay(all)
	if !ok {
		t.Fatal("no replay")
	}
	if w.Wall < 16.5 {
		t.Errorf("every sync dropped, in a graph: %.3f s a step of %.3f, want the results' read and the 3 s after it kept (16.5 s or more)", w.Wall, w.Base)
	}
	sum := 0.0
	for _, r := range app.Recommendations {
		sum += r.WallGain
	}
	got := app.WallGain * app.PricedStep
	if len(app.Recommendations) != 3 || got < 0.6 || got > 0.7 || app.WallGain > sum {
		t.Errorf("together %.3f s (%.2f%%) of %.3f s, the %d levers alone %.2f%%: want 0.60 to 0.70 s, no more than their sum",
			got, 100*app.WallGain, app.PricedStep, len(app.Recommendations), 100*sum)
	}
}
