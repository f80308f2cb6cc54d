package cli

import (
	"strings"
	"testing"
)

// TestQuiet: -q/--quiet takes the notes off standard error, on every
// command, and keeps the result and the errors.
func TestQuiet(t *testing.T) {
	t.Parallel()
	file := fx + "saxpy.details.csv"
	out, errOut, code := run(t, "gate", file)
	if code != ExitOK || !strings.Contains(errOut, "gate: no conditions given") {
		t.Fatalf("gate without -q: exit %d, stderr %q: want its note", code, errOut)
	}
	qout, qerr, qcode := run(t, "gate", "-q", file)
	if qcode != code || qerr != "" || qout != out {
		t.Errorf("gate -q: exit %d, stderr %q, stdout same %v: want exit %d, no stderr, the same result", qcode, qerr, qout == out, code)
	}
	_, qerr, qcode = run(t, "analyze", "--quiet", "no-such-file.csv")
	if qcode != ExitError || !strings.Contains(qerr, "no-such-file.csv") {
		t.Errorf("analyze --quiet on a missing file: exit %d, stderr %q: want exit 2 and the error", qcode, qerr)
	}
	_, qerr, qcode = run(t, "analyze", "-q", "--bogus", file)
	if qcode != ExitError || !strings.Contains(qerr, "--bogus") {
		t.Errorf("analyze -q --bogus: exit %d, stderr %q: want the flag error", qcode, qerr)
	}
	for _, c := range NewRoot(&IOStreams{}).Commands() {
		if c.Flags().Lookup("quiet") == nil && c.InheritedFlags().Lookup("quiet") == nil {
			t.Errorf("%s has no --quiet", c.Name())
		}
	}
}
