package store

import (
	"slices"
	"testing"

	"github.com/profan-dev/profan/internal/verdict"
)

// TestIdleCausesHaveColumns: every idle cause the analysis names has its
// column in run_timelines, so that ingest stores every trace it reads
// (a cause added without its migration made ingest of such a trace stop
// with exit 2: "op-host" before 0017).
func TestIdleCausesHaveColumns(t *testing.T) {
	for _, c := range verdict.IdleCauses {
		if !slices.Contains(idleCauses, c) {
			t.Errorf("idle cause %q has no column in run_timelines: add a migration and name it in idleCauses", c)
		}
	}
}
