package store

// Tests that run several processes against one database: the test binary
// re-executes itself as a helper (TestMain dispatches on helperEnv).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/profan-dev/profan"
)

const (
	helperEnv      = "PROFAN_STORE_HELPER" // helper mode: "ingest" or "crash"
	helperDBEnv    = "PROFAN_STORE_HELPER_DB"
	helperArgEnv   = "PROFAN_STORE_HELPER_ARG" // ingest: comma-separated digests; crash: digest prefix
	helperStartEnv = "PROFAN_STORE_HELPER_START"

	canonicalPerKernel = 40
)

var canonicalNames = func() []string {
	names := make([]string, canonicalPerKernel)
	for i := range names {
		names[i] = fmt.Sprintf("canonical_%02d", i)
	}
	return names
}()

// synthKernel returns kernel i of a synthetic run, with nraw raw metrics and
// canonicalPerKernel canonical values.
func synthKernel(run, i, nkinds, nraw int) KernelRecord {
	k := profan.NewKernel()
	k.ID = strconv.Itoa(i)
	k.Name = fmt.Sprintf("_Z8kernel_%02dPfS_i", i%nkinds)
	k.Demangled = fmt.Sprintf("kernel_%02d(float*, float*, int)", i%nkinds)
	k.Device = "NVIDIA H100 80GB HBM3"
	k.CC = "9.0"
	k.Grid = profan.Dim3{1024, 1, 1}
	k.Block = profan.Dim3{256, 1, 1}
	k.Duration = 1e-5 * float64(1+i%7) * (1 + 0.01*float64(run%5))
	k.Metrics = make([]profan.Metric, nraw)
	for j := range k.Metrics {
		v := float64(run*1000 + i*10 + j)
		k.Metrics[j] = profan.Metric{Name: fmt.Sprintf("section__raw_metric_%03d.sum.per_second", j), Section: "Section",
			Value: v, Unit: "B/s", Min: math.NaN(), Max: math.NaN(), Raw: strconv.FormatFloat(v, 'f', 2, 64), RawUnit: "byte/second"}
	}
	rec := KernelRecord{Kernel: k, Canonical: make([]NamedValue, canonicalPerKernel)}
	for j := range rec.Canonical {
		rec.Canonical[j] = NamedValue{canonicalNames[j], float64(run + i + j)}
	}
	rec.Canonical[0].Value = k.Duration
	return rec
}

// helperMain runs in a re-executed test binary.
func helperMain(mode string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	if start := os.Getenv(helperStartEnv); start != "" {
		// Wait for the parent's signal so that the helpers really overlap.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if _, err := os.Stat(start); err == nil {
				break
			}
		}
	}
	db, err := Open(os.Getenv(helperDBEnv))
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	ctx := context.Background()
	arg := os.Getenv(helperArgEnv)
	switch mode {
	case "ingest":
		for _, digest := range strings.Split(arg, ",") {
			w, err := db.BeginRun(ctx, RunInfo{Digest: digest, Tool: "ncu", Format: "test", Labels: map[string]string{"pid": strconv.Itoa(os.Getpid())}})
			var dup *DuplicateError
			if errors.As(err, &dup) {
				fmt.Printf("dup %s %d\n", digest, dup.ID)
				continue
			}
			if err != nil {
				return fail(err)
			}
			for i := range 50 {
				if err := w.AddKernel(synthKernel(0, i, 10, 20)); err != nil {
					return fail(err)
				}
			}
			id, err := w.Commit()
			if err != nil {
				return fail(err)
			}
			fmt.Printf("ok %s %d\n", digest, id)
		}
		return 0
	case "crash":
		// Ingest runs until killed, saying after each commit.
		for i := range 10000 {
			w, err := db.BeginRun(ctx, RunInfo{Digest: fmt.Sprintf("%s-%d", arg, i), Tool: "ncu", Format: "test"})
			if err != nil {
				return fail(err)
			}
			for j := range crashKernels {
				if err := w.AddKernel(synthKernel(i, j, 10, 20)); err != nil {
					return fail(err)
				}
			}
			if _, err := w.Commit(); err != nil {
				return fail(err)
			}
			fmt.Printf("committed %d\n", i)
		}
		return 0
	}
	return fail(fmt.Errorf("unknown mode %q", mode))
}

const crashKernels = 300

func helperCmd(t *testing.T, mode, db, arg, start string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDBEnv+"="+db, helperArgEnv+"="+arg, helperStartEnv+"="+start)
	return cmd
}

