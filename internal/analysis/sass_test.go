package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
)

// heldRuler records, while Analyze judges a kernel, whether the rules
// reach one set of SASS lists, made of the kernel's own page.
type heldRuler struct{ held int }

func (r *heldRuler) Check(a *analysis.Kernel) analysis.Result {
	c := analysis.SASSOf(a)
	if c == a.SASS && c.Of(a.Record.Source) && analysis.SASSOf(a) == c {
		r.held++
	}
	return analysis.Result{}
}

func (r *heldRuler) CheckRun(*profan.Run) analysis.Result { return analysis.Result{} }

// TestSASSHeld: the rules read the lists Analyze holds on the kernel while
// it judges it, and the verdict keeps none after (fixtures/classes).
func TestSASSHeld(t *testing.T) {
	files := []string{"../../fixtures/classes/classes.raw.csv.gz", "../../fixtures/classes/classes.source.cuda-sass.csv.gz"}
	r := &heldRuler{}
	kernels := 0
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		kernels++
		a := analysis.Analyze(run, k, analysis.Options{Rules: r})
		if a.SASS != nil {
			t.Errorf("kernel %s: the verdict keeps its SASS lists", k.ID)
		}
		if c := analysis.SASSOf(a); c == nil || !c.Of(k.Source) || analysis.SASSOf(a) == c {
			t.Errorf("kernel %s: outside Analyze, SASSOf is not made afresh of the page", k.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kernels == 0 || r.held != kernels {
		t.Errorf("%d kernels, %d judged with their lists held", kernels, r.held)
	}
}
