// Package cli is profan's command tree. Each command is one file with an
// options struct and a run function; exit codes are decided in Main only.
package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags.
var Version = "0.1.0-dev"

// NewRoot builds the command tree.
func NewRoot(io *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "profan <command> [flags]",
		Short: "Explain the memory efficiency of CUDA kernels from ncu and nvprof CSV exports",
		Long: `profan reads the CSV exports of Nsight Compute (ncu), nvprof and Nsight Systems,
normalizes them, computes the memory-efficiency metrics of each kernel, cross-checks
them with an analytic memory model of the GPU, and says what to fix.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       Version,
	}
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &FlagError{err: err} })
	root.AddCommand(
		NewCmdAnalyze(io, nil),
		NewCmdModel(io, nil),
		NewCmdExplain(io),
		NewCmdIngest(io, nil),
		NewCmdRuns(io),
		NewCmdTrend(io),
		NewCmdDiff(io),
		NewCmdGate(io),
		NewCmdReport(io),
	)
	return root
}

// Main runs the command line args and returns the exit status.
func Main(args []string, io *IOStreams) ExitCode {
	root := NewRoot(io)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil {
		var flagErr *FlagError
		var gate *GateFailedError
		switch {
		case errors.As(err, &gate):
			// The gate report says why.
		case errors.As(err, &flagErr):
			fmt.Fprintf(io.ErrOut, "profan: %v\n", err)
			if cmd != nil {
				fmt.Fprintf(io.ErrOut, "\n%s", cmd.UsageString())
			}
		default:
			fmt.Fprintf(io.ErrOut, "profan: %v\n", err)
		}
	}
	return exitCodeOf(err)
}
