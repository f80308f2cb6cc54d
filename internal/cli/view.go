package cli

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/gate"
	"github.com/profan-dev/profan/ingest"
	"github.com/profan-dev/profan/store"
)

// verdictsFromFiles reads exports (with their source pages attached) and
// makes one verdict per run; prep, when given, sees each kernel first
// (--path-map).
func verdictsFromFiles(files []string, aopt analysis.Options, prep func(*profan.Kernel)) ([]*analysis.RunVerdict, error) {
	vs := analysis.NewStream(aopt, true)
	runs, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		if prep != nil {
			prep(k)
		}
		vs.Kernel(run, k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return vs.Finish(runs), nil
}

// viewsFromDB reads a stored run's verdicts as the gate sees them.
func viewsFromDB(db *store.DB, run int64) ([]gate.Kernel, error) {
	ks, _, err := verdictFromDB(db, run)
	return ks, err
}

// verdictFromDB reads a stored run's verdict: its kernels' and the
// run-level findings, as ingest stored them.
func verdictFromDB(db *store.DB, run int64) ([]gate.Kernel, gate.Run, error) {
	rec, err := db.Run(bg, run)
	if err != nil {
		return nil, gate.Run{}, err
	}
	ks, err := db.Kernels(bg, run)
	if err != nil {
		return nil, gate.Run{}, err
	}
	out := make([]gate.Kernel, len(ks))
	for i, k := range ks {
		out[i] = gate.Kernel{K: k.Kernel, Canonical: k.Canonical, Findings: k.Findings, Source: rec.Source}
	}
	fs, err := db.RunFindings(bg, run)
	if err != nil {
		return nil, gate.Run{}, err
	}
	return out, gate.Run{Source: rec.Source, Findings: fs}, nil
}
