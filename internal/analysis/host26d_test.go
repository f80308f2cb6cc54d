package analysis_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPaddedGraphs holds cuda-graphs on host25's mol steps, whose atom
// and edge counts change every batch, priced padded (Lever.Pad): the
// kernels' time a step padded to the largest shapes the four traced
// steps show is above the traced one and below what fixtures/host26d's
// probe measured for mol.graphs, padded to its worst case (6.51 ms a
// step): the least padding a capture of the traced batches needs. The
// advice says so, and names the scatter's collision where the step adds
// rows by an index (index_add_); host19's s2s, padded per batch with no
// scatter, is told no such thing.
func TestPaddedGraphs(t *testing.T) {
	raw, err := os.ReadFile("../../fixtures/host26d/probe.tsv")
	if err != nil {
		t.Fatal(err)
	}
	measured := 0.0
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Split(line, "\t"); len(f) > 9 && f[0] == "mol.graphs" {
			ms, err := strconv.ParseFloat(f[9], 64)
			if err != nil {
				t.Fatal(err)
			}
			measured = ms / 1e3
		}
	}
	if !(measured > 0) {
		t.Fatal("no mol.graphs probe in fixtures/host26d/probe.tsv")
	}
	for _, c := range []struct {
		trace   string
		scatter bool
	}{
		{"host25/mol.workers", true},
		{"host25/mol.default", true},
		{"host19/s2s.default", false},
	} {
		gr := fixtureGrouper(t, c.trace+".json.gz")
		app, sh := gr.App(), gr.Timeline.Shapes()
		if !(sh.Padded > sh.Busy) {
			t.Errorf("%s: kernels %.3f ms a step padded, %.3f as traced: want more padded", c.trace, 1e3*sh.Padded, 1e3*sh.Busy)
		}
		if c.scatter && !(sh.Padded < measured) {
			t.Errorf("%s: kernels %.3f ms a step padded to the traced steps' largest shapes, host26d's worst-case pad measured %.3f: want less", c.trace, 1e3*sh.Padded, 1e3*measured)
		}
		found := false
		for _, r := range app.Recommendations {
			if r.Rule != "cuda-graphs" {
				continue
			}
			found = true
			if r.Lever == nil || !r.Lever.Pad {
				t.Errorf("%s: cuda-graphs not priced padded: %+v", c.trace, r.Lever)
			}
			if !strings.Contains(r.Message, "priced padded to the largest shapes the 4 steps traced show") {
				t.Errorf("%s: cuda-graphs does not say what it pads to: %s", c.trace, r.Message)
			}
			if got := strings.Contains(r.Composes, "index_add_"); got != c.scatter {
				t.Errorf("%s: cuda-graphs' composes names the scatter's collision: %v, want %v: %s", c.trace, got, c.scatter, r.Composes)
			}
		}
		if !found {
			t.Errorf("%s: no cuda-graphs recommendation", c.trace)
		}
	}
}
