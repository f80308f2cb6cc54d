package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host20Read holds, on fixtures/host20's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names amp's GradScaler read (found_inf's .item(), under
// scaler.step in step) and the weight EMA's Python loop (ModelEma.update),
// ctc's CER read (.tolist() in cer), its Python edit distance and the
// loss's read of the GPU lengths (F.ctc_loss in step) with their frames;
// no launch-bound time of the six traces is named by a Python frame; and
// CUDA graphs never come first on a step with a host read every step
// (amp.default and amp.foreach: found_inf; every ctc step: the lengths or
// the CER). A check with a miss note failed at the first read and is
// reported, not held.
func host20Read(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// GradScaler.step's found_inf read, under scaler.step(opt).
		{"amp.default", verdict.IdleSync, "at host20.py(143): step", ""},
		// The EMA's loop over the state dict, between its launches.
		{"amp.default", verdict.IdlePython, "host20.py(121): update", ""},
		// The CER's argmax read, and its Python edit distance after it.
		{"ctc.default", verdict.IdleSync, "at host20.py(233): cer", ""},
		{"ctc.default", verdict.IdlePython, "host20.py(222): edit_distance", ""},
		// F.ctc_loss's read of the lengths held on the GPU.
		{"ctc.default", verdict.IdleSync, "at host20.py(249): step", ""},
		{"ctc.every50", verdict.IdleSync, "at host20.py(249): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, "amp.default", "amp.foreach", "amp.fused", "ctc.default", "ctc.cpulen", "ctc.every50")
	misses = append(misses, graphsNotFirst(t, read, []missCase{
		{"amp.default", ""},
		{"amp.foreach", ""},
		{"ctc.default", ""},
		{"ctc.cpulen", ""},
		{"ctc.every50", ""},
	})...)
	return misses
}
