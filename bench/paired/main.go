// Command paired times two profan binaries on the same inputs in turn and
// compares them pair by pair: for each workload it runs the reference and
// the candidate alternately (ABBA: the first of a pair alternates, so that
// a machine speeding up or slowing down favours neither), records each
// run's CPU time (user + system), wall time and peak resident set size
// from the kernel's rusage of the child, and prints the medians, their
// ratio, and a one-sided Wilcoxon signed-rank test (profan's
// internal/stats) of whether the candidate exceeds the reference by more
// than the margin.
//
//	paired -ref old/profan -head new/profan -dir INPUTS -pairs 9 -margin 0.10
//
// INPUTS holds ncu.csv (an ncu details page) and trace.csv (an nvprof
// gpu-trace), e.g. made by bench/tile; where it also holds sass.raw.csv.gz
// and sass.source.csv.gz (an ncu raw page and its source page, e.g.
// fixtures/sol-check22's), "sass analyze" reads the two: the rules that
// read the SASS run only there. With -gate the exit status is 1 when
// a workload's CPU time or peak RSS fails (its median ratio above 1 +
// margin and the test's p below -alpha), 2 on an error (a run that fails).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/profan-dev/profan/internal/stats"
)

// workload is one profan command on one input.
type workload struct {
	name string
	args func(dir, db string) []string
	db   bool // writes a database, removed before each run
	// optional: run only where the inputs are in the directory.
	optional []string
}

var workloads = []workload{
	{"ncu ingest", func(dir, db string) []string { return []string{"ingest", "--db", db, filepath.Join(dir, "ncu.csv")} }, true, nil},
	{"trace ingest", func(dir, db string) []string { return []string{"ingest", "--db", db, filepath.Join(dir, "trace.csv")} }, true, nil},
	{"trace analyze", func(dir, _ string) []string { return []string{"analyze", filepath.Join(dir, "trace.csv")} }, false, nil},
	{"ncu analyze", func(dir, _ string) []string {
		return []string{"analyze", "--format", "json", filepath.Join(dir, "ncu.csv")}
	}, false, nil},
	{"sass analyze", func(dir, _ string) []string {
		return []string{"analyze", "--format", "json", filepath.Join(dir, "sass.raw.csv.gz"), filepath.Join(dir, "sass.source.csv.gz")}
	}, false, []string{"sass.raw.csv.gz", "sass.source.csv.gz"}},
}

// sample is one run's measures.
type sample struct{ cpu, wall, rss float64 }

func main() {
	ref := flag.String("ref", "", "the reference binary")
	head := flag.String("head", "", "the candidate binary")
	refName := flag.String("ref-name", "ref", "the reference's name in the table")
	headName := flag.String("head-name", "head", "the candidate's name in the table")
	dir := flag.String("dir", "", "the inputs' directory (ncu.csv, trace.csv)")
	pairs := flag.Int("pairs", 9, "pairs of runs per workload")
	margin := flag.Float64("margin", 0.10, "the excess over the reference a failure needs (0.10: 10%)")
	alpha := flag.Float64("alpha", 0.05, "the signed-rank test's level")
	only := flag.String("workloads", "", "comma-separated workloads (default all: ncu ingest, trace ingest, trace analyze, ncu analyze)")
	gate := flag.Bool("gate", false, "exit 1 when a workload's CPU time or peak RSS fails")
	flag.Parse()
	if *ref == "" || *head == "" || *dir == "" {
		fmt.Fprintln(os.Stderr, "paired: -ref, -head and -dir are required")
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "paired-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)
	load0 := loadavg()
	fmt.Printf("%d pairs per workload, in turn (ABBA); medians; CPU = user + system; load average %s\n", *pairs, load0)
	fmt.Printf("%-14s %-5s %10s %10s %7s %8s  %s\n", "workload", "", *refName, *headName, "ratio", "p", "")
	failed := false
	for _, w := range workloads {
		if *only != "" && !strings.Contains(","+*only+",", ","+w.name+",") || !present(*dir, w.optional) {
			continue
		}
		var a, b []sample
		for i := range *pairs {
			bins := []string{*ref, *head}
			if i%2 == 1 {
				bins = []string{*head, *ref}
			}
			for _, bin := range bins {
				s, err := run(bin, w, *dir, filepath.Join(tmp, "p.db"))
				if err != nil {
					fatal(fmt.Errorf("%s, %s: %w", w.name, bin, err))
				}
				if bin == *ref {
					a = append(a, s)
				} else {
					b = append(b, s)
				}
			}
		}
		for _, m := range []struct {
			name, unit string
			of         func(sample) float64
			judged     bool
		}{
			{"CPU", "s", func(s sample) float64 { return s.cpu }, true},
			{"wall", "s", func(s sample) float64 { return s.wall }, false},
			{"RSS", "MB", func(s sample) float64 { return s.rss }, true},
		} {
			xa, xb := pick(a, m.of), pick(b, m.of)
			ma, mb := stats.Median(xa), stats.Median(xb)
			d := make([]float64, len(xa))
			for i := range xa {
				d[i] = xb[i] - (1+*margin)*xa[i]
			}
			t := stats.SignedRankGreater(d)
			verdict := ""
			if m.judged {
				verdict = "ok"
				if mb > (1+*margin)*ma && t.P < *alpha {
					verdict = fmt.Sprintf("FAIL: more than %.0f%% above %s", 100**margin, *refName)
					failed = true
				}
			}
			p := fmt.Sprintf("%.3f", t.P)
			if !m.judged {
				p = "-"
			}
			fmt.Printf("%-14s %-5s %8.3f%-2s %8.3f%-2s %6.3fx %8s  %s\n", w.name, m.name, ma, m.unit, mb, m.unit, mb/ma, p, verdict)
		}
	}
	fmt.Printf("load average after: %s\n", loadavg())
	fmt.Printf("p: one-sided Wilcoxon signed-rank test of %s - (1 + %.2f) x %s over the pairs; a failure needs the median ratio above %.2f and p < %g\n",
		*headName, *margin, *refName, 1+*margin, *alpha)
	if *gate && failed {
		os.Exit(1)
	}
}

// run runs bin on workload w once and measures it.
func run(bin string, w workload, dir, db string) (sample, error) {
	if w.db {
		for _, ext := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(db + ext)
		}
	}
	cmd := exec.Command(bin, w.args(dir, db)...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = nil, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%v: %s", err, stderr.String())
	}
	wall := time.Since(start).Seconds()
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, fmt.Errorf("no rusage")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	return sample{cpu: cpu, wall: wall, rss: float64(ru.Maxrss) / 1024}, nil // Maxrss: KiB on Linux
}

// present reports whether every file named is in dir.
func present(dir string, files []string) bool {
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

func pick(s []sample, of func(sample) float64) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = of(x)
	}
	return out
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "paired:", err)
	os.Exit(2)
}
