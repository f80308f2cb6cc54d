package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/profan-dev/profan/internal/cli"
	"github.com/profan-dev/profan/internal/tile"
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

// TestMemoryLimit: GOMEMLIMIT is kept; unset, profan sets 48 MiB.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ env, want string }{
		{"", "50331648"},
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

// TestSignalsStopTheWork sends SIGINT and SIGTERM to analyze, ingest,
// gate and report mid-way through a large trace (a real PyTorch capture
// tiled, internal/tile): each stops within a second, says so, exits 130 or
// 143, and leaves nothing half-written (the database byte for byte as it
// was, no new database, no report file or temporary file beside it).
func TestSignalsStopTheWork(t *testing.T) {
	if testing.Short() {
		t.Skip("tiles a 150 MB trace")
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tile.Torch(f, "../../fixtures/timeline/decode_sync.json.gz", 150e6); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db")
	if out, err := profan(t, nil, "ingest", "--db", db, fixture).CombinedOutput(); err != nil {
		t.Fatalf("ingest: %v: %s", err, out)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"analyze", big},
		{"ingest", "--db", db, big},
		{"ingest", "--db", filepath.Join(out, "new.db"), big},
		{"gate", "--require", "duration < 1s", big},
		{"report", "--html", filepath.Join(out, "r.html"), big},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			cmd := profan(t, nil, args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Mid-way: once it has read 8 MB of the trace.
			for deadline := time.Now().Add(60 * time.Second); readBytes(cmd.Process.Pid) < 8<<20 && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			sent := time.Now()
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			took := time.Since(sent)
			code := cmd.ProcessState.ExitCode()
			t.Logf("%s %s: exit %d after %v", sig, args[0], code, took.Round(time.Millisecond))
			if want := 128 + int(sig); code != want || took > time.Second || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("%v to profan %s: %v (exit %d) after %v, want exit %d within a second saying so: %s", sig, strings.Join(args, " "), err, code, took, want, stderr.String())
			}
			if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, before) {
				t.Errorf("%v to profan %s: the database changed (%v)", sig, strings.Join(args, " "), err)
			}
			if left, _ := os.ReadDir(out); len(left) > 0 {
				t.Errorf("%v to profan %s: left %s", sig, strings.Join(args, " "), left[0].Name())
			}
		}
	}
}

// readBytes is what process pid has read so far (/proc/PID/io's rchar).
func readBytes(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}
