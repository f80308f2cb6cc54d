package cli

import "testing"

// TestAnalyzeDeterministic: the same capture gives the same JSON, to the
// last bit of every float, run after run. Sums over maps of kernel groups
// taken in the map's order changed the last bits of the recommendations'
// estimated_gain between runs (host12's classifier: 0.07133390701845405,
// ...406, ...403), which a run database then stored.
func TestAnalyzeDeterministic(t *testing.T) {
	t.Parallel()
	f := "../../fixtures/host12/cls.default.json.gz"
	var first string
	for i := 0; i < 4; i++ {
		out, errOut, code := run(t, "analyze", "-f", "json", f)
		if code != ExitOK {
			t.Fatalf("analyze %s: exit %d: %s", f, code, errOut)
		}
		if i == 0 {
			first = out
		} else if out != first {
			t.Fatalf("analyze -f json %s: run %d differs from the first", f, i+1)
		}
	}
}
