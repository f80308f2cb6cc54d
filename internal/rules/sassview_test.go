package rules

import (
	"reflect"
	"slices"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
)

// TestSASSViewSame: the lists a rule gets while Engine.Check shares them
// are the ones it made for itself before (fixtures/classes), and a closed
// view is forgotten.
func TestSASSViewSame(t *testing.T) {
	files := []string{"../../fixtures/classes/classes.raw.csv.gz", "../../fixtures/classes/classes.source.cuda-sass.csv.gz"}
	type lists struct {
		inst, recs, code, prog, codeOfInst []profan.SourceRecord
		at                                 map[string]int
	}
	listsOf := func(a *analysis.Kernel) (l lists) {
		l.inst = slices.Collect(instructions(a.Record.Source))
		l.recs, l.at = sassRecords(a)
		l.code = addressOrder(l.recs)
		l.prog = programOrder(a.Record.Source)
		l.codeOfInst = addressOrder(l.inst)
		return l
	}
	kernels, shared := 0, 0
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		if len(k.Source) == 0 {
			return nil
		}
		kernels++
		a := &analysis.Kernel{Run: run, Record: k}
		own := listsOf(a)
		closeView := openView(k.Source)
		first, again := listsOf(a), listsOf(a)
		closeView()
		if !reflect.DeepEqual(own, first) {
			t.Errorf("kernel %s: the shared lists differ from its own", k.ID)
		}
		if len(again.recs) > 0 && &again.recs[0] == &first.recs[0] && &again.code[0] == &first.code[0] {
			shared++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kernels == 0 || shared == 0 {
		t.Errorf("%d kernels with a source page, %d with lists shared", kernels, shared)
	}
	views.Lock()
	defer views.Unlock()
	if len(views.m) != 0 {
		t.Errorf("%d views left open", len(views.m))
	}
}
