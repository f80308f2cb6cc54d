// Command profan reads Nsight Compute, nvprof and Nsight Systems CSV exports
// and PyTorch profiler traces, and explains the memory efficiency of the
// kernels they profile.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/profan-dev/profan/internal/cli"
)

func main() {
	os.Exit(int(run()))
}

// run runs the command line. GOGC and GOMEMLIMIT, when set, are kept; else
// profan sets 200 % and 96 MiB (cli.SetRuntimeDefaults).
// PROFAN_CPUPROFILE=FILE writes a CPU profile of the command and
// PROFAN_MEMPROFILE=FILE a heap profile at its end (go tool pprof reads
// both): how the notes in docs/performance.md were made. A profile that
// cannot be written is an error (exit 2), said on stderr.
func run() (code cli.ExitCode) {
	cli.SetRuntimeDefaults(os.Getenv)
	if p := os.Getenv("PROFAN_CPUPROFILE"); p != "" {
		stop, err := startCPUProfile(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "profan: PROFAN_CPUPROFILE: %v\n", err)
			return cli.ExitError
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(os.Stderr, "profan: PROFAN_CPUPROFILE: %v\n", err)
				code = max(code, cli.ExitError)
			}
		}()
	}
	code = cli.Main(os.Args[1:], cli.System())
	if p := os.Getenv("PROFAN_MEMPROFILE"); p != "" {
		if err := writeHeapProfile(p); err != nil {
			fmt.Fprintf(os.Stderr, "profan: PROFAN_MEMPROFILE: %v\n", err)
			code = max(code, cli.ExitError)
		}
	}
	return code
}

// startCPUProfile starts a CPU profile into path; stop ends it and closes
// the file.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// writeHeapProfile writes a heap profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
