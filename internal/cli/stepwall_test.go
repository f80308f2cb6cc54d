package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneStepWall: diff's "wall per step" is the trace's median marked
// step (host9's default trace: 3 steps spanning 10.018 ms, the median
// 9.516 ms), and analyze's gains a step are of the step the levers were
// priced on, the replay's, the profiler's host cost taken off, said so:
// 7.383 ms unprofiled, inside the 6.49-7.49 ms the five unprofiled
// processes of the same variant measured (fixtures/host9/timings.tsv).
func TestOneStepWall(t *testing.T) {
	t.Parallel()
	a, b := "../../fixtures/host9/copy.default.json.gz", "../../fixtures/host9/copy.pinned.json.gz"
	out, errOut, code := run(t, "analyze", a)
	m := regexp.MustCompile(`a step of (\S+ \S+)( unprofiled)? `).FindStringSubmatch(out)
	if code != ExitOK || m == nil {
		t.Fatalf("analyze %s: exit %d, no gain a step:\n%s%s", a, code, out, errOut)
	}
	out, errOut, code = run(t, "diff", a, b)
	d := regexp.MustCompile(`wall per step (\S+ \S+) `).FindStringSubmatch(out)
	if code != ExitOK || d == nil {
		t.Fatalf("diff %s %s: exit %d, no wall per step:\n%s%s", a, b, code, out, errOut)
	}
	if d[1] != "9.516 ms" {
		t.Errorf("diff: wall per step %s, want 9.516 ms (the median marked step)", d[1])
	}
	if m[1] != "7.383 ms" || m[2] == "" {
		t.Errorf("analyze: a step of %s%s, want 7.383 ms unprofiled (the replayed step)", m[1], m[2])
	}
}

// TestStoredDiffStepWall: diff of two stored runs tests the wall per step
// as the diff of their exports does (host9's copy traces: the marked
// steps' walls, Mann-Whitney U); a stored run once kept the median only,
// and its diff said the span ("wall 30.053 ms → …") untested.
func TestStoredDiffStepWall(t *testing.T) {
	t.Parallel()
	a, b := "../../fixtures/host9/copy.default.json.gz", "../../fixtures/host9/copy.pinned.json.gz"
	files, errOut, code := run(t, "diff", a, b)
	if code != ExitOK {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errOut, code := run(t, "ingest", "--db", db, a, b); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	stored, errOut, code := run(t, "diff", "--db", db, "--baseline", "1", "--run", "2")
	if code != ExitOK {
		t.Fatalf("diff --db: exit %d: %s", code, errOut)
	}
	step := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
	if step(files) != step(stored) || !strings.Contains(step(files), "wall per step 9.516 ms") {
		t.Errorf("diff of the exports says\n%s\ndiff of the stored runs\n%s", step(files), step(stored))
	}
}
