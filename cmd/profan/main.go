// Command profan reads Nsight Compute, nvprof and Nsight Systems CSV exports
// and explains the memory efficiency of the kernels they profile.
package main

import (
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/profan-dev/profan/internal/cli"
)

func main() {
	// Exports stream through in a few MB; trade a little of that headroom
	// for fewer collections (the rate matters on GB-scale exports).
	debug.SetGCPercent(200)
	debug.SetMemoryLimit(48 << 20)
	// PROFAN_CPUPROFILE=FILE writes a CPU profile of the command and
	// PROFAN_MEMPROFILE=FILE a heap profile at its end (go tool pprof
	// reads both): how the notes in docs/performance.md were made.
	if p := os.Getenv("PROFAN_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			defer f.Close()
			pprof.StartCPUProfile(f)
		}
	}
	code := cli.Main(os.Args[1:], cli.System())
	pprof.StopCPUProfile()
	if p := os.Getenv("PROFAN_MEMPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		}
	}
	os.Exit(int(code))
}
