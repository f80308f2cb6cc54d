package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host19Read holds, on fixtures/host19's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names hook's synchronizes (LayerTimer.start, called by the
// forward hooks and around the backward and the optimizer step) and s2s's
// torch.cuda.empty_cache with their frames, no launch-bound time of the
// five traces is named by a Python frame, CUDA graphs never come first on
// the hook steps (a torch.cuda.synchronize in every layer's hooks: they
// cannot capture), and on s2s.default, whose batches are padded to their
// own longest (a new shape almost every step), CUDA graphs come first only
// with the fixed padding they need said. A check with a miss note failed at
// the first read and is reported, not held.
func host19Read(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The timers' torch.cuda.synchronize(), in LayerTimer.start.
		{"hook.default", verdict.IdleSync, "at host19.py(282): start", ""},
		{"hook.bf16", verdict.IdleSync, "at host19.py(282): start", ""},
		// empty_cache's cudaFree, called at the end of step.
		{"s2s.default", verdict.IdleAlloc, "at host19.py(202): step", ""},
		{"s2s.static", verdict.IdleAlloc, "at host19.py(202): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, "s2s.default", "s2s.static", "hook.default", "hook.events", "hook.bf16")
	// The synchronizes in every layer's hooks keep graphs from capture.
	misses = append(misses, graphsNotFirst(t, read, []missCase{
		{"hook.default", ""},
		// First read, with main at ca37f14 (12:40): missed, "first at
		// 55.4%, its advice silent on the 32 torch.cuda.synchronize() a
		// step at host19.py(282): start and host19.py(291): stop, which a
		// capture cannot hold". Fixed after the read, by mechanism: a
		// synchronize several times inside the step blocks capture (not
		// priced, the synchronize named at its frame).
		{"hook.bf16", ""},
	})...)
	// s2s.default's shapes change every step: graphs first only where the
	// advice says so (the fixed padding, or buckets, a graph needs).
	for _, c := range []missCase{
		// First read, with main at ca37f14 (12:40): missed, "first at
		// 73.5% (measured 63.7% with the fixed padding it needs, spread
		// 18%), its advice silent on the shapes that change with every
		// batch (padded to each batch's longest) save its generic
		// \"needs static shapes\"". Fitted after the read, by
		// mechanism: the kernels' launch configurations compared from
		// step to step (Shapes); the advice says they change, with a
		// kernel's grids, and the padding or buckets a graph needs.
		{"s2s.default", ""},
	} {
		if read[c.name] == nil {
			continue
		}
		for i, r := range read[c.name].Recommendations {
			if r.Rule != "cuda-graphs" || i != 0 || strings.Contains(r.Message, "its shapes change from step to step") && strings.Contains(r.Fix, "pad the inputs") {
				continue
			}
			if c.miss != "" {
				misses = append(misses, fmt.Sprintf("- %s: cuda-graphs first, the changing shapes unsaid: %s.", c.name, c.miss))
				continue
			}
			t.Errorf("%s: cuda-graphs first on a step whose shapes change, the padding it needs unsaid: %s", c.name, r.Message)
		}
	}
	// s2s.static pads every batch to one length: its graphs advice says
	// nothing of changing shapes.
	for _, r := range read["s2s.static"].Recommendations {
		if r.Rule == "cuda-graphs" && strings.Contains(r.Message, "shapes change") {
			t.Errorf("s2s.static: cuda-graphs says the shapes change on a step padded to one length: %s", r.Message)
		}
	}
	return misses
}
