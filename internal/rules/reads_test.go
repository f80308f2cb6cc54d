package rules_test

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/rules"
)

// TestReadsDeclared runs every rule over every fixture, recording each
// canonical metric it reads, and fails when a rule reads one its Requires
// and Optional do not name, or names one that is not canonical: a rule's
// declaration says what it reads.
func TestReadsDeclared(t *testing.T) {
	skipShort(t)
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]map[string]bool{}
	eng.TraceReads(func(rule, m string) {
		if read[rule] == nil {
			read[rule] = map[string]bool{}
		}
		read[rule][m] = true
	})
	kernels := 0
	for _, dir := range fixtureDirs(t) {
		files := exportsIn(dir)
		analyse := func(files []string) error {
			_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
				analysis.Analyze(run, k, analysis.Options{Rules: eng})
				kernels++
				return nil
			})
			return err
		}
		if analyse(files) != nil {
			// One export the directory keeps for its errors: the others
			// one by one.
			for _, f := range files {
				_ = analyse([]string{f})
			}
		}
	}
	if kernels == 0 {
		t.Fatal("no kernel analysed")
	}
	for _, r := range rules.All {
		if r.Check == nil {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			checkDeclared(t, r, read[r.ID], func(n string) bool {
				_, ok := metrics.ByName(n)
				return ok
			})
			if len(read[r.ID]) == 0 {
				t.Errorf("ran on no fixture of the %d kernels", kernels)
			}
		})
	}
}

// checkDeclared holds what rule r read to what its Requires and Optional
// declare, and each declared name to known.
func checkDeclared(t *testing.T, r *rules.Rule, read map[string]bool, known func(string) bool) {
	t.Helper()
	declared := map[string]bool{}
	for _, g := range r.Requires {
		for _, n := range strings.Split(g, "|") {
			declared[n] = true
		}
	}
	for _, n := range r.Optional {
		declared[n] = true
	}
	for n := range declared {
		if !known(n) {
			t.Errorf("declares %q, which it cannot read", n)
		}
	}
	var undeclared []string
	for n := range read {
		if !declared[n] {
			undeclared = append(undeclared, n)
		}
	}
	sort.Strings(undeclared)
	if len(undeclared) > 0 {
		t.Errorf("reads %s, which its Requires and Optional do not name", strings.Join(undeclared, ", "))
	}
}

// fixtureDirs are the directories of real exports: fixtures/*, the rules'
// and the importers' testdata.
func fixtureDirs(t *testing.T) []string {
	var dirs []string
	for _, g := range []string{"../../fixtures/*", "testdata/*", "../ingest/testdata/*"} {
		m, _ := filepath.Glob(g)
		for _, d := range m {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() && len(exportsIn(d)) > 0 && !heldOutUnread(filepath.Base(d)) {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no fixture directories")
	}
	return dirs
}

func exportsIn(dir string) []string {
	var out []string
	for _, ext := range []string{"*.csv", "*.csv.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, ext))
		out = append(out, m...)
	}
	slices.Sort(out)
	return out
}