// checkConsistent verifies the database file (SQLite) and that every stored
// run has all its kernels and values.
func checkConsistent(t *testing.T, db *DB, kernelsPerRun int) (runs int) {
	t.Helper()
	if db.d == sqliteDialect {
		var ok string
		if err := db.db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
			t.Fatalf("integrity_check: %q, %v", ok, err)
		}
		rows, err := db.db.Query(`PRAGMA foreign_key_check`)
		if err != nil {
			t.Fatal(err)
		}
		if rows.Next() {
			t.Error("foreign_key_check reports violations")
		}
		rows.Close()
	}
	rows, err := db.db.Query(`SELECT r.id, r.digest, r.kernels, (SELECT count(*) FROM kernels k WHERE k.run_id = r.id),
	(SELECT count(*) FROM kernels k JOIN kernel_values v ON v.kernel_id = k.id WHERE k.run_id = r.id) FROM runs r`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var digest string
		var n, nk, nv int
		if err := rows.Scan(&id, &digest, &n, &nk, &nv); err != nil {
			t.Fatal(err)
		}
		if n != kernelsPerRun || nk != kernelsPerRun || nv != kernelsPerRun*canonicalPerKernel {
			t.Errorf("run %d (%s): %d kernels recorded, %d kernel rows, %d values; want %d, %d, %d",
				id, digest, n, nk, nv, kernelsPerRun, kernelsPerRun, kernelsPerRun*canonicalPerKernel)
		}
		runs++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var total int
	db.db.QueryRow(`SELECT count(*) FROM kernels`).Scan(&total)
	if total != runs*kernelsPerRun {
		t.Errorf("%d kernel rows for %d runs: orphans left", total, runs)
	}
	return runs
}

// TestCrash kills an ingesting process at random points, several times, and
// checks that every run is wholly present or absent.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills four writers mid-transaction: runs without -short, as CI does")
	}
	path := testDSN(t, "crash.db")
	committed := 0
	for round := range 4 {
		cmd := helperCmd(t, "crash", path, fmt.Sprintf("round%d", round), "")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "committed 1" {
				break
			}
		}
		// Kill somewhere in the third run, or in its commit.
		time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		seen := 2
		for sc.Scan() { // runs committed before the kill
			seen++
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: helper ended with %v, want SIGKILL; stderr:\n%s", round, err, stderr.String())
		}
		committed += 2

		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n := checkConsistent(t, db, crashKernels)
		t.Logf("round %d: %d commits reported, %d runs stored in all", round, seen, n)
		if n < committed {
			t.Errorf("round %d: %d runs stored, want at least %d", round, n, committed)
		}
		committed = n
		db.Close()
	}
}

// TestConcurrentIngest runs four processes (eight on PostgreSQL) that each
// ingest five runs into a new database at once (so they also race to
// migrate it), then as many that race to ingest the same five exports, each
// in its own order.
func TestConcurrentIngest(t *testing.T) {
	dir := t.TempDir()
	path := testDSN(t, "concurrent.db")
	procs := 4
	if onPostgres(t) {
		procs = 8
	}
	run := func(args []string) []string {
		start := filepath.Join(dir, fmt.Sprintf("start-%d", rand.Int()))
		outs := make([]strings.Builder, len(args))
		errs := make([]strings.Builder, len(args))
		cmds := make([]*exec.Cmd, len(args))
		for i, arg := range args {
			cmds[i] = helperCmd(t, "ingest", path, arg, start)
			cmds[i].Stdout, cmds[i].Stderr = &outs[i], &errs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(start, nil, 0o644)
		var wg sync.WaitGroup
		for i, cmd := range cmds {
			wg.Go(func() {
				if err := cmd.Wait(); err != nil {
					t.Errorf("helper %d: %v; stderr:\n%s", i, err, errs[i].String())
				}
			})
		}
		wg.Wait()
		var lines []string
		for i := range outs {
			lines = append(lines, strings.Fields(outs[i].String())...)
		}
		return lines
	}

	var args []string
	for p := range procs {
		var ds []string
		for r := range 5 {
			ds = append(ds, fmt.Sprintf("sha256:p%d-r%d", p, r))
		}
		args = append(args, strings.Join(ds, ","))
	}
	run(args)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := checkConsistent(t, db, 50); n != procs*5 {
		t.Errorf("got %d runs, want %d", n, procs*5)
	}

	args = args[:0]
	for p := range procs {
		var ds []string
		for r := range 5 {
			ds = append(ds, fmt.Sprintf("sha256:same-%d", (p+r)%5))
		}
		args = append(args, strings.Join(ds, ","))
	}
	out := run(args) // "ok" or "dup", digest, run ID
	for r := range 5 {
		digest := fmt.Sprintf("sha256:same-%d", r)
		var oks, dups int
		ids := map[string]bool{}
		for i := 0; i+2 < len(out); i += 3 {
			if out[i+1] != digest {
				continue
			}
			switch out[i] {
			case "ok":
				oks++
			case "dup":
				dups++
			}
			ids[out[i+2]] = true
		}
		if oks != 1 || dups != procs-1 || len(ids) != 1 {
			t.Errorf("%d racing ingests of %s: %d ok, %d dup, run IDs %v; want 1 ok, %d dup, one ID", procs, digest, oks, dups, ids, procs-1)
		}
		var n int
		db.db.QueryRow(db.d.rebind(`SELECT count(*) FROM runs WHERE digest = ?`), digest).Scan(&n)
		if n != 1 {
			t.Errorf("got %d runs of the raced digest %s, want 1", n, digest)
		}
	}
	if n := checkConsistent(t, db, 50); n != procs*5+5 {
		t.Errorf("got %d runs, want %d", n, procs*5+5)
	}
}
