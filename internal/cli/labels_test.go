package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLabelValues: a label needs a value (--label commit= is what
// commit=$(git rev-parse ...) gives outside a repository), and one said
// again for a stored export is added to its run, said on stdout.
func TestLabelValues(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "runs.db")
	for _, tt := range []struct {
		name   string
		labels []string
		code   ExitCode
		out    string
		err    string
	}{
		{"empty value", []string{"commit="}, ExitError, "", `--label "commit=": the value is empty`},
		{"blank value", []string{"commit= "}, ExitError, "", "the value is empty"},
		{"stored", []string{"branch=main"}, ExitOK, "stored as run 1", ""},
		{"label added", []string{"branch=main", "commit=c5"}, ExitOK, "already stored as run 1 (identical content): labels added: commit=c5", ""},
		{"label changed", []string{"commit=c6"}, ExitError, "", "which has label commit=c5, not commit=c6"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"ingest", "--db", db, fx + "saxpy.details.csv"}
			for _, l := range tt.labels {
				args = append(args, "--label", l)
			}
			out, errOut, code := run(t, args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, want %d; stdout %q, want %q; stderr %q, want %q", code, tt.code, out, tt.out, errOut, tt.err)
			}
		})
	}
	out, _, _ := run(t, "runs", "--db", db)
	if !strings.Contains(out, "branch=main,commit=c5") {
		t.Errorf("runs:\n%s", out)
	}
}
