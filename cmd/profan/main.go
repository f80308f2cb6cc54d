// Command profan reads Nsight Compute, nvprof and Nsight Systems CSV exports
// and explains the memory efficiency of the kernels they profile.
package main

import (
	"os"
	"runtime/debug"

	"github.com/profan-dev/profan/internal/cli"
)

func main() {
	// Exports stream through in a few MB; trade a little of that headroom
	// for fewer collections (the rate matters on GB-scale exports).
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(48 << 20)
	os.Exit(int(cli.Main(os.Args[1:], cli.System())))
}
