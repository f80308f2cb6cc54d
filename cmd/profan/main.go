// Command profan reads Nsight Compute, nvprof and Nsight Systems CSV exports
// and explains the memory efficiency of the kernels they profile.
package main

import (
	"os"

	"github.com/profan-dev/profan/internal/cli"
)

func main() {
	os.Exit(int(cli.Main(os.Args[1:], cli.System())))
}
