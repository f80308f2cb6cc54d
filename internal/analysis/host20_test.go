package analysis_test

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
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
		// The EMA's loop over the state dict, between its launches. The
		// first read (main at 85943a1, 15:25) failed it as written,
		// host20.py(121), the def line: the profiler's frame of a
		// decorated function (@torch.no_grad()) carries the decorator's
		// line, and the timeline names host20.py(120): update (13.19 ms
		// of other Python). Corrected after the read, no code changed.
		{"amp.default", verdict.IdlePython, "host20.py(120): update", ""},
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
	// GradScaler's found_inf read is no read of the user's: step-read
	// (read it every N steps) never names it. At the first read (main
	// at 85943a1) it did; fixed after the read, by mechanism: the read
	// inside GradScaler's _maybe_opt_step is fused-optimizer's.
	for _, name := range []string{"amp.default", "amp.foreach"} {
		for _, r := range read[name].Recommendations {
			if r.Rule == "step-read" && strings.Contains(r.Message, "host20.py(143): step") {
				t.Errorf("%s: step-read advises GradScaler's found_inf read: %s", name, r.Message)
			}
		}
	}
	misses = append(misses, graphsNotFirst(t, read, []missCase{
		// First read, with main at 85943a1 (15:25): missed on three,
		// amp.default ("first at 63.4%, priced for the regions between
		// GradScaler's found_inf read (.item() at host20.py(143): step),
		// which its advice names; not measured") and amp.foreach ("first
		// at 57.8%, ... as on default"). The expectation on the amp steps
		// was refuted by measurement (fixtures/host20c): the model's
		// forward and backward graphed by make_graphed_callables, the
		// scaler's read and the optimizer eager, measured 43.2% from
		// amp.default, the largest lever measured alone from the step.
		// There graphs may come first if they are priced for what
		// capture holds (below).
		{"ctc.default", ""},
		{"ctc.cpulen", ""},
		// At the first read ctc.every50's was: "first at 71.6% on a step
		// whose kernels' grids change with the batch's lengths
		// (aten::ctc_loss's fills) and whose loss reads the lengths on
		// the host every step; its advice says both, then prices the
		// loop's body between the reads; not measured". Fixed after the
		// read, by mechanism: an op that reads its arguments back from
		// the GPU every step
		// blocks capture; cuda-graphs is not priced there.
		{"ctc.every50", ""},
	})...)
	// Where GradScaler's read splits the step, a graph holds the model
	// alone: the advice names the read and prices the graphed callables,
	// the scaler and the optimizer eager.
	for _, name := range []string{"amp.default", "amp.foreach"} {
		for _, r := range read[name].Recommendations {
			if r.Rule == "cuda-graphs" && !(r.Lever != nil && r.Lever.Model && strings.Contains(r.Message, "host20.py(143): step") && strings.Contains(r.Fix, "make_graphed_callables")) {
				t.Errorf("%s: cuda-graphs not priced for the model alone, GradScaler's read named: %s", name, r.Message)
			}
		}
	}
	return misses
}

// TestScalerReadUnstacked: GradScaler's found_inf read is told without
// its Python frames too (a trace without with_stack): the read's nearest
// op before it is the scaler's unscale. fixtures/host20's amp.default
// with GradScaler's frames taken out of the run.
func TestScalerReadUnstacked(t *testing.T) {
	s := analysis.NewStream(analysis.Options{}, false)
	runs, err := ingest.ReadFiles([]string{"../../fixtures/host20/amp.default.json.gz"}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		s.Kernel(run, k)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, run := range runs {
		kept := run.Host.Events[:0]
		for _, e := range run.Host.Events {
			if e.Kind == profan.HostFrame && profan.ScalerFrame(e.Name) {
				cut++
				continue
			}
			kept = append(kept, e)
		}
		run.Host.Events = kept
	}
	if cut == 0 {
		t.Fatal("no GradScaler frame in the trace")
	}
	for _, v := range s.Finish(runs) {
		if v.Timeline == nil {
			continue
		}
		told := false
		for _, site := range v.Timeline.SyncSites() {
			told = told || site.Scaler && strings.Contains(site.Site, "host20.py(143): step")
		}
		if !told {
			t.Errorf("GradScaler's read not told without its frames: %+v", v.Timeline.SyncSites())
		}
		return
	}
	t.Fatal("no timeline")
}
