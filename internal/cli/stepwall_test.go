package cli

import (
	"regexp"
	"testing"
)

// TestOneStepWall: analyze's "a step of" and diff's "wall per step" are
// one figure, the median marked step (host9's default trace: 3 steps
// spanning 10.018 ms, the median 9.516 ms).
func TestOneStepWall(t *testing.T) {
	t.Parallel()
	a, b := "../../fixtures/host9/copy.default.json.gz", "../../fixtures/host9/copy.pinned.json.gz"
	out, errOut, code := run(t, "analyze", a)
	m := regexp.MustCompile(`a step of (\S+ \S+) `).FindStringSubmatch(out)
	if code != ExitOK || m == nil {
		t.Fatalf("analyze %s: exit %d, no gain a step:\n%s%s", a, code, out, errOut)
	}
	out, errOut, code = run(t, "diff", a, b)
	d := regexp.MustCompile(`wall per step (\S+ \S+) `).FindStringSubmatch(out)
	if code != ExitOK || d == nil {
		t.Fatalf("diff %s %s: exit %d, no wall per step:\n%s%s", a, b, code, out, errOut)
	}
	if m[1] != "9.516 ms" || d[1] != m[1] {
		t.Errorf("a step: analyze says %s, diff %s; want both 9.516 ms (the median step)", m[1], d[1])
	}
}
