package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host23Read holds, on fixtures/host23's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names nerf's boolean-mask reads (x[m] and raw[m] = out, a
// nonzero each) and ppo's logging reads (.item() and .cpu().numpy(), five
// a minibatch) in their step with their frames; no launch-bound time of
// the six traces is named by a Python frame; and CUDA graphs never come
// first on the steps they cannot capture (nerf.default and nerf.bf16: the
// kept samples' count sizes the MLP's input every step; ppo.default and
// ppo.fused: five host reads in every minibatch, between its backward and
// the next minibatch's forward). A check with a miss note failed at the
// first read and is reported, not held.
func host23Read(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The occupancy mask's reads, 2 a step.
		{"nerf.default", verdict.IdleSync, "at host23.py(158): step", ""},
		{"nerf.bf16", verdict.IdleSync, "at host23.py(158): step", ""},
		// SB3's logging reads, 40 a step.
		{"ppo.default", verdict.IdleSync, "at host23.py(238): step", ""},
		{"ppo.fused", verdict.IdleSync, "at host23.py(238): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, "nerf.default", "nerf.cap", "nerf.bf16", "ppo.default", "ppo.noread", "ppo.fused")
	misses = append(misses, graphsNotFirst(t, read, []missCase{
		{"nerf.default", ""},
		{"nerf.bf16", ""},
		{"ppo.default", ""},
		{"ppo.fused", ""},
	})...)
	return misses
}
