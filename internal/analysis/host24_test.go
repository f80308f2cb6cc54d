package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host24Read holds, on fixtures/host24's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names tab's loading (TabSet.__getitem__'s per-row feature
// engineering under the DataLoader's iterator) where the main process
// loads, and spike's guard read (the gradient norm's .item() in
// guard_host, one a step) with their frames; no launch-bound time of the
// five traces is named by a Python frame; and no read is advised away on
// spike.noread, whose guard runs on the GPU. CUDA graphs can hold both
// families' model steps (spike's up to its read), so whether they come
// first is the rows' to say. A check with a miss note failed at the
// first read and is reported, not held.
func host24Read(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The Dataset's per-row parsing and feature engineering, in the
		// main process.
		{"tab.default", verdict.IdleData, "host24.py(169): __getitem__", ""},
		// The loss-spike guard's read, one a step.
		{"spike.default", verdict.IdleSync, "at host24.py(366): guard_host", ""},
		{"spike.bf16", verdict.IdleSync, "at host24.py(366): guard_host", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, "tab.default", "tab.workers", "spike.default", "spike.bf16", "spike.noread")
	// The guard on the GPU: no host read left to advise away.
	for _, r := range read["spike.noread"].Recommendations {
		if r.Rule == "step-read" || r.Rule == "host-read" {
			t.Errorf("spike.noread: %s advised on a step with no host read: %s", r.Rule, r.Message)
		}
	}
	return misses
}
