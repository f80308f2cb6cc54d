package analysis_test

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

var updateVerdicts = flag.Bool("update-verdicts", false, "record the verdicts' digest under the current VerdictVersion")

// verdictsFile records the digest of the verdicts made on versionFixtures
// and the VerdictVersion that made them.
const verdictsFile = "testdata/verdicts.golden"

var versionFixtures = []string{
	"../../fixtures/ncu/transpose.metrics.details.csv",
	"../../fixtures/ncu/misc.metrics.details.csv",
	"../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv",
	"../ingest/testdata/nvprof/ieee2017-k20c-jacobi-unroll.csv",
	"../../fixtures/atomics/atomics.raw.csv.gz",  // the atomics limiter
	"../../fixtures/pytorch2/tf.full.raw.csv.gz", // tensor-core limiters
}

// TestVerdictVersion holds VerdictVersion to what it promises: the
// verdicts made on a few real exports (metrics, limiter, findings with
// their words and gains, rules skipped, counters missing) are those
// recorded under this version. A change to any of them is a new verdict
// maker, whose version must be bumped: a run database re-makes the
// verdicts an older maker stored.
func TestVerdictVersion(t *testing.T) {
	sel, err := rules.NewSelector("all", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := analysis.Options{Rules: &rules.Engine{Sel: sel, Thresholds: rules.DefaultThresholds}}
	h := sha256.New()
	for _, f := range versionFixtures {
		run, err := ingest.ReadFile(f, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := analysis.AnalyzeRun(run, opt)
		for _, a := range v.Kernels {
			fmt.Fprintln(h, verdictLines(a))
		}
		for _, f := range v.Findings {
			fmt.Fprintf(h, "run %s %d %q %q %.6g %q\n", f.Rule, f.Severity, f.Message, f.Advice, f.Gain, f.Evidence)
		}
	}
	got := fmt.Sprintf("version %d\nsha256 %x\n", analysis.VerdictVersion, h.Sum(nil))
	b, err := os.ReadFile(verdictsFile)
	if err != nil && !*updateVerdicts {
		t.Fatal(err)
	}
	want := string(b)
	wantVersion := strings.SplitN(want, "\n", 2)[0]
	sameVersion := wantVersion == fmt.Sprintf("version %d", analysis.VerdictVersion)
	if got == want {
		return
	}
	if *updateVerdicts {
		if sameVersion {
			t.Fatalf("the verdicts changed under VerdictVersion %d: bump analysis.VerdictVersion first", analysis.VerdictVersion)
		}
		if err := os.WriteFile(verdictsFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if sameVersion {
		t.Errorf("the verdicts on %v changed (a rule, threshold, metric, limiter or message): this is a new verdict maker; bump analysis.VerdictVersion, then go test ./internal/analysis -run TestVerdictVersion -update-verdicts", versionFixtures)
	} else {
		t.Errorf("%s records %s, the code is version %d: go test ./internal/analysis -run TestVerdictVersion -update-verdicts", verdictsFile, wantVersion, analysis.VerdictVersion)
	}
}

// verdictLines is what a stored verdict holds of a, one line per part.
func verdictLines(a *analysis.Kernel) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s %s\n", a.Record.ID, a.Record.DisplayName())
	var ms []string
	for _, m := range a.Metrics.Values {
		ms = append(ms, fmt.Sprintf("%s=%.6g", m.Name, m.Value))
	}
	sort.Strings(ms)
	fmt.Fprintf(&b, "metrics %s\n", strings.Join(ms, " "))
	l := a.Limiter
	fmt.Fprintf(&b, "limiter %s %q %.6g %q\n", l.Unit, l.Pipe, l.Percent, l.Evidence)
	for _, f := range a.Findings {
		fmt.Fprintf(&b, "finding %s %d %q %q %.6g %q %v\n", f.Rule, f.Severity, f.Message, f.Advice, f.Gain, f.Evidence, f.Locations)
	}
	fmt.Fprintf(&b, "skipped %q\nmissing %v", a.Skipped, a.Missing)
	return b.String()
}
