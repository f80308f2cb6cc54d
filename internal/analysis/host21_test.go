package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host21Read holds, on fixtures/host21's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names mlm's boolean-mask reads (ids[mask] and h[mask] in
// mlm_loss) and its log's .item() reads (in step), aug's metrics' .cpu()
// (in step) and its per-image augmentation loop (aug_loop) with their
// frames; no launch-bound time of the six traces is named by a Python
// frame; and CUDA graphs never come first on the steps they cannot
// capture (mlm.default and mlm.lazylog: the mask's count sizes the loss's
// tensors every micro-batch; aug.default and aug.gpumetric: each image's
// augmentation drawn by Python's random every step). A check with a miss
// note failed at the first read and is reported, not held.
func host21Read(t *testing.T, read map[string]*analysis.App, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The boolean mask's nonzero reads, two a micro-batch.
		{"mlm.default", verdict.IdleSync, "at host21.py(103): mlm_loss", ""},
		{"mlm.lazylog", verdict.IdleSync, "at host21.py(103): mlm_loss", ""},
		// The log's .item() of each micro-batch's loss and of the norm.
		{"mlm.default", verdict.IdleSync, "at host21.py(129): step", ""},
		{"mlm.maxpred", verdict.IdleSync, "at host21.py(129): step", ""},
		// The metrics' .cpu() of the predictions and labels.
		{"aug.default", verdict.IdleSync, "at host21.py(215): step", ""},
		{"aug.batched", verdict.IdleSync, "at host21.py(215): step", ""},
		// The per-image augmentation loop's Python.
		{"aug.default", verdict.IdlePython, "host21.py(157): aug_loop", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	launchNotPython(t, tls, "mlm.default", "mlm.maxpred", "mlm.lazylog", "aug.default", "aug.batched", "aug.gpumetric")
	misses = append(misses, graphsNotFirst(t, read, []missCase{
		{"mlm.default", ""},
		{"mlm.lazylog", ""},
		// First read, with main at 5713ddc (18:40): missed ("first at
		// 42.1%, priced for the whole step with its one read per step
		// kept: the per-image augmentation draws each crop, flip and
		// jitter with Python's random every step, which a captured graph
		// would replay as one draw; its advice does not say so; not
		// measured"). Fixed after, by mechanism: graphs priced for the
		// model alone beside a per-item loop, which the advice names.
		{"aug.default", ""},
		{"aug.gpumetric", ""},
	})...)
	return misses
}
