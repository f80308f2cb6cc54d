package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withStdin runs f with data on a pipe as the process's standard input.
func withStdin(t *testing.T, data []byte, f func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	f()
}

// TestStdinDash: "-" names standard input as a file argument of analyze,
// ingest, gate and diff; errors name it <stdin>. Not parallel: it
// replaces os.Stdin.
func TestStdinDash(t *testing.T) {
	saxpy, err := os.ReadFile(fx + "saxpy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	trace, err := os.ReadFile("../../fixtures/timeline/train_small.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "p.db")
	for _, c := range []struct {
		name   string
		data   []byte
		args   []string
		code   ExitCode
		stream string // "out" or "err"
		want   string
	}{
		{"analyze", saxpy, []string{"analyze", "-"}, ExitOK, "out", "saxpy"},
		{"analyze gzip trace", trace, []string{"analyze", "-"}, ExitOK, "out", "wall"},
		{"analyze with a file", saxpy, []string{"analyze", fx + "copy.details.csv", "-"}, ExitOK, "out", "saxpy"},
		{"truncated", saxpy[:3000], []string{"analyze", "-"}, ExitError, "err", "<stdin>:"},
		{"not a table", []byte("x,y\n1,2\n"), []string{"gate", "-"}, ExitError, "err", "<stdin>:1:"},
		{"twice", saxpy, []string{"analyze", "-", "-"}, ExitError, "err", "standard input"},
		{"ingest", saxpy, []string{"ingest", "--db", db, "-"}, ExitOK, "out", "<stdin>: stored as run"},
		{"gate", saxpy, []string{"gate", "-q", "--require", "duration > 0us", "-"}, ExitOK, "out", "passed"},
		{"diff", saxpy, []string{"diff", "-", fx + "saxpy.details.csv"}, ExitOK, "out", "geomean"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut string
			var code ExitCode
			withStdin(t, c.data, func() { out, errOut, code = run(t, c.args...) })
			got := out
			if c.stream == "err" {
				got = errOut
			}
			if code != c.code || !strings.Contains(got, c.want) {
				t.Errorf("%v: exit %d, want %d; std%s %q, want %q (stderr %q)", c.args, code, c.code, c.stream, got, c.want, errOut)
			}
		})
	}
}
