package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// childEnv makes the test binary run as profan.
const childEnv = "PROFAN_MAIN_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

const fixture = "../../fixtures/ncu/copy.details.csv"

// profan returns a command running the test binary as profan.
func profan(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	return cmd
}

// TestStdoutAsCIGivesIt runs profan the ways CI runners start it: standard
// output on /dev/null opened read-write (Python's subprocess.DEVNULL,
// systemd's StandardOutput=null) and closed (>&-, which Go's runtime
// replaces by /dev/null read-write). Each runs and stores its run.
func TestStdoutAsCIGivesIt(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, how := range []string{"devnull-rdwr", "closed", "no-stdin"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			db := filepath.Join(t.TempDir(), "p.db")
			var cmd *exec.Cmd
			switch how {
			case "devnull-rdwr":
				null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer null.Close()
				cmd = profan(t, nil, "ingest", "--db", db, fixture)
				cmd.Stdout = null
			case "closed":
				cmd = exec.Command(sh, "-c", `exec "$0" "$@" >&-`, os.Args[0], "ingest", "--db", db, fixture)
				cmd.Env = append(os.Environ(), childEnv+"=1")
			case "no-stdin":
				cmd = exec.Command(sh, "-c", `exec "$0" "$@" <&- >/dev/null`, os.Args[0], "ingest", "--db", db, fixture)
				cmd.Env = append(os.Environ(), childEnv+"=1")
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("ingest with stdout %s: %v: %s", how, err, stderr.String())
			}
			out, err := profan(t, nil, "runs", "--db", db).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "copy.details.csv") {
				t.Fatalf("runs after an ingest with stdout %s: %v: %s", how, err, out)
			}
		})
	}
}
