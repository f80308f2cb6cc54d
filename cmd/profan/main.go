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
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(48 << 20)
	// PROFAN_CPUPROFILE=FILE writes a CPU profile of the command (go tool
	// pprof reads it): how the README's performance notes were made.
	if p := os.Getenv("PROFAN_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			code := cli.Main(os.Args[1:], cli.System())
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(int(code))
		}
	}
	os.Exit(int(cli.Main(os.Args[1:], cli.System())))
}
