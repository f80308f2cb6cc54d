package adversarial

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// storedRuns lists the runs of the database in dir as `profan runs` reads
// them: source → kernels, and how many runs.
func storedRuns(t *testing.T, dir string) (map[string]int, int) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "db")); os.IsNotExist(err) {
		return nil, 0 // killed before it was made
	}
	r := runProfan(dir, []string{"runs", "--db", "db", "--format", "json"}, nil)
	if r.code == 2 && strings.Contains(string(r.stderr), "the database is empty, no run stored yet") {
		return nil, 0 // killed while it was made: read, and said so
	}
	if r.code != 0 {
		t.Fatalf("runs after the kill: exit %d: %s", r.code, r.stderr)
	}
	var runs []struct {
		Source  string `json:"source"`
		Kernels int    `json:"kernels"`
	}
	if err := json.Unmarshal(r.stdout, &runs); err != nil {
		t.Fatalf("runs --format json: %v: %.200s", err, r.stdout)
	}
	out := map[string]int{}
	for _, run := range runs {
		out[run.Source] = run.Kernels
	}
	return out, len(runs)
}

// TestKillDuringIngest kills `profan ingest` (SIGKILL) at random points
// while it stores real exports, several times, and holds that the
// database still opens for reading (without migrating) and holds only
// whole runs, each with every kernel its export has; the next ingest
// stores what is missing.
func TestKillDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("stores real exports several times")
	}
	var exports []string
	for _, p := range []string{"fixtures/pytorch/train.full.details.csv.gz", "fixtures/sweep/sweep.details.csv.gz",
		"fixtures/pytorch2/cnn.full.details.csv.gz", "fixtures/pytorch2/tf.full.raw.csv.gz"} {
		exports = append(exports, abs(p))
	}
	// What each export stores, undisturbed.
	refDir := t.TempDir()
	if r := runProfan(refDir, append([]string{"ingest", "--db", "db"}, exports...), nil); r.code != 0 {
		t.Fatalf("ingest: %s", r.stderr)
	}
	want, n := storedRuns(t, refDir)
	if n != len(exports) {
		t.Fatalf("%d runs stored, want %d", n, len(exports))
	}

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	killed := 0
	for round := range 4 {
		cmd := exec.Command(exe, append([]string{"ingest", "--db", "db"}, exports...)...)
		cmd.Dir, cmd.Env = dir, childEnviron(dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Every export is read before the first is stored: the kill comes
		// once the database is open (round 0) or a run is stored (the
		// others), then a little later, inside the next run's writes.
		sc := bufio.NewScanner(out)
		if round == 0 {
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				if _, err := os.Stat(filepath.Join(dir, "db")); err == nil {
					break
				}
			}
		} else {
			sc.Scan()
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		for sc.Scan() {
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		} else if err != nil {
			t.Fatalf("round %d: ingest ended with %v", round, err)
		}
		got, _ := storedRuns(t, dir)
		for src, k := range got {
			if k != want[src] {
				t.Errorf("round %d: %s stored with %d kernels, want %d (a part of a run)", round, filepath.Base(src), k, want[src])
			}
		}
		t.Logf("round %d: %d of %d exports stored when killed", round, len(got), len(exports))
	}
	if killed == 0 {
		t.Log("no ingest was killed mid-way (each had finished)")
	}
	if r := runProfan(dir, append([]string{"ingest", "--db", "db"}, exports...), nil); r.code != 0 {
		t.Fatalf("ingest after the kills: exit %d: %s", r.code, r.stderr)
	}
	got, n := storedRuns(t, dir)
	if n != len(exports) {
		t.Errorf("%d runs after the last ingest, want %d", n, len(exports))
	}
	for src, k := range got {
		if k != want[src] {
			t.Errorf("%s stored with %d kernels, want %d", filepath.Base(src), k, want[src])
		}
	}
}
