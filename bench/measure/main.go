// Command measure runs a command several times and prints its median wall
// time and its largest peak resident set size, from the kernel's rusage of
// the child (no /usr/bin/time needed).
//
//	measure -n 5 -name "profan ingest" -- profan ingest --db x.db big.csv
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 5, "runs")
	name := flag.String("name", "", "label for the output line")
	before := flag.String("before", "", "shell command run before each run, untimed (e.g. rm -f db)")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "measure: no command")
		os.Exit(2)
	}
	var times []float64
	var peak int64
	for i := 0; i < *n; i++ {
		if *before != "" {
			if err := exec.Command("sh", "-c", *before).Run(); err != nil {
				fmt.Fprintln(os.Stderr, "measure: before:", err)
				os.Exit(2)
			}
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdout, cmd.Stderr = nil, os.Stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "measure: %s: %v\n", *name, err)
			os.Exit(1)
		}
		times = append(times, time.Since(start).Seconds())
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
			peak = ru.Maxrss // kilobytes on Linux
		}
	}
	sort.Float64s(times)
	fmt.Printf("%s\t%.3f\t%.1f\n", *name, times[len(times)/2], float64(peak)/1024)
}
