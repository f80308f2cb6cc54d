package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -o writes a command's result to a file, whole (a gate's failed report
// included) or, on an error, not at all; the old file stays.
func TestOutputFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "a.txt")
	if stdout, errOut, code := run(t, "analyze", "-k", "transposeNaive", "-o", out, fx+"transpose.full.details.csv"); code != ExitOK || stdout != "" {
		t.Fatalf("analyze -o: exit %d, stdout %q: %s", code, stdout, errOut)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "transposeNaive") {
		t.Errorf("analyze -o wrote %q, %v", b, err)
	}
	g := filepath.Join(dir, "g.txt")
	if _, _, code := run(t, "gate", "-o", g, fx+"transpose.full.details.csv", "--require", "duration < 1us"); code != ExitFailed {
		t.Errorf("gate -o: exit %d", code)
	}
	if b, _ := os.ReadFile(g); !strings.Contains(string(b), "gate failed") {
		t.Errorf("gate -o: the failed report is not in the file: %q", b)
	}
	if _, _, code := run(t, "analyze", "-o", out, filepath.Join(dir, "missing.csv")); code == ExitOK {
		t.Errorf("analyze of a missing file: exit 0")
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "transposeNaive") {
		t.Errorf("a failed command replaced the old output: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files left in the output directory, want 2", len(ents))
	}
}
