package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/cli"
)

// childEnv makes the test binary run as profan.
const childEnv = "PROFAN_MAIN_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main() // exits
	}
	if os.Getenv(childEnv) == "limit" {
		// The memory limit profan runs under.
		cli.SetRuntimeDefaults(os.Getenv)
		fmt.Print(debug.SetMemoryLimit(-1))
		os.Exit(0)
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

// TestProfileErrors: a profile that cannot be written is said, exit 2.
func TestProfileErrors(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof")
	for _, env := range []string{"PROFAN_CPUPROFILE", "PROFAN_MEMPROFILE"} {
		cmd := profan(t, []string{env + "=" + bad}, "analyze", fixture)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), env) || !strings.Contains(stderr.String(), bad) {
			t.Errorf("%s=%s: got %v, stderr %q; want exit 2 naming the variable and file", env, bad, err, stderr.String())
		}
	}
}

// TestMemoryLimit: GOMEMLIMIT is kept; unset, profan sets 96 MiB.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ env, want string }{
		{"", "100663296"},
		{"GOMEMLIMIT=1GiB", "1073741824"},
		{"GOMEMLIMIT=off", "9223372036854775807"},
	} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=limit", "GOMEMLIMIT=")
		if c.env != "" {
			cmd.Env = append(cmd.Env, c.env)
		}
		out, err := cmd.Output()
		if err != nil || string(out) != c.want {
			t.Errorf("%q: memory limit %q (%v), want %s", c.env, out, err, c.want)
		}
	}
}
