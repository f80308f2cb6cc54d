package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host18Read holds, on fixtures/host18's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names det's per-image reads and gnn's sampler with their
// frames, no launch-bound time of the four traces is named by a Python
// frame, and CUDA graphs never come first on the two steps they cannot
// capture: det.default (a nonzero and an NMS read in every image, the
// shapes after them data-dependent) and gnn.default (the sampled
// neighbourhood's shapes change every step). A check with a miss note
// failed at the first read and is reported, not held.
func host18Read(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The boolean mask's nonzero and batched_nms's read, per image.
		{"det.default", verdict.IdleSync, "at host18.py(141): post_image", ""},
		// The sampler, the DataLoader's collate_fn, in the main process.
		{"gnn.default", verdict.IdleData, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host18.py(233): __call__", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, "det.default", "det.fixed", "gnn.default", "gnn.workers")
	misses = append(misses, graphsNotFirst(t, read, []missCase{
		{"det.default", ""},
		{"gnn.default", ""},
	})...)
	return misses
}

// launchNotPython holds that no launch-bound time of the named traces is
// named by a frame of the user's Python.
func launchNotPython(t *testing.T, tls map[string]*analysis.Timeline, names ...string) {
	t.Helper()
	for _, name := range names {
		if tls[name] == nil {
			t.Errorf("%s: not read", name)
			continue
		}
		for _, idle := range tls[name].Idle {
			if idle.Cause != verdict.IdleLaunch {
				continue
			}
			for _, call := range idle.Calls {
				if strings.Contains(call.Name, ".py(") {
					t.Errorf("%s: launch-bound time named by the user's Python: %s", name, idleCallName(call))
				}
			}
		}
	}
}

// missCase is a check on one trace, with the miss note it failed with at
// the first read ("" while it holds).
type missCase struct{ name, miss string }

// graphsNotFirst holds that CUDA graphs are not the first lever on steps
// they cannot capture; a case with a miss note is reported, not held.
func graphsNotFirst(t *testing.T, read map[string]*analysis.App, cases []missCase) (misses []string) {
	t.Helper()
	for _, c := range cases {
		if read[c.name] == nil {
			continue
		}
		for i, r := range read[c.name].Recommendations {
			if r.Rule != "cuda-graphs" || i != 0 {
				continue
			}
			if c.miss != "" {
				misses = append(misses, fmt.Sprintf("- %s: cuda-graphs first on a step it cannot capture: %s.", c.name, c.miss))
				continue
			}
			t.Errorf("%s: cuda-graphs first on a step it cannot capture: %s", c.name, r.Message)
		}
	}
	return misses
}
