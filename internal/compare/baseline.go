package compare

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/profan-dev/profan/internal/store"
)

// minShared is the share of two runs' kernel names (shared over the
// union) from which they are runs of one workload. Runs of one program
// across commits share nearly all their kernels; different programs
// labelled alike (three workloads' runs all labelled branch=main) share a
// few library kernels at most.
const minShared = 0.5

// Baseline is the run a gate compares with, and how it was chosen.
type Baseline struct {
	Run     store.RunRecord
	Program string
	Shared  int // kernel names the baseline shares with the run gated
	Kernels int // kernel names of the baseline
	Skipped int // newer runs with the labels passed over as other workloads
}

// NoBaselineError says why no stored run can be the baseline.
type NoBaselineError struct{ Reason string }

func (e *NoBaselineError) Error() string { return e.Reason }

// FindBaseline returns the newest run having labels (every run when nil)
// with an ID below before (when before > 0) that is of the workload cur:
// at least minShared of their kernel names in common. The program does not
// decide: builds of one program may carry the build in its name
// (app_v1, app_v2), and all PyTorch runs are python. A *NoBaselineError
// says why no run is of the workload.
func FindBaseline(ctx context.Context, db *store.DB, labels map[string]string, before int64, cur store.Workload) (Baseline, error) {
	runs, err := db.Runs(ctx, store.RunFilter{Labels: labels})
	if err != nil {
		return Baseline{}, err
	}
	what := "no stored run"
	if len(labels) > 0 {
		what = "no stored run labelled " + labelText(labels)
	}
	if before > 0 {
		what += fmt.Sprintf(" before run %d", before)
	}
	var closest *Baseline
	checked := 0
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if before > 0 && r.ID >= before {
			continue
		}
		checked++
		w, err := db.Workload(ctx, r.ID)
		if err != nil {
			return Baseline{}, err
		}
		n, j := cur.Shared(w)
		b := Baseline{Run: r, Program: w.Program, Shared: n, Kernels: len(w.Kernels), Skipped: checked - 1}
		if j >= minShared {
			return b, nil
		}
		if closest == nil || n > closest.Shared {
			closest = &b
		}
	}
	if checked == 0 {
		return Baseline{}, &NoBaselineError{what}
	}
	reason := fmt.Sprintf("%s is of this workload (%s): %d checked", what, describe(cur.Program, len(cur.Kernels)), checked)
	if closest.Shared == 0 {
		reason = fmt.Sprintf("%s shares a kernel with this one (%s): %d checked", what, describe(cur.Program, len(cur.Kernels)), checked)
	} else {
		reason += fmt.Sprintf("; the closest, run %d (%s), shares %d of its kernel names", closest.Run.ID, describe(closest.Program, closest.Kernels), closest.Shared)
	}
	return Baseline{}, &NoBaselineError{reason}
}

// describe names a workload for messages: its program and kernel count.
func describe(program string, kernels int) string {
	s := fmt.Sprintf("%d kernel names", kernels)
	if kernels == 1 {
		s = "1 kernel name"
	}
	if program != "" {
		return "program " + program + ", " + s
	}
	return s
}

// labelText renders labels as key=value pairs sorted by key.
func labelText(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + l[k]
	}
	return strings.Join(keys, ",")
}
